// The exported site's search in the browser, over the inverted index `rulings export` writes
// (search-index.json, made by web/export_search.py; its docstring describes the format). It
// answers as the server does (kb/questions.py, kb/plans.py, kb/search.py), rule for rule: the
// query read as the server reads it (filler words dropped, -word excluded, word* a prefix); a
// word the index does not know mended to the known word that fits the rest of the query (two
// as likely: both searched); two words that make a known compound also found as it; each word
// scored by BM25F in the server's fields with its weights (headword 4, its stems 2.5, card
// names 2, their stems 1.5, text 1, extra text 0.8), a headword also by the word's other
// inflections; the documents with every word first, then those with the most. Stems are the
// server's (inflectionStem = kb.analysis.inflection_stem). tests/test_offline_search.py holds
// the two to the same top three over the relevance sets.
(function () {
  "use strict";
  var WORD = /\[[\p{L}\p{N}_]+\]|[\p{L}\p{N}_]+(?:['\u2019.\-][\p{L}\p{N}_]+)*\.?/gu;
  var PART = /(-)?(?:([A-Za-z]+):)?(?:"([^"]*)"?|([^\s"]+))/g;
  var SPLIT = /[^\p{L}\p{N}_'\u2019.*\-\[\]]+/u;
  var FIELDS = { card: 1, cards: 1, kind: -1, doc: -1, game: -1, headword: 0 };
  // The server's scored fields: [field of the postings, stemmed, boost] (kb/index.py schema()).
  var SCORED = [[0, false, 4.0], [0, true, 2.5], [1, false, 2.0], [1, true, 1.5], [2, true, 1.0], [3, true, 0.8]];
  var PREFIXED = [[0, false, 4.0], [1, false, 2.0], [2, true, 1.0]];  // where a word* is looked for
  var K1 = 1.2;
  var B = 0.75;
  var RERANK = 100;  // documents with some of the words ranked by how many (kb.plans.RERANK)
  var PARTS = 12;  // query parts read (kb.budget.PARTS)
  var TERMS = 96;  // leaf terms of a query (kb.budget.TERMS)
  var EXPANSIONS = 16;  // terms a prefix stands for, per field (kb.budget.EXPANSIONS)
  var MIN_PREFIX = 2;
  var CORRECTED = 4;  // words mended at most (kb.budget.CORRECTED)
  var MAX_FITTED = 8;
  var CLOSE = 2;
  var MOST_FIT = 50;
  var MAX_QUERY = 500;

  function foldQuotes(s) { return s.replace(/[\u2018\u2019\u201b\u2032]/g, "'").replace(/[\u201c\u201d]/g, '"'); }
  function fold(word) { return foldQuotes(word).replace(/[\[\]'.\-]/g, "").toLowerCase(); }

  function queryWords(text) {
    // The folded words of a query, a compound as its parts (bio-ship: bio, ship), each once.
    var out = [];
    (text.match(WORD) || []).forEach(function (raw) {
      foldQuotes(raw).split("-").map(fold).forEach(function (w) { if (w && out.indexOf(w) < 0) { out.push(w); } });
    });
    return out;
  }

  function textWords(text) {
    // The folded words of a text as the index holds them: a compound joined and as its parts.
    var out = [];
    (text.match(WORD) || []).forEach(function (raw) {
      out.push(fold(raw));
      var parts = foldQuotes(raw).split("-");
      if (parts.length > 1) { parts.forEach(function (p) { out.push(fold(p)); }); }
    });
    return out.filter(Boolean);
  }

  function analysed(word, stemmed) {
    // The terms the server's query analysers make of a word: folded, a compound as its parts.
    var out = [];
    (word.match(WORD) || []).forEach(function (raw) {
      var parts = foldQuotes(raw).split("-").map(fold).filter(Boolean);
      var whole = fold(raw);
      if (!whole) { return; }
      (parts.length < 2 ? [whole] : parts).forEach(function (t) { out.push(stemmed ? inflectionStem(t) : t); });
    });
    return out;
  }

  // -- inflectionStem: kb.analysis.inflection_stem, letter for letter -------------------------
  function isVowel(word, at) {
    var c = word[at];
    return "aeiou".indexOf(c) >= 0 || (c === "y" && at > 0 && !isVowel(word, at - 1));
  }
  function measure(word) {
    var n = 0;
    for (var i = 1; i < word.length; i++) { if (isVowel(word, i - 1) && !isVowel(word, i)) { n++; } }
    return n;
  }
  function hasVowel(word) {
    for (var i = 0; i < word.length; i++) { if (isVowel(word, i)) { return true; } }
    return false;
  }
  function isShort(word) {
    var n = word.length;
    return n >= 3 && measure(word) === 1 && "wxy".indexOf(word[n - 1]) < 0 &&
      !isVowel(word, n - 1) && isVowel(word, n - 2) && !isVowel(word, n - 3);
  }
  function doubled(word) {
    var n = word.length;
    return n > 1 && word[n - 1] === word[n - 2] && !isVowel(word, n - 1);
  }
  function inflectionStem(word) {
    if (word.length < 3 || !/^\p{L}+$/u.test(word)) { return word; }
    var ends = function (e) { return word.length >= e.length && word.slice(-e.length) === e; };
    if (ends("sses") || ends("ies")) { word = word.slice(0, -2); } else if (ends("s") && !ends("ss")) { word = word.slice(0, -1); }
    if (ends("eed")) {
      if (measure(word.slice(0, -3)) > 0) { word = word.slice(0, -1); }
    } else {
      var endings = ["ed", "ing"];
      for (var i = 0; i < endings.length; i++) {
        var e = endings[i];
        if (ends(e) && hasVowel(word.slice(0, -e.length))) {
          word = word.slice(0, -e.length);
          if (/(at|bl|iz)$/.test(word)) { word += "e"; } else if (doubled(word) && "lsz".indexOf(word[word.length - 1]) < 0) { word = word.slice(0, -1); } else if (isShort(word)) { word += "e"; }
          break;
        }
      }
    }
    if (ends("y") && hasVowel(word.slice(0, -1))) { word = word.slice(0, -1) + "i"; }
    if (ends("e")) {
      var rest = word.slice(0, -1);
      var m = measure(rest);
      if (m > 1 || (m === 1 && !isShort(rest))) { word = rest; }
    }
    return word;
  }

  function distance(a, b, limit) {
    // The edits (insert, delete, change, swap two neighbours) from a to b; limit + 1 when more.
    if (Math.abs(a.length - b.length) > limit) { return limit + 1; }
    var before = null;
    var prev = [];
    for (var j = 0; j <= b.length; j++) { prev.push(j); }
    for (var i = 1; i <= a.length; i++) {
      var row = [i];
      var least = i;
      for (j = 1; j <= b.length; j++) {
        var v = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
        if (before && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) { v = Math.min(v, before[j - 2] + 1); }
        row.push(v);
        least = Math.min(least, v);
      }
      if (least > limit) { return limit + 1; }
      before = prev;
      prev = row;
    }
    return prev[b.length];
  }

  function bare(word) {
    // The word without an inflectional ending, nothing restored (kb.questions._bare).
    var endings = ["ing", "ies", "es", "ed", "s"];
    for (var i = 0; i < endings.length; i++) {
      var e = endings[i];
      if (word.slice(-e.length) === e && word.length - e.length >= 3) { return word.slice(0, -e.length); }
    }
    return word;
  }

  function inflects(word, known) {
    // Two words of one stem differing only in endings of three letters at most (kb.questions._inflects).
    var shared = 0;
    while (shared < Math.min(word.length, known.length) && word[shared] === known[shared]) { shared++; }
    return Math.abs(word.length - known.length) <= 2 && Math.max(word.length, known.length) - shared <= 3;
  }

  function readQuery(text, filler) {
    // The query as the server reads it (kb.questions.read_query): words, prefixes, exclusions, clauses.
    var typed = { words: [], prefixes: [], excluded: [], clauses: [] };
    var plain = [];
    var m;
    PART.lastIndex = 0;
    text = text.slice(0, MAX_QUERY);
    while ((m = PART.exec(text)) !== null) {
      if (m[0] === "") { PART.lastIndex++; continue; }
      var raw = m[3] !== undefined ? m[3] : m[4];
      var name = (m[2] || "").toLowerCase();
      var known = Object.prototype.hasOwnProperty.call(FIELDS, name);
      if (name && !known) { raw = m[2] + " " + raw; }
      if (known || m[3] !== undefined || m[1]) {
        if (raw.trim()) {
          var clause = { text: raw, field: known ? FIELDS[name] : null, phrase: m[3] !== undefined };
          if (known && FIELDS[name] < 0) { clause.value = raw.trim().toLowerCase(); clause.name = name; }
          (m[1] ? typed.excluded : typed.clauses).push(clause);
        }
        continue;
      }
      raw.split(SPLIT).forEach(function (w) { if (w.replace(/^[*.'\u2019\-]+|[*.'\u2019\-]+$/g, "")) { plain.push(w); } });
    }
    var content = plain.filter(function (w) { return !filler.has(fold(w.replace(/\*+$/, ""))); });
    (content.length ? content : plain).forEach(function (w) {
      var word = w.replace(/\*+$/, "");
      var list = /\*$/.test(w) && word ? typed.prefixes : typed.words;
      if (!list.some(function (x) { return fold(x) === fold(word); })) { list.push(word); }
    });
    var room = PARTS - typed.clauses.length;
    typed.prefixes = typed.prefixes.slice(0, Math.max(0, room));
    room -= typed.prefixes.length;
    typed.words = typed.words.slice(0, Math.max(0, room));
    return typed;
  }

  function Index(data) {
    var self = this;
    this.docs = data.documents;
    this.averages = data.averages;
    this.postings = new Map();  // word -> [document number, field, count, ...]
    this.names = new Set();  // words of headwords and card names
    this.counts = new Map();  // word -> times in texts
    Object.keys(data.postings).forEach(function (t) {
      var p = data.postings[t];
      var out = [];
      var times = 0;
      for (var i = 0, d = 0; i < p.length; i += 2) {
        d += p[i];
        var field = p[i + 1] % 4;
        var count = (p[i + 1] - field) / 4 + 1;
        out.push(d, field, count);
        if (field < 2) { self.names.add(t); } else { times += count; }
      }
      self.postings.set(t, out);
      self.counts.set(t, times);
    });
    this.filler = new Set(data.filler);
    this.cardLists = new Set(data.card_lists || []);
    this.indexed = data.indexed || null;  // the server's own postings of card names and extra text
    if (this.indexed) { Object.keys(this.indexed.cards).forEach(function (w) { self.names.add(w); }); }
    this.terms = Array.from(this.postings.keys()).sort();
    this.family = new Map();  // stem -> the index's words with it
    this.stems = new Map();
    this.byStart = new Map();  // first letter -> the index's words
    this.terms.forEach(function (t) {
      var s = inflectionStem(t);
      self.stems.set(t, s);
      if (!self.family.has(s)) { self.family.set(s, []); }
      self.family.get(s).push(t);
      if (!self.byStart.has(t[0])) { self.byStart.set(t[0], []); }
      self.byStart.get(t[0]).push(t);
    });
    this.cache = new Map();
  }

  Index.prototype.stemOf = function (word) { return this.stems.has(word) ? this.stems.get(word) : inflectionStem(word); };

  Index.prototype.known = function (word) { return this.postings.has(word); };

  Index.prototype.termScores = function (field, stemmed, boost, term) {
    // Document number -> BM25F score of one index term in one of the server's fields (Whoosh's
    // formula: idf = ln(N / (df + 1)) + 1, the count weighted by the field's boost).
    var key = field + "|" + stemmed + "|" + boost + "|" + term;
    if (this.cache.has(key)) { return this.cache.get(key); }
    var counts = new Map();
    var self = this;
    var own = this.indexed && (field === 1 ? this.indexed[stemmed ? "cardstem" : "cards"] : field === 3 && stemmed ? this.indexed.extra : null);
    if (own) {
      var q = own[term] || [];
      for (var j = 0, n = 0; j < q.length; j += 2) { n += q[j]; counts.set(n, q[j + 1]); }
    } else (stemmed ? this.family.get(term) || [] : (this.postings.has(term) ? [term] : [])).forEach(function (w) {
      var p = self.postings.get(w);
      for (var i = 0; i < p.length; i += 3) {
        if (p[i + 1] === field) { counts.set(p[i], (counts.get(p[i]) || 0) + p[i + 2]); }
      }
    });
    var idf = Math.log(this.docs.length / (counts.size + 1)) + 1;
    var average = this.averages[field] || 1;
    var out = new Map();
    counts.forEach(function (count, d) {
      var weight = count * boost;
      var norm = K1 * ((1 - B) + B * self.docs[d].lengths[field] / average);
      out.set(d, idf * ((weight * (K1 + 1)) / (weight + norm)));
    });
    this.cache.set(key, out);
    return out;
  };

  Index.prototype.clauseScores = function (clause) {
    // Document number -> score of one clause: terms all in one field (a compound's parts), summed.
    var self = this;
    var maps = clause.terms.map(function (t) { return self.termScores(clause.field, clause.stemmed, clause.boost, t); });
    if (maps.length === 1) { return maps[0]; }
    var out = new Map();
    maps[0].forEach(function (s, d) {
      var sum = s;
      for (var i = 1; i < maps.length; i++) { if (!maps[i].has(d)) { return; } sum += maps[i].get(d); }
      if (!clause.phrase || self.inPhrase(clause, d)) { out.set(d, sum); }
    });
    return out;
  };

  function wordClauses(word, inflections) {
    // The server's kb.plans.word_query: the word in each scored field, in names also as its inflections.
    var out = [];
    SCORED.forEach(function (f) {
      var terms = analysed(word, f[1]);
      if (!terms.length) { return; }
      out.push({ field: f[0], stemmed: f[1], boost: f[2], terms: terms });
      if (!f[1] && terms.length === 1) {
        (inflections || []).forEach(function (other) { out.push({ field: f[0], stemmed: false, boost: f[2], terms: [other] }); });
      }
    });
    return out;
  }

  function positions(text, stemmed) {
    // Each term of a text with its positions, as the server's index places them (a compound
    // joined at its first part's position, its parts one after another).
    var out = new Map();
    var pos = 0;
    var put = function (t, at) { t = stemmed ? inflectionStem(t) : t; if (!out.has(t)) { out.set(t, []); } out.get(t).push(at); };
    (text.match(WORD) || []).forEach(function (raw) {
      var whole = fold(raw);
      if (!whole) { return; }
      var parts = foldQuotes(raw).split("-").map(fold).filter(Boolean);
      put(whole, pos);
      if (parts.length >= 2) { parts.forEach(function (p, i) { put(p, pos + i); }); pos += parts.length; } else { pos += 1; }
    });
    return out;
  }

  Index.prototype.clauseQuery = function (clause) {
    // A phrase or a field's word (kb.plans.clause_query): a phrase's words next to each other
    // in the headword, card names, text or extra text.
    if (clause.value !== undefined) { return null; }  // kind:, doc:, game: filter (`allowed`)
    if (!clause.phrase && clause.field === null) { return wordClauses(clause.text); }
    var fields = clause.field !== null ? [clause.field] : [0, 1, 2, 3];
    var boosts = [4.0, 2.0, 1.0, 0.8];
    var out = [];
    fields.forEach(function (f) {
      var terms = analysed(clause.text, f >= 2);
      if (!terms.length) { return; }
      var c = { field: f, stemmed: f >= 2, boost: boosts[f], terms: terms };
      if (terms.length > 1) { c.phrase = true; }
      out.push(c);
    });
    return out;
  };

  Index.prototype.inPhrase = function (clause, d) {
    // Whether document d holds the clause's terms one after another in its field.
    var doc = this.docs[d];
    var text = [doc.headword, doc.cards || "", doc.words || doc.text, doc.extra || ""][clause.field];
    var at = positions(text, clause.stemmed);
    var lists = clause.terms.map(function (t) { return at.get(t) || []; });
    return lists[0].some(function (p) { return lists.every(function (l, i) { return l.indexOf(p + i) >= 0; }); });
  };

  Index.prototype.prefixClauses = function (prefix) {
    // The server's kb.plans.prefix_query as kb.budget.expand runs it: in headword, card names
    // and text, the (at most 16, the commonest) index terms the prefix begins.
    var terms = analysed(prefix, false);
    if (terms.length !== 1 || terms[0].length < MIN_PREFIX) { return wordClauses(prefix); }
    var self = this;
    var start = terms[0];
    var out = [];
    PREFIXED.forEach(function (f) {
      var found = new Map();  // term -> documents holding it in the field
      var lo = 0;
      var hi = self.terms.length;
      while (lo < hi) { var mid = (lo + hi) >> 1; if (self.terms[mid] < start) { lo = mid + 1; } else { hi = mid; } }
      for (; lo < self.terms.length && self.terms[lo].indexOf(start) === 0; lo++) {
        var w = self.terms[lo];
        var term = f[1] ? self.stemOf(w) : w;
        if (term.indexOf(start) !== 0) { continue; }
        var p = self.postings.get(w);
        for (var i = 0; i < p.length; i += 3) {
          if (p[i + 1] === f[0]) { if (!found.has(term)) { found.set(term, new Set()); } found.get(term).add(p[i]); }
        }
      }
      var chosen = Array.from(found.keys());
      if (chosen.length > EXPANSIONS) {
        chosen.sort(function (a, b) { return found.get(b).size - found.get(a).size || (a < b ? -1 : a > b ? 1 : 0); });
        chosen = chosen.slice(0, EXPANSIONS);
      }
      chosen.sort().forEach(function (t) { out.push({ field: f[0], stemmed: f[1], boost: f[2], terms: [t] }); });
    });
    return out;
  };

  Index.prototype.scores = function (clauses) {
    // Document number -> the sum of the scores of the clauses it matches (a Whoosh Or).
    var self = this;
    var out = new Map();
    clauses.forEach(function (c) {
      self.clauseScores(c).forEach(function (s, d) { out.set(d, (out.get(d) || 0) + s); });
    });
    return out;
  };

  // -- spelling: kb.questions.Vocabulary over the index's words ---------------------------------
  Index.prototype.knows = function (word) {
    return this.known(word) || (this.family.get(this.stemOf(word)) || []).some(function (k) { return inflects(word, k); });
  };

  Index.prototype.begins = function (word) {
    var lo = 0;
    var hi = this.terms.length;
    while (lo < hi) { var mid = (lo + hi) >> 1; if (this.terms[mid] < word) { lo = mid + 1; } else { hi = mid; } }
    return lo < this.terms.length && this.terms[lo].indexOf(word) === 0;
  };

  Index.prototype.named = function (stem) {
    var self = this;
    return (this.family.get(stem) || []).some(function (w) { return self.names.has(w); });
  };

  Index.prototype.inflections = function (word) {
    var folded = fold(word);
    var self = this;
    return (this.family.get(this.stemOf(folded)) || []).filter(function (w) { return self.names.has(w) && w !== folded; });
  };

  Index.prototype.together = function (word, others) {
    // How many documents (up to 50) hold the word and one of the others (kb.plans.together).
    var mine = this.scores(wordClauses(word));
    var self = this;
    var rest = new Set();
    others.forEach(function (o) { self.scores(wordClauses(o)).forEach(function (_, d) { rest.add(d); }); });
    var n = 0;
    mine.forEach(function (_, d) { if (rest.has(d)) { n++; } });
    return Math.min(n, MOST_FIT);
  };

  Index.prototype.spellings = function (word, fit) {
    // The known words a word was likely meant to be, likeliest first (kb.questions.Vocabulary.spellings).
    var folded = fold(word);
    if (folded.length < 5 || !/^\p{L}+$/u.test(folded) || this.knows(folded) || this.begins(folded)) { return []; }
    var limit = folded.length <= 5 ? 1 : 2;
    var b = bare(folded);
    var near = new Map();
    var self = this;
    (this.byStart.get(folded[0]) || []).forEach(function (c) {
      if (self.filler.has(c)) { return; }
      var far = Math.min(distance(folded, c, limit), distance(b, bare(c), limit - 1) + 1);
      if (far <= limit) { near.set(c, far); }
    });
    if (!near.size) { return []; }
    var byNear = Array.from(near.keys()).sort(function (x, y) { return near.get(x) - near.get(y) || (x < y ? -1 : 1); });
    var fits = new Map();
    if (fit) { byNear.slice(0, MAX_FITTED).forEach(function (c) { fits.set(c, fit(c)); }); }
    var key = function (c) {
      var f = fits.get(c) || 0;
      return [f === 0 ? 1 : 0, near.get(c), self.named(self.stemOf(c)) ? 0 : 1, -f, -(self.counts.get(c) || 0), c];
    };
    var compare = function (x, y) {
      for (var i = 0; i < x.length; i++) { if (x[i] !== y[i]) { return x[i] < y[i] ? -1 : 1; } }
      return 0;
    };
    var ranked = Array.from(near.keys()).sort(function (x, y) { return compare(key(x), key(y)); });
    var best = key(ranked[0]);
    var second = ranked.slice(1).find(function (c) { return self.stemOf(c) !== self.stemOf(ranked[0]); });
    if (second !== undefined) {
      var other = key(second);
      var close = best[0] === other[0] && best[1] === other[1] && best[2] === other[2] &&
        (!best[0] ? -other[3] * CLOSE >= -best[3] : -other[4] * CLOSE >= -best[4]);
      if (close) { return [ranked[0], second]; }
    }
    return [ranked[0]];
  };

  Index.prototype.correct = function (typed) {
    // The typed words with each unknown one mended (kb.search.correct); null when none was.
    var spelt = new Map();
    var self = this;
    for (var i = 0; i < typed.words.length && spelt.size < CORRECTED; i++) {
      var word = typed.words[i];
      var others = typed.words.filter(function (w) { return w !== word; });
      var found = this.spellings(word, others.length ? function (c) { return self.together(c, others); } : null);
      if (found.length) { spelt.set(word, found); }
    }
    if (!spelt.size) { return null; }
    var also = {};
    var words = typed.words.map(function (w) {
      if (!spelt.has(w)) { return w; }
      if (spelt.get(w).length > 1) { also[spelt.get(w)[0]] = spelt.get(w).slice(1); }
      return spelt.get(w)[0];
    });
    return Object.assign({}, typed, { words: words, also: also });
  };

  Index.prototype.prepare = function (typed, exact) {
    // The compounds and the names' inflections of a reading (kb.search.search).
    var self = this;
    typed.joined = {};
    typed.inflected = {};
    typed.also = typed.also || {};
    if (typed.words.length > 1) {
      for (var i = 0; i + 1 < typed.words.length; i++) {
        var a = fold(typed.words[i]);
        var b = fold(typed.words[i + 1]);
        if (a && b && this.known(a + b)) { typed.joined[typed.words[i]] = typed.joined[typed.words[i + 1]] = a + b; }
      }
    }
    if (!exact) {
      var all = typed.words.slice();
      Object.keys(typed.also).forEach(function (w) { all = all.concat(typed.also[w]); });
      all.forEach(function (w) { var found = self.inflections(w); if (found.length) { typed.inflected[w] = found; } });
    }
    return typed;
  };

  Index.prototype.wordQuery = function (typed, word) {
    // The clauses of one word (kb.plans._either): as typed, the compound it makes, another spelling.
    var clauses = wordClauses(word, typed.inflected[word]);
    if (!clauses.length) { return clauses; }
    [typed.joined[word] || ""].concat(typed.also[word] || []).forEach(function (w) {
      if (w) { clauses = clauses.concat(wordClauses(w, typed.inflected[w])); }
    });
    return clauses;
  };

  Index.prototype.run = function (typed, options, limit) {
    // The best `limit` documents for a reading (kb.search.run): those with every word by score,
    // then, when fewer, those of the 100 best with some of the words by how many they match.
    var self = this;
    var spent = 0;
    var afford = function (clauses) {
      var cost = clauses.reduce(function (a, c) { return a + c.terms.length; }, 0);
      if (!cost || spent + cost > TERMS) { return false; }
      spent += cost;
      return true;
    };
    var required = [];
    typed.clauses.forEach(function (c) { var q = self.clauseQuery(c); if (q && afford(q)) { required.push(self.scores(q)); } });
    typed.prefixes.forEach(function (p) { var q = self.prefixClauses(p); if (afford(q)) { required.push(self.scores(q)); } });
    var words = [];
    typed.words.forEach(function (w) { var q = self.wordQuery(typed, w); if (afford(q)) { words.push(self.scores(q)); } });
    var banned = new Set();
    (typed.excluded || []).forEach(function (x) {
      var q = self.clauseQuery(x);
      if (q && afford(q)) { self.scores(q).forEach(function (_, d) { banned.add(d); }); }
    });
    var filters = typed.clauses.filter(function (c) { return c.value !== undefined; });
    if (filters.length && !required.length) { required.push(new Map(self.docs.map(function (_, d) { return [d, 0]; }))); }
    var every = required.concat(words);
    if (!every.length || !(words.length || typed.clauses.length || typed.prefixes.length)) { return []; }
    var allowed = function (d) {
      var doc = self.docs[d];
      return !banned.has(d) && (!options.game || doc.game === options.game) && (!options.kind || doc.kind === options.kind) &&
        filters.every(function (f) { return f.name === "doc" ? doc.document === f.value : doc[f.name] === (f.name === "kind" ? kindOf(f.value) : f.value); });
    };
    var byScore = function (a, b) { return b.score - a.score || a.number - b.number; };
    var first = [];
    every[0].forEach(function (_, d) {
      if (!allowed(d)) { return; }
      var score = 0;
      for (var i = 0; i < every.length; i++) { if (!every[i].has(d)) { return; } score += every[i].get(d); }
      first.push({ number: d, score: score });
    });
    first.sort(byScore);
    first = first.slice(0, limit);
    if (words.length > 1 && first.length < limit) {
      var some = new Map();
      words.forEach(function (m) { m.forEach(function (_, d) { some.set(d, true); }); });
      var more = [];
      some.forEach(function (_, d) {
        if (!allowed(d) || !required.every(function (m) { return m.has(d); })) { return; }
        var score = 0;
        var count = 0;
        required.forEach(function (m) { score += m.get(d); });
        words.forEach(function (m) { if (m.has(d)) { score += m.get(d); count++; } });
        more.push({ number: d, score: score, count: count });
      });
      more.sort(byScore);
      more = more.slice(0, Math.max(limit, RERANK));
      var top = more.reduce(function (a, h) { return Math.max(a, h.score); }, 0) || 1;
      var seen = new Set(first.map(function (h) { return h.number; }));
      more = more.filter(function (h) { return !seen.has(h.number); });
      more.forEach(function (h, i) { h.rank = h.count + h.score / (top * 1.001); h.order = i; });
      more.sort(function (a, b) { return b.rank - a.rank || a.order - b.order; });
      first = first.concat(more);
    }
    return first.slice(0, limit);
  };

  Index.prototype.marked = function (typed) {
    // The folded words a snippet marks: those of the index the words searched find in texts.
    var self = this;
    var out = new Set();
    var add = function (w) {
      analysed(w, false).forEach(function (t) { out.add(t); (self.family.get(self.stemOf(t)) || []).forEach(function (x) { out.add(x); }); });
    };
    typed.words.forEach(function (w) { add(w); if (typed.joined[w]) { add(typed.joined[w]); } (typed.also[w] || []).forEach(add); });
    typed.prefixes.forEach(function (p) {
      var start = fold(p);
      self.terms.forEach(function (t) { if (start.length >= MIN_PREFIX && t.indexOf(start) === 0) { out.add(t); } });
    });
    return Array.from(out);
  };

  function kindOf(value) {
    // The series kind a person's word names (kb.vocabulary.series_kind).
    var aliases = { "current-rulings-update": "current-rulings", ruling: "current-rulings", rulings: "current-rulings",
      "dated-rulings": "current-rulings", question: "faq" };
    return aliases[value] || value;
  }

  function arrange(index, found, reading) {
    // The server's kb.read.standing.arranged: empty headings after every hit with text; among
    // the first three hits the governing text first (Current Rulings over Glossary over Rulebook,
    // later over earlier), unless the query names the first hit or it is a quick-start rule.
    var docs = index.docs;
    var ordered = found.filter(function (h) { return !docs[h.number].heading; })
      .concat(found.filter(function (h) { return docs[h.number].heading; }));
    if (!ordered.length) { return ordered; }
    var words = new Set();
    reading.words.forEach(function (w) { analysed(w, true).forEach(function (t) { words.add(t); }); });
    var named = docs[found[0].number].named || [];
    var full = named.length > 0 && named.every(function (t) { return words.has(t); });
    var top = docs[ordered[0].number];
    var lead = !(ordered[0] === found[0] && full) && top.tier !== 0;
    function stronger(a, b) { return a.tier !== b.tier ? a.tier > b.tier : a.since > b.since; }
    var zone = ordered.slice(0, 3), games = [], byGame = {}, first = [];
    zone.forEach(function (h) {
      var d = docs[h.number];
      if (!d.candidate) { return; }
      if (!byGame[d.game]) { byGame[d.game] = []; games.push(d.game); }
      byGame[d.game].push(h);
    });
    games.forEach(function (g) {
      var best = byGame[g][0];
      byGame[g].forEach(function (h) { if (stronger(docs[h.number], docs[best.number])) { best = h; } });
      var weaker = byGame[g].some(function (h) { return stronger(docs[best.number], docs[h.number]); });
      if (weaker && lead) { first.push(best); }
    });
    return first.concat(zone.filter(function (h) { return first.indexOf(h) < 0; }), ordered.slice(3));
  }

  function ask(index, text, options) {
    // The answer to a query as the server gives it (kb.search.search): hits (document, marked
    // words, score), the words searched, and the correction (`corrected`, or `meant`: two).
    options = options || {};
    var limit = options.limit || 20;
    var typed = readQuery(text, index.filler);
    typed.also = {};
    var fixed = options.exact || !typed.words.length ? null : index.correct(typed);
    [typed, fixed].forEach(function (r) { if (r) { index.prepare(r, options.exact); } });
    var reading = fixed || typed;
    var found = index.run(reading, options, limit);
    if (options.live && typed.words.length && !/["*]\s*$/.test(text) && text === text.replace(/\s+$/, "")) {
      var growing = Object.assign({}, typed, { words: typed.words.slice(0, -1), prefixes: typed.prefixes.concat([typed.words[typed.words.length - 1]]) });
      index.prepare(growing, options.exact);
      var seen = new Set(found.map(function (h) { return h.number; }));
      found = found.concat(index.run(growing, options, limit).filter(function (h) { return !seen.has(h.number); })).slice(0, limit);
      reading = Object.assign({}, reading, { prefixes: growing.prefixes });
    }
    found = arrange(index, found, reading);
    var terms = index.marked(reading);
    var meant = [];
    if (fixed && Object.keys(fixed.also).length) {
      meant.push(fixed.words.join(" "));
      Object.keys(fixed.also).forEach(function (w) {
        meant.push(fixed.words.map(function (x) { return x === w ? fixed.also[w][0] : x; }).join(" "));
      });
    }
    return {
      words: reading.words, corrected: fixed && !meant.length ? fixed.words.join(" ") : null, meant: meant,
      hits: found.map(function (h) { return { doc: index.docs[h.number], terms: terms, score: h.score }; })
    };
  }

  window.RulingsSearch = { WORD: WORD, fold: fold, foldQuotes: foldQuotes, queryWords: queryWords, textWords: textWords,
    distance: distance, inflectionStem: inflectionStem, readQuery: readQuery, Index: Index, ask: ask };
})();
