// The exported site's search in the browser, over the inverted index `rulings export` writes
// (search-index.json, made by web/export/search_index.py; its docstring describes the format). It
// answers as the server does (kb/questions.py, kb/plans.py, kb/search.py), rule for rule: the
// query read as the server reads it (filler words dropped, -word excluded, word* a prefix); a
// word the index does not know mended to the known word that fits the rest of the query (two
// as likely: both searched); two words that make a known compound also found as it; each word
// scored by BM25F in the server's fields with its boosts (the index's "boosts", from
// kb/boosts.py), a headword also by the word's other inflections; the documents with every
// word first, then those with the most. Stems are the server's (inflectionStem =
// kb.analysis.inflection_stem). tests/test_offline_search.py holds the two to the same top
// three over the relevance sets. This file, the last of three
// (offline_words.js: words, stems and the query read; offline_index.js: the index, scores and
// spelling; loaded first, in that order), plans and ranks a reading and answers a query
// (window.RulingsSearch.ask).
(function () {
  "use strict";
  var S = window.RulingsSearch;
  var fold = S.fold;
  var analysed = S.analysed;
  var readQuery = S.readQuery;
  var Index = S.Index;
  var wordClauses = S.wordClauses;
  var MIN_PREFIX = S.MIN_PREFIX;
  var RERANK = 100;  // documents with some of the words ranked by how many (kb.plans.RERANK)
  var TERMS = 96;  // leaf terms of a query (kb.budget.TERMS)

  Index.prototype.prepare = function (typed, exact) {
    // The compounds and the names' inflections of a reading (kb.search.search).
    var self = this;
    typed.joined = {};
    typed.inflected = {};
    typed.opposite = {};
    typed.numeral = {};
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
      typed.words.forEach(function (w) {
        // a state's negation by un-, searched with it (kb.search.questions.Vocabulary.opposites)
        var f = fold(w);
        if (/ed$/.test(f) && self.known(f) && self.known("un" + f)) { typed.opposite[w] = "un" + f; }
        // a number's other spelling, searched with it (kb.search.questions.Vocabulary.numerals)
        var n = Object.prototype.hasOwnProperty.call(self.numerals, f) ? self.numerals[f] : "";
        if (n && self.known(n)) { typed.numeral[w] = n; }
      });
    }
    return typed;
  };

  Index.prototype.wordQuery = function (typed, word) {
    // The clauses of one word (kb.plans._either): as typed, the compound it makes, its negation, its number, another spelling.
    var clauses = wordClauses(word, typed.inflected[word]);
    if (!clauses.length) { return clauses; }
    [typed.joined[word] || "", typed.opposite[word] || "", typed.numeral[word] || ""].concat(typed.also[word] || []).forEach(function (w) {
      if (w) { clauses = clauses.concat(wordClauses(w, typed.inflected[w])); }
    });
    // and, at a lower weight, the words its game's rules use for it (kb.search.plans.said_query)
    var self = this;
    ((typed.players || {})[word] || []).forEach(function (w) {
      var said = analysed(w, true).length > 1 ? self.clauseQuery({ text: w, field: null, phrase: true }) : wordClauses(w);
      said.forEach(function (c) { c.boost = self.playersWeight; });
      clauses = clauses.concat(said);
    });
    return clauses;
  };

  Index.prototype.run = function (typed, options, limit) {
    // The best `limit` documents for a reading (kb.search.run): those with every word by score,
    // then, when fewer, those of the 100 best with some of the words by how many they match;
    // within each, a Glossary entry restating a numbered rule after the others.
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
    var spelt = [];  // the words of `words`, in order
    typed.words.forEach(function (w) {
      var q = self.wordQuery(typed, w);
      if (afford(q)) { words.push(self.scores(q)); spelt.push(w); }
    });
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
    // A Glossary entry restating a numbered rule after the rules (kb.search.restating), of the
    // 100 best as the server takes them.
    var restated = function (h) { return self.docs[h.number].restates ? 1 : 0; };
    first.sort(byScore);
    first = first.slice(0, Math.max(limit, RERANK));
    first.sort(function (a, b) { return restated(a) - restated(b); });
    first = first.slice(0, limit);
    if (words.length > 1) {
      // The entries the query's rarest word names rank with those of every word (kb.search.in_force._named).
      var rare = 0;
      for (var r = 1; r < words.length; r++) { if (words[r].size < words[rare].size) { rare = r; } }
      var terms = new Set(analysed(spelt[rare], true));
      var inFirst = new Set(first.map(function (h) { return h.number; }));
      var named = [];
      words[rare].forEach(function (s, d) {
        var doc = self.docs[d];
        var name = doc.named || [];
        if (inFirst.has(d) || doc.restates || !allowed(d) || !name.length) { return; }
        if (!name.every(function (t) { return terms.has(t); }) || !required.every(function (m) { return m.has(d); })) { return; }
        var score = 0;
        required.forEach(function (m) { score += m.get(d); });
        named.push({ number: d, score: score + s });
      });
      if (named.length) {
        first = first.concat(named);
        first.sort(function (a, b) { return restated(a) - restated(b) || byScore(a, b); });
        first = first.slice(0, limit);
      }
    }
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
      more.sort(function (a, b) {
        return b.count - a.count || restated(a) - restated(b) || b.rank - a.rank || a.order - b.order;
      });
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
    typed.words.forEach(function (w) {
      add(w);
      if (typed.joined[w]) { add(typed.joined[w]); }
      if (typed.opposite && typed.opposite[w]) { add(typed.opposite[w]); }
      (typed.also[w] || []).forEach(add);
      ((typed.players || {})[w] || []).forEach(add);  // a player's word's alternatives (kb.search.players)
    });
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

  function related(a, b) {
    // The server's kb.read.standing.related: texts of one game and one topic, or one naming the other.
    if (a.game !== b.game) { return false; }
    return a.topic === b.topic || a.refers.indexOf(b.name) >= 0 || b.refers.indexOf(a.name) >= 0;
  }

  function groups(docs) {
    // The server's kb.read.standing.groups: the positions of related texts, gathered.
    var found = [];
    docs.forEach(function (d, position) {
      var joined = found.filter(function (g) { return g.some(function (o) { return related(d, docs[o]); }); });
      var merged = [position];
      joined.forEach(function (g) { merged = merged.concat(g); });
      merged.sort(function (x, y) { return x - y; });
      found = found.filter(function (g) { return joined.indexOf(g) < 0; }).concat([merged]);
    });
    return found.sort(function (x, y) { return x[0] - y[0]; });
  }

  function arrange(index, found, reading) {
    // The server's kb.read.standing.arranged: empty headings after every hit with text; among
    // the first three hits, within each group of texts addressing the same rule (one topic, or
    // one naming the other), the governing text first in the group's first place (Current
    // Rulings over Glossary over Rulebook, later over earlier), unless the query names the
    // first hit or it is a quick-start rule. Unrelated hits never govern over each other.
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
    var zone = ordered.slice(0, 3);
    groups(zone.map(function (h) { return docs[h.number]; })).forEach(function (group) {
      if (group.length < 2 || !lead) { return; }
      var members = group.map(function (p) { return zone[p]; });
      var byGame = {}, games = [], first = [];
      members.forEach(function (h) {
        var d = docs[h.number];
        if (!d.candidate) { return; }
        if (!byGame[d.game]) { byGame[d.game] = []; games.push(d.game); }
        byGame[d.game].push(h);
      });
      games.forEach(function (g) {
        var best = byGame[g][0];
        byGame[g].forEach(function (h) { if (stronger(docs[h.number], docs[best.number])) { best = h; } });
        var weaker = byGame[g].some(function (h) { return stronger(docs[best.number], docs[h.number]); });
        if (weaker) { first.push(best); }
      });
      var governed = first.concat(members.filter(function (h) { return first.indexOf(h) < 0; }));
      group.forEach(function (p, i) { zone[p] = governed[i]; });
    });
    return zone.concat(ordered.slice(3));
  }

  var RULE_NUMBER = /^\s*(?:(?:rule|section|cr)\s+)?(?:\d{3}(?:\.\d+[a-z]?)?|\d)\.?\s*$/i;

  function matchedWords(index, typed, fixed) {
    // The server's kb.search.unmatched.matched_words: the words no text holds, those the results
    // match, and whether every word matched is common (names no headword and no card).
    var mended = new Set(fixed ? typed.words.filter(function (w) { return fixed.words.indexOf(w) < 0; }) : []);
    var unmatched = [], matched = [], named = false;
    typed.words.forEach(function (w) {
      var folded = fold(w);
      if (!folded) { return; }
      if (mended.has(w) || typed.joined[w] || (typed.players || {})[w] || index.knows(folded)) {
        matched.push(w);
        named = named || mended.has(w) || index.names.has(folded) || index.inflections(folded).length > 0;
      } else {
        unmatched.push(w);
      }
    });
    return { unmatched: unmatched, matched: unmatched.length ? matched : [], weak: unmatched.length > 0 && matched.length > 0 && !named };
  }

  function said(m) {
    // The server's kb.search.unmatched.said: the sentence shown above the results.
    if (!m.unmatched.length) { return null; }
    var nothing = m.unmatched.join(", ");
    if (!m.matched.length) { return "No text holds: " + nothing + "."; }
    var only = m.matched.join(", ");
    if (m.weak) {
      return "Nothing matched the question's distinctive words: no text holds " + nothing + "." +
        " The results below match only the common words " + only + ", and are not an answer to it.";
    }
    return "No text holds: " + nothing + " \u2014 the results below match only: " + only + ".";
  }

  function cited(index, found, reading) {
    // The numbered rules a Glossary entry the query names cites, just before it
    // (kb.search.restating.with_cited_rules).
    var words = new Set();
    reading.words.forEach(function (w) { analysed(w, true).forEach(function (t) { words.add(t); }); });
    var placed = [];
    var moved = new Set();
    found.forEach(function (h) {
      var doc = index.docs[h.number];
      var name = doc.named || [];
      if (doc.restates && name.length && name.every(function (t) { return words.has(t); })) {
        (doc.cites || []).forEach(function (n) {
          if (!moved.has(n) && n !== h.number) { placed.push({ number: n, score: h.score }); moved.add(n); }
        });
      }
      if (!moved.has(h.number)) { placed.push(h); moved.add(h.number); }
    });
    // Then the rules defining a term the query names first (kb.search.restating.with_defining_rules).
    var defining = function (h) {
      var terms = index.docs[h.number].defines || [];
      return terms.length > 0 && terms.every(function (t) { return words.has(t); });
    };
    return placed.filter(defining).concat(placed.filter(function (h) { return !defining(h); }));
  }

  function ask(index, text, options) {
    // The answer to a query as the server gives it (kb.search.search): hits (document, marked
    // words, score), the words searched, and the correction (`corrected`, or `meant`: two).
    options = options || {};
    var limit = options.limit || 20;
    var typed = readQuery(text, index.filler);
    typed.also = {};
    typed.players = options.exact ? {} : index.playersWords(options.game, typed.words);
    var fixed = options.exact || !typed.words.length ? null : index.correct(typed);
    [typed, fixed].forEach(function (r) { if (r) { index.prepare(r, options.exact); } });
    var reading = fixed || typed;
    var found = index.run(reading, options, limit);
    if (!options.kind && !reading.clauses.length) { found = cited(index, found, reading).slice(0, limit); }
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
    var words = RULE_NUMBER.test(text) || !typed.words.length ? { unmatched: [], matched: [], weak: false } : matchedWords(index, typed, fixed);
    return {
      unmatched: words.unmatched, matched: words.matched, weak: words.weak, unmatched_note: said(words),
      also_searched: typed.players, by_meaning: false,  // the copy ranks by words alone
      words: reading.words, corrected: fixed && !meant.length ? fixed.words.join(" ") : null, meant: meant,
      hits: found.map(function (h) { return { doc: index.docs[h.number], terms: terms, score: h.score }; })
    };
  }

  S.ask = ask;
})();
