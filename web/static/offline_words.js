// The words of the exported site's search, read as the server reads them (first of the three
// files of the search: offline_words.js, offline_index.js, offline_search.js, loaded in that
// order): words folded (kb.analysis: Cha'Joh = chajoh, U.S.S. = uss, fullwidth letters and
// ligatures as NFKC folds them, a compound also as its parts), inflectionStem
// (kb.analysis.inflection_stem, letter for letter), the edit distance of the spelling correction,
// and a query read as kb.questions.read_query reads it (filler words dropped, -word excluded,
// word* a prefix, field:value and "phrases" as clauses). It starts window.RulingsSearch, which
// the next two files fill in.
(function () {
  "use strict";
  var WORD = /\[[\p{L}\p{N}_]+\]|[\p{L}\p{N}_]+(?:['\u2019.\-][\p{L}\p{N}_]+)*\.?/gu;
  var PART = /(-)?(?:([A-Za-z]+):)?(?:"([^"]*)"?|([^\s"]+))/g;
  var SPLIT = /[^\p{L}\p{N}_'\u2019.*\-\[\]]+/u;
  var FIELDS = { card: 1, cards: 1, kind: -1, doc: -1, game: -1, headword: 0 };
  var PARTS = 12;  // query parts read (kb.budget.PARTS)
  var MAX_QUERY = 500;

  function foldQuotes(s) { return s.replace(/[\u2018\u2019\u201b\u2032]/g, "'").replace(/[\u201c\u201d]/g, '"'); }
  function fold(word) { return foldQuotes(word.normalize("NFKC")).replace(/[\[\]'.\-]/g, "").toLowerCase(); }

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
    // The word without an inflectional ending or a doer's -er, nothing restored (kb.questions._bare).
    var endings = ["ing", "ies", "ers", "es", "ed", "er", "s"];
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

  window.RulingsSearch = { WORD: WORD, fold: fold, foldQuotes: foldQuotes, queryWords: queryWords, textWords: textWords,
    analysed: analysed, inflectionStem: inflectionStem, distance: distance, bare: bare, inflects: inflects,
    readQuery: readQuery };
})();
