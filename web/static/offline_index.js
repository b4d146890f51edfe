// The index of the exported site's search (second of three: after offline_words.js, before
// offline_search.js): search-index.json (made by web/export/search_index.py; its docstring
// describes the format) read into postings by word, each word's stem family and the words by
// first letter; the server's query clauses of a word, a phrase or a prefix (kb.plans) and their
// BM25F scores in the server's fields with its boosts (read from the index's "boosts", written
// from kb/boosts.py: this script holds no copy; Whoosh's formula); and the spelling correction over
// the index's words (kb.questions.Vocabulary, kb.search.correct). Adds Index and wordClauses to
// window.RulingsSearch.
(function () {
  "use strict";
  var S = window.RulingsSearch;
  var WORD = S.WORD;
  var fold = S.fold;
  var foldQuotes = S.foldQuotes;
  var analysed = S.analysed;
  var inflectionStem = S.inflectionStem;
  var distance = S.distance;
  var bare = S.bare;
  var inflects = S.inflects;
  // The server's field of each field of the postings, as typed and stemmed (kb/index/writer.py schema()).
  var SERVER_FIELDS = [["headword", "headstem"], ["cards", "cardstem"], [null, "text"], [null, "extra"]];
  // The server's scored fields: [field of the postings, stemmed] (kb.search.plans.WORD_FIELDS).
  var SCORED = [[0, false], [0, true], [1, false], [1, true], [2, true], [3, true]];
  var PREFIXED = [[0, false], [1, false], [2, true]];  // where a word* is looked for
  var K1 = 1.2;
  var B = 0.75;
  var EXPANSIONS = 16;  // terms a prefix stands for, per field (kb.budget.EXPANSIONS)
  var MIN_PREFIX = 2;
  var CORRECTED = 4;  // words mended at most (kb.budget.CORRECTED)
  var MAX_FITTED = 8;
  var CLOSE = 2;
  var MOST_FIT = 50;

  function Index(data) {
    var self = this;
    this.docs = data.documents;
    this.averages = data.averages;
    if (!data.boosts) { throw new Error("search-index.json holds no boosts: export the site again"); }
    this.boosts = data.boosts;  // the server's field -> its boost (kb/boosts.py)
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
    this.numerals = data.numerals || {};  // a number in words -> in digits and back (kb.search.questions.NUMERALS)
    this.players = data.players || {};  // game -> a word's stem -> its rules' words (kb.search.players)
    this.playersWeight = data.players_weight || 1;  // their weight against the word typed (kb.search.players.WEIGHT)
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

  Index.prototype.termScores = function (field, stemmed, term) {
    // Document number -> BM25F score of one index term in one of the server's fields (Whoosh's
    // formula: idf = ln(N / (df + 1)) + 1, the count weighted by the field's boost).
    var key = field + "|" + stemmed + "|" + term;
    var boost = this.boosts[SERVER_FIELDS[field][stemmed ? 1 : 0]];
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
    var maps = clause.terms.map(function (t) { return self.termScores(clause.field, clause.stemmed, t); });
    var weight = clause.boost || 1;  // a player's word's alternative (kb.search.plans._either)
    if (maps.length === 1 && weight === 1) { return maps[0]; }
    var out = new Map();
    if (maps.length === 1) { maps[0].forEach(function (s, d) { out.set(d, s * weight); }); return out; }
    maps[0].forEach(function (s, d) {
      var sum = s;
      for (var i = 1; i < maps.length; i++) { if (!maps[i].has(d)) { return; } sum += maps[i].get(d); }
      if (!clause.phrase || self.inPhrase(clause, d)) { out.set(d, sum * weight); }
    });
    return out;
  };

  function wordClauses(word, inflections) {
    // The server's kb.plans.word_query: the word in each scored field, in names also as its inflections.
    var out = [];
    SCORED.forEach(function (f) {
      var terms = analysed(word, f[1]);
      if (!terms.length) { return; }
      out.push({ field: f[0], stemmed: f[1], terms: terms });
      if (!f[1] && terms.length === 1) {
        (inflections || []).forEach(function (other) { out.push({ field: f[0], stemmed: false, terms: [other] }); });
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
    var out = [];
    fields.forEach(function (f) {
      var terms = analysed(clause.text, f >= 2);
      if (!terms.length) { return; }
      var c = { field: f, stemmed: f >= 2, terms: terms };
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
      chosen.sort().forEach(function (t) { out.push({ field: f[0], stemmed: f[1], terms: [t] }); });
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
      if (typed.players && Object.prototype.hasOwnProperty.call(typed.players, word)) { continue; }  // a player's word
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

  Index.prototype.playersWords = function (game, words) {
    // Each word a game's players' words hold -> the rules' words for it (kb.search.players.alternatives).
    var table = game && Object.prototype.hasOwnProperty.call(this.players, game) ? this.players[game] : null;
    var out = {};
    if (!table) { return out; }
    words.forEach(function (w) {
      var s = inflectionStem(fold(w));
      if (Object.prototype.hasOwnProperty.call(table, s)) { out[w] = table[s].slice(); }
    });
    return out;
  };

  S.Index = Index;
  S.wordClauses = wordClauses;
  S.MIN_PREFIX = MIN_PREFIX;
})();
