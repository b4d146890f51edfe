// The exported site's search in the browser, over the inverted index `rulings export` writes
// (search-index.json, made by web/export_search.py; its docstring describes the format).
// A query word is folded as the server folds it (Cha'Joh = chajoh, U.S.S. = uss) and finds
// the words of the index with its stem (cloaked: cloaking, cloaks); the last word while typing
// also finds the words it begins; a word of five letters or more that the index does not
// hold finds those within one edit (two from eight letters). Documents are ranked by BM25
// over their fields, the headword and card names weighing most; the documents with every
// word come first, then those with some.
(function () {
  "use strict";
  var WORD = /\[[\p{L}\p{N}_]+\]|[\p{L}\p{N}_]+(?:['\u2019.\-][\p{L}\p{N}_]+)*\.?/gu;
  var EXACT = [4, 2, 0];  // headword, cards, text: the word as typed (the server's field boosts)
  var STEM = [2.5, 1.5, 1];  // the word with any ending (the server's stemmed fields)
  var PREFIX = 0.5;  // weight of a word the typed one begins
  var FUZZY = [1, 0.4, 0.25];  // weight of a word one or two edits away
  var ENDINGS = ["ings", "ing", "ers", "er", "es", "ed", "s", "d", "ly"];
  var K1 = 1.2;
  var B = 0.75;
  var MAX_PREFIX = 200;

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

  function Index(data) {
    var self = this;
    this.docs = data.documents;
    this.postings = new Map();  // word -> [document number, field, count, ...]
    Object.keys(data.postings).forEach(function (t) {
      var p = data.postings[t];
      var out = [];
      for (var i = 0, d = 0; i < p.length; i += 2) { d += p[i]; out.push(d, p[i + 1] % 3, (p[i + 1] - p[i + 1] % 3) / 3 + 1); }
      self.postings.set(t, out);
    });
    this.stems = data.stems;
    this.filler = new Set(data.filler);
    this.terms = Array.from(this.postings.keys()).sort();
    this.family = new Map();  // stem -> the index's words with it
    this.byLength = [];  // length -> the index's words of that length
    this.terms.forEach(function (t) {
      var s = self.stemOf(t);
      if (!self.family.has(s)) { self.family.set(s, []); }
      self.family.get(s).push(t);
      (self.byLength[t.length] = self.byLength[t.length] || []).push(t);
    });
    this.average = [0, 1, 2].map(function (f) {
      var sum = self.docs.reduce(function (a, d) { return a + d.lengths[f]; }, 0);
      return Math.max(1, sum / Math.max(1, self.docs.length));
    });
  }

  Index.prototype.stemOf = function (word) {
    var s = Object.prototype.hasOwnProperty.call(this.stems, word) ? this.stems[word] : null;
    return typeof s === "number" ? word.slice(0, s) : s || word;
  };

  Index.prototype.known = function (word) { return this.postings.has(word); };

  Index.prototype.relatives = function (word) {
    // The index's words with the stem of `word`; for a word it does not hold, of the word
    // without an ending (cloaked -> cloak), as the server's stemmer would find them.
    if (this.known(word)) { return this.family.get(this.stemOf(word)); }
    for (var i = 0; i < ENDINGS.length; i++) {
      var e = ENDINGS[i];
      var base = word.slice(0, -e.length);
      if (word.length - e.length < 3 || word.slice(-e.length) !== e) { continue; }
      if (this.known(base)) { return this.family.get(this.stemOf(base)); }
      if (this.family.has(base)) { return this.family.get(base); }
    }
    return [];
  };

  Index.prototype.expand = function (word, prefix) {
    // The index's words a query word finds: word -> {weight, exact (its boosts) }.
    var found = new Map();
    this.relatives(word).forEach(function (t) { found.set(t, { weight: 1, exact: t === word }); });
    if (prefix) {
      var lo = 0;
      var hi = this.terms.length;
      while (lo < hi) { var mid = (lo + hi) >> 1; if (this.terms[mid] < word) { lo = mid + 1; } else { hi = mid; } }
      for (var n = 0; lo < this.terms.length && n < MAX_PREFIX && this.terms[lo].indexOf(word) === 0; lo++, n++) {
        if (!found.has(this.terms[lo])) { found.set(this.terms[lo], { weight: PREFIX, exact: true }); }
      }
    }
    if (!found.size && word.length >= 5) {
      // A typo: the words within the edits, each as if typed (with its stem's other words).
      var self = this;
      var limit = word.length >= 8 ? 2 : 1;
      for (var len = word.length - limit; len <= word.length + limit; len++) {
        (this.byLength[len] || []).forEach(function (t) {
          var d = distance(word, t, limit);
          if (d > limit) { return; }
          self.relatives(t).forEach(function (r) {
            var known = found.get(r);
            if (!known || known.weight < FUZZY[d] || (known.weight === FUZZY[d] && r === t)) {
              found.set(r, { weight: FUZZY[d], exact: r === t });
            }
          });
        });
      }
    }
    return found;
  };

  Index.prototype.scores = function (found) {
    // Document number -> {score, terms} for the words one query word found: BM25 in each
    // field, the counts of the word as typed (or begun, or mended) and of the word with any
    // ending (its stem) weighted apart, as the server's headword and headstem fields are.
    var self = this;
    var sums = new Map();
    found.forEach(function (match, term) {
      var p = self.postings.get(term);
      for (var i = 0; i < p.length; i += 3) {
        if (!sums.has(p[i])) { sums.set(p[i], { counts: [0, 0, 0, 0, 0, 0], terms: [] }); }
        var sum = sums.get(p[i]);
        sum.counts[3 + p[i + 1]] += match.weight * p[i + 2];
        if (match.exact) { sum.counts[p[i + 1]] += match.weight * p[i + 2]; }
        if (sum.terms.indexOf(term) < 0) { sum.terms.push(term); }
      }
    });
    var n = this.docs.length;
    var idf = Math.log(1 + (n - sums.size + 0.5) / (sums.size + 0.5));
    var out = new Map();
    sums.forEach(function (sum, d) {
      var score = 0;
      for (var f = 0; f < 3; f++) {
        var norm = K1 * (1 - B + B * self.docs[d].lengths[f] / self.average[f]);
        var c = sum.counts;
        score += EXACT[f] * c[f] * (K1 + 1) / (c[f] + norm) + STEM[f] * c[3 + f] * (K1 + 1) / (c[3 + f] + norm);
      }
      out.set(d, { score: idf * score, terms: sum.terms });
    });
    return out;
  };

  Index.prototype.search = function (words, options) {
    // Documents for the folded `words`: those with every word first, then (when fewer than
    // the limit) those with some, by how many; each group by score. Options: live (the last
    // word may be half typed), game, kind, excluded (folded words no result may hold), limit.
    var self = this;
    var banned = new Set();
    (options.excluded || []).forEach(function (x) {
      self.relatives(x).forEach(function (t) {
        var p = self.postings.get(t);
        for (var i = 0; i < p.length; i += 3) { banned.add(p[i]); }
      });
    });
    var total = new Map();
    words.forEach(function (w, i) {
      self.scores(self.expand(w, options.live && i === words.length - 1)).forEach(function (hit, d) {
        if (!total.has(d)) { total.set(d, { number: d, score: 0, terms: [], count: 0 }); }
        var sum = total.get(d);
        sum.score += hit.score;
        sum.count += 1;
        hit.terms.forEach(function (t) { if (sum.terms.indexOf(t) < 0) { sum.terms.push(t); } });
      });
    });
    var hits = Array.from(total.values()).filter(function (h) {
      var doc = self.docs[h.number];
      return !banned.has(h.number) && (!options.game || doc.game === options.game) && (!options.kind || doc.kind === options.kind);
    }).sort(function (a, b) { return b.count - a.count || b.score - a.score || a.number - b.number; });
    return hits.slice(0, options.limit || 20).map(function (h) { return { doc: self.docs[h.number], terms: h.terms, score: h.score }; });
  };

  window.RulingsSearch = { WORD: WORD, fold: fold, foldQuotes: foldQuotes, queryWords: queryWords, textWords: textWords,
    distance: distance, Index: Index };
})();
