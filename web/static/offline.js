// The exported site in the browser, with no server: search (offline_words.js, offline_index.js
// and offline_search.js over search-index.json, folded as the server folds: Cha'Joh = chajoh,
// U.S.S. = USS; typos within an edit or two; filler words of a question dropped), autocomplete,
// the deck page, and cited lines.
// In an export this file takes the place of app.js (cite.js, loaded first, copies citations).
// Every page still reads without it.
(function () {
  "use strict";
  var root = new URL("../", document.currentScript.src);
  var params = new URLSearchParams(window.location.search);
  var LIMIT = 20;

  function foldQuotes(s) { return s.replace(/[\u2018\u2019\u201b\u2032]/g, "'").replace(/[\u201c\u201d]/g, '"'); }
  function titleKey(text) {
    // rulings.normalize.title_key: accents dropped (NFKD, nonspacing marks, NFC), U+2010, U+2011 and the en dash a hyphen
    var s = foldQuotes(text.normalize("NFKD").replace(/\p{Mn}/gu, "").normalize("NFC")).replace(/[\u2010\u2011\u2013]/g, "-");
    s = s.replace(/'s\b/g, "").replace(/['.\-]/g, "").toLowerCase();
    return s.replace(/[^\p{L}\p{N}_\s]/gu, " ").replace(/\s+/g, " ").trim();
  }
  function link(path) {
    // A page of the export by its folder and id; a topic, version or document whose file is not
    // named by its id (too long, or not safe as a file name) by the file files.json names.
    var dot = path.lastIndexOf(".");
    var base = path.slice(0, dot);
    if (dot > 0 && Object.prototype.hasOwnProperty.call(renamed, base)) { path = renamed[base] + path.slice(dot); }
    var encoded = path.split("/").map(function (s) { return encodeURIComponent(s).replace(/%3A/g, ":").replace(/%40/g, "@"); });
    return new URL((/:/.test(encoded[0]) ? "./" : "") + encoded.join("/"), root).href;
  }
  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    (children || []).forEach(function (c) { node.append(c); });
    return node;
  }
  function getJSON(path) {
    return fetch(new URL(path, root)).then(function (r) {
      if (!r.ok) { throw new Error(path + ": " + r.status); }
      return r.json();
    });
  }

  // Opened from a folder, the browser fetches none of the export's JSON: say so first, with the
  // one command that serves it; served, the note is not needed.
  var mustServe = document.getElementById("must-serve");
  if (mustServe && window.location.protocol !== "file:") { mustServe.hidden = true; }
  if (mustServe && window.location.protocol === "file:") {
    mustServe.replaceChildren("This copy is opened from a folder (file://), where its search cannot work: it must be served. " +
      "In its folder run ", el("code", {}, ["python3 -m http.server 8000"]), " and open the address it prints.");
  }

  var renamed = {};
  var names = getJSON("files.json").then(function (found) { renamed = found; }, function () {});

  // Copy citation: cite.js, loaded before this file, copies and shows the buttons.
  function showCopyButtons(where) { if (window.RulingsCite) { window.RulingsCite.show(where); } }
  function copyButton(part) {
    // The button the server's copy_cite macro makes, for a part (or a search hit) shown here.
    var c = part.citation;
    var head = part.headword ? part.headword + " (" + part.label + ")" : part.label;
    return el("button", { type: "button", "class": "copy-cite", "data-permalink": link("version/" + part.key + ".html"),
      "data-citation": head + ": " + (part.text || "") + "\n\u2014 " + citedText(c, part.restated) }, ["Copy citation"]);
  }

  var SEARCH = ["offline_words.js", "offline_index.js", "offline_search.js"];  // each uses the ones before
  function searchScripts() {
    // The search's files, fetched together and run in this order (a script added with async
    // false runs after those added before it); done when the last has run.
    return Promise.all(SEARCH.map(function (name) {
      return new Promise(function (resolve, reject) {
        var s = el("script", { src: new URL("static/" + name, root).href });
        s.async = false;
        s.onload = resolve;
        s.onerror = reject;
        document.head.append(s);
      });
    }));
  }
  var loading = null;
  function searchIndex() {
    // The index, read once per page from search-index.json (made by `rulings export`).
    if (loading) { return loading; }
    loading = (window.RulingsSearch && window.RulingsSearch.ask ? Promise.resolve() : searchScripts()).then(function () { return Promise.all([getJSON("search-index.json"), names]); }).then(function (both) {
      var index = new window.RulingsSearch.Index(both[0]);
      index.today = both[0].today;
      index.games = new Set(both[0].documents.map(function (d) { return d.game; }));
      return index;
    });
    return loading;
  }

  function search(index, text, live, game, kind) {
    // The server's answer, from the browser's index (offline_search.js: RulingsSearch.ask).
    return window.RulingsSearch.ask(index, text, { live: live, game: game, kind: kind, limit: LIMIT, exact: params.get("exact") === "1" });
  }

  var GIST_WORDS = 15;  // as web/leads.py GIST_WORDS
  var SENTENCE_END = /(?<=[.!?])["')\]\u201d]*\s+(?=[A-Z"'(\[\u201c])/;  // as kb/sentences.py
  function hitWords(text, wanted) {
    // Each word of the text (where it starts and ends) and whether it is one of the words searched.
    var engine = window.RulingsSearch;
    var words = [];
    var re = new RegExp(engine.WORD.source, "gu");
    var m;
    while ((m = re.exec(text)) !== null) {
      var hit = engine.textWords(m[0]).some(function (w) { return wanted.has(w); });
      words.push({ at: m.index, end: m.index + m[0].length, hit: hit, word: m[0].toLowerCase() });
    }
    return words;
  }
  var ABBREVIATIONS = new Set(["mr.", "mrs.", "ms.", "dr.", "st.", "lt.", "jr.", "sr.", "vs.", "no.", "e.g.", "i.e."]);  // as web/leads.py
  var INITIALS = /^(?:[A-Za-z]\.){2,}$/;
  var CLAUSE_END = /[,;:)]["'\u2019\u201d\]]*$/;  // as web/leads.py
  var COUNT = /^\(\d+\)/;
  var DASHES = new Set(["-", "\u2013", "\u2014"]);
  var CONJUNCTIONS = new Set(["and", "but", "or", "because", "unless", "which"]);
  function cutLead(words, hits, titles) {
    // The server's web/leads.py cut: a sentence of more than GIST_WORDS words shown by its clauses
    // holding the most of the words searched, then those after, between and before them that fit,
    // never cut inside a card's title; an ellipsis only where words were left out.
    var n = words.length, i;
    if (n <= GIST_WORDS) { return words.join(" "); }
    var text = words.join(" "), starts = [], at = 0;
    words.forEach(function (w) { starts.push(at); at += w.length + 1; });
    var joined = words.slice(1).map(function () { return false; });
    function wordAt(c) { var k = 0; while (k + 1 < starts.length && starts[k + 1] <= c) { k++; } return k; }
    titles.forEach(function (title) {
      if (!title.trim()) { return; }
      var re = new RegExp("(?<![A-Za-z0-9])" + title.replace(/[.*+?^${}()|[\]\\\/-]/g, "\\$&") + "(?![A-Za-z0-9])", "gi");
      var m;
      while ((m = re.exec(text)) !== null) {
        for (var k = wordAt(m.index); k < wordAt(m.index + m[0].length - 1); k++) { joined[k] = true; }
        if (!m[0].length) { re.lastIndex++; }
      }
    });
    var clauses = [], start = 0, depth = 0;
    for (i = 0; i < n - 1; i++) {
      depth = Math.max(0, depth + words[i].split("(").length - words[i].split(")").length);  // a parenthesis is one clause
      var opens = words[i + 1].startsWith("(") && !COUNT.test(words[i + 1]);  // "Torin (2)": a count stays with its name
      var ends = CLAUSE_END.test(words[i]) || opens || DASHES.has(words[i]) || DASHES.has(words[i + 1]);
      if (ends && !joined[i] && !depth) { clauses.push([start, i + 1]); start = i + 1; }
    }
    clauses.push([start, n]);
    var pieces = [];
    clauses.forEach(function (c) {
      if (c[1] - c[0] <= GIST_WORDS) { pieces.push(c); return; }
      var from = [c[0]];
      for (var k = c[0] + 1; k < c[1]; k++) { if (CONJUNCTIONS.has(words[k].toLowerCase()) && !joined[k - 1]) { from.push(k); } }
      from.forEach(function (f, j) { pieces.push([f, j + 1 < from.length ? from[j + 1] : c[1]]); });
    });
    var found = pieces.map(function (p) { var s = new Set(); hits.slice(p[0], p[1]).forEach(function (h) { h.forEach(function (w) { s.add(w); }); }); return s; });
    var order = pieces.map(function (p, k) { return k; }).sort(function (a, b) { return (found[b].size - found[a].size) || (a - b); });
    var best = pieces[order[0]];
    if (best[1] - best[0] > GIST_WORDS) { return leadWithin(words, hits, joined, best); }
    var chosen = new Set(), seen = new Set(), size = 0;
    function width(p) { return pieces[p][1] - pieces[p][0]; }
    function fits(p) { return size + width(p) <= GIST_WORDS; }
    order.forEach(function (p) {
      var fresh = Array.from(found[p]).some(function (w) { return !seen.has(w); });
      if ((fresh || !chosen.size) && fits(p)) { chosen.add(p); found[p].forEach(function (w) { seen.add(w); }); size += width(p); }
    });
    var after = Math.max.apply(null, Array.from(chosen)) + 1;
    while (after < pieces.length && fits(after)) { chosen.add(after); size += width(after); after++; }
    var kept = Array.from(chosen).sort(function (a, b) { return a - b; });
    for (i = 0; i + 1 < kept.length; i++) {
      var a = kept[i], b = kept[i + 1];
      if (b > a + 1 && size + pieces[b][0] - pieces[a][1] <= GIST_WORDS) {
        for (var g = a + 1; g < b; g++) { chosen.add(g); }
        size += pieces[b][0] - pieces[a][1];
      }
    }
    var before = Math.min.apply(null, Array.from(chosen)) - 1;
    while (before >= 0 && fits(before)) { chosen.add(before); size += width(before); before--; }
    return leadShown(words, Array.from(chosen).sort(function (a, b) { return a - b; }).map(function (p) { return pieces[p]; }));
  }
  function leadWithin(words, hits, joined, piece) {
    // A clause too long alone, cut between words from about four before the first word searched,
    // a card's title kept whole (web/leads.py _within).
    var a = piece[0], b = piece[1], atoms = [];
    for (var i = a; i < b; i++) {
      if (atoms.length && i > a && joined[i - 1]) { atoms[atoms.length - 1][1] = i + 1; } else { atoms.push([i, i + 1]); }
    }
    var first = a;
    for (i = a; i < b; i++) { if (hits[i].size) { first = i; break; } }
    var target = Math.max(a, Math.min(first - 4, b - GIST_WORDS));
    var at = atoms.findIndex(function (t) { return t[0] <= target && target < t[1]; });
    var end = at + 1;
    while (end < atoms.length && atoms[end][1] - atoms[at][0] <= GIST_WORDS) { end++; }
    return leadShown(words, [[atoms[at][0], atoms[end - 1][1]]]);
  }
  function leadShown(words, kept) {
    // The words of the kept ranges, an ellipsis wherever words were left out (web/leads.py _shown).
    var spans = [];
    kept.forEach(function (k) {
      if (spans.length && spans[spans.length - 1][1] === k[0]) { spans[spans.length - 1][1] = k[1]; } else { spans.push([k[0], k[1]]); }
    });
    var shown = spans.map(function (s) {
      var part = words.slice(s[0], s[1]).join(" ");
      return s[1] < words.length ? part.replace(/[,;:]+$/, "") : part;
    }).join(" \u2026 ");
    if (spans[0][0] > 0) { shown = "\u2026 " + shown; }
    if (spans[spans.length - 1][1] < words.length) { shown += " \u2026"; }
    return shown;
  }
  function gist(text, terms, titles) {
    // What a hit shows first, as the server's `lead` filter does: its sentence holding the most of
    // the words searched, cut to GIST_WORDS words at clause boundaries (cutLead), those words marked;
    // with whether that is its whole text.
    var wanted = new Set(terms);
    var every = [];
    (text || "").split(/\n{2,}/).filter(function (p) { return p.trim(); }).forEach(function (p) {
      var own = [];
      p.trim().split(SENTENCE_END).forEach(function (s) {
        if (!s) { return; }
        // one ending in an abbreviation or initials ("Mr.", "vs.", "U.S.S.") joined to the next (web/leads.py whole_sentences)
        var last = own.length ? own[own.length - 1].split(/\s+/).pop() : "";
        if (last && (ABBREVIATIONS.has(last.toLowerCase()) || INITIALS.test(last))) { own[own.length - 1] += " " + s; } else { own.push(s); }
      });
      own.forEach(function (s) { every.push(s); });
    });
    var best = every[0] || "", most = 0;
    every.forEach(function (s) {
      var found = new Set(hitWords(s, wanted).filter(function (w) { return w.hit; }).map(function (w) { return w.word; }));
      if (found.size > most) { most = found.size; best = s; }
    });
    var split = best.split(/\s+/).filter(Boolean);
    best = cutLead(split, split.map(function (w) {
      return new Set(hitWords(w, wanted).filter(function (x) { return x.hit; }).map(function (x) { return x.word; }));
    }), titles);
    var p = el("p");
    var pos = 0;
    hitWords(best, wanted).forEach(function (w) {
      if (!w.hit) { return; }
      p.append(best.slice(pos, w.at), el("mark", {}, [best.slice(w.at, w.end)]));
      pos = w.end;
    });
    p.append(best.slice(pos));
    var whole = (text || "").split(/\s+/).filter(Boolean).join(" ") === best.split(/\s+/).filter(Boolean).join(" ");
    return { node: el("div", { "class": "text lead" }, [p]), whole: whole };
  }

  function citeOne(c) {
    var first = String(c.lines).split("-")[0];
    return el("a", { "class": "cite", href: link("docs/" + c.document + ".html") + "?lines=" + encodeURIComponent(c.lines) + "#L" + first },
      [c.title + " (" + c.version + "), " + c.date + ", lines " + c.lines]);
  }
  function cite(c, r) {
    // As the server's cite macro: the release in force that restated the text first, then where it was written.
    if (!r) { return citeOne(c); }
    return el("span", {}, [citeOne(r), "; " + (r.typography ? "the same words" : "unchanged") + " since ", citeOne(c)]);
  }
  function citedText(c, r) {
    var own = c.title + " (" + c.version + "), " + c.date + ", lines " + c.lines;
    return r ? r.title + " (" + r.version + "), " + r.date + ", lines " + r.lines + "; " + (r.typography ? "the same words" : "unchanged") + " since " + own : own;
  }

  function searchLink(q) { return link("index.html") + "?q=" + encodeURIComponent(q) + "&exact=1"; }

  function showResults(results, text, found) {
    var count = found.hits.length;
    var list = el("ol", { "class": found.weak ? "results weak" : "results" }, found.hits.map(function (h) {
      var d = h.doc;
      var first = gist(d.text, h.terms, (d.cards || "").split(" | "));
      var paragraphs = (d.text || "").split(/\n{2,}/).filter(function (p) { return p.trim(); });
      var folded = first.whole ? "Citation" : "Whole text" + (paragraphs.length > 1 ? " (" + paragraphs.length + " paragraphs)" : "");
      var whole = el("div", { "class": "text" }, paragraphs.map(function (para) { return el("p", {}, [para]); }));
      // as the server's search page: a few lines, the whole text and citation one tap away
      return el("li", {}, [
        el("a", { "class": "headword", href: link("entry/" + d.topic + ".html") }, [d.headword]), " ",
        el("span", { "class": "badge " + d.status }, [d.status]),
        // a partial text or an empty heading says so here as on the server's pages
        d.partial ? el("p", { "class": "partial" }, [d.partial]) : "",
        first.node, el("p", { "class": "source" }, [cite(d.citation, d.restated)]),
        el("details", { "class": "whole" }, [el("summary", {}, [folded + " \u00b7 ", el("span", { "class": "label" }, [d.label])]),
          first.whole ? "" : whole, el("p", { "class": "source cited" }, [cite(d.citation, d.restated), " ", copyButton(d)])])
      ]);
    }));
    var notes = [];
    if (found.meant && found.meant.length) {
      var offered = [];
      found.meant.forEach(function (m, i) { if (i) { offered.push(" or "); } offered.push(el("a", { href: searchLink(m) }, [m])); });
      notes.push(el("p", { "class": "corrected" }, ["Did you mean "].concat(offered, ["? Showing results for both. Search instead for ", el("a", { href: searchLink(text) }, [text]), "."])));
    } else if (found.corrected) {
      notes.push(el("p", { "class": "corrected" }, ["Showing results for ", el("strong", {}, [found.corrected]), ". Search instead for ", el("a", { href: searchLink(text) }, [text]), "."]));
    }
    var also = Object.keys(found.also_searched || {});
    if (also.length) {  // the server's search page: the words also searched in the game's own words
      var parts = ["Also searched, in the game's own words: "];
      also.forEach(function (w, i) {
        parts.push(el("strong", {}, [w]), " as ");
        found.also_searched[w].forEach(function (o, j) { if (j) { parts.push(" or "); } parts.push(el("strong", {}, [o])); });
        parts.push(i + 1 < also.length ? "; " : ".");
      });
      notes.push(el("p", { "class": "also-searched" }, parts));
    }
    if (found.unmatched_note) { notes.push(el("p", { "class": found.weak ? "unmatched weak" : "unmatched" }, [found.unmatched_note])); }
    var note = el("p", { "class": "count" }, [count + " result" + (count === 1 ? "" : "s") + " for \u201c" + text + "\u201d"]);
    results.replaceChildren.apply(results, notes.concat([note, list]));
    showCopyButtons(results);
    results.setAttribute("data-query", text);
    results.setAttribute("data-offline", "1");
  }

  var box = document.getElementById("q");
  var suggestions = document.getElementById("suggestions");
  var results = document.getElementById("results");
  document.addEventListener("keydown", function (event) {
    var tag = (event.target.tagName || "").toLowerCase();
    if (box && event.key === "/" && tag !== "input" && tag !== "textarea" && tag !== "select") {
      event.preventDefault();
      box.focus();
      box.select();
    }
  });
  function chosenGame() {
    // The form's game, as the server reads it (web.views.chosen_game): "any" or empty is every game.
    var game = params.get("game") || "";
    return game === "any" ? "" : game;
  }
  function runSearch(text, live) {
    return searchIndex().then(function (index) {
      return search(index, text, live, chosenGame(), params.get("kind") || "");
    });
  }
  function cannotAnswer(index) {
    // What of the form this copy cannot answer as the server would, said plainly (or "" when all):
    // a game it holds nothing of, and a date other than the one its search index was made for.
    var game = chosenGame();
    if (game && !index.games.has(game)) { return "This copy holds nothing of the game \u201c" + game + "\u201d."; }
    var on = params.get("as_of") || "";
    if (on && on !== index.today) {
      return "This offline copy searches the texts in force on " + index.today + " only, not as of " + on +
        ": its pages of what was in force on a date are under \u201cAs of\u201d, and the served app searches any date.";
    }
    return "";
  }
  if (results && (params.get("q") || "").trim()) {
    var asked = params.get("q");
    searchIndex().then(function (index) {
      var refused = cannotAnswer(index);
      if (!refused) { return runSearch(asked, false).then(function (found) { showResults(results, asked, found); }); }
      var today = new URLSearchParams(params);
      today.delete("as_of");
      if (chosenGame() && !index.games.has(chosenGame())) { today.delete("game"); }
      results.replaceChildren(el("p", { "class": "note notice", "data-offline": "1" }, [refused + " ",
        el("a", { href: link("index.html") + "?" + today.toString() }, ["Search the texts in force on " + index.today + " instead"]), "."]));
      results.setAttribute("data-query", asked);
      results.setAttribute("data-offline", "1");
    });
  }
  if (box && suggestions) {
    var timer = null;
    var clear = function () { suggestions.replaceChildren(); suggestions.hidden = true; };
    box.addEventListener("input", function () {
      clearTimeout(timer);
      timer = setTimeout(function () {
        var text = box.value.trim();
        if (!text) { clear(); return; }
        runSearch(text, true).then(function (found) {
          if (box.value.trim() !== text) { return; }
          if (results) { showResults(results, text, found); }
          var heads = [];
          found.hits.forEach(function (h) { if (heads.length < 8 && !heads.some(function (x) { return x.topic === h.doc.topic; })) { heads.push(h.doc); } });
          suggestions.replaceChildren.apply(suggestions, heads.map(function (d) {
            return el("li", {}, [el("a", { href: link("entry/" + d.topic + ".html") }, [d.headword, el("span", { "class": "kind" }, [" entry · " + d.game])])]);
          }));
          suggestions.hidden = heads.length === 0;
        }).catch(clear);
      }, 150);
    });
    box.addEventListener("keydown", function (event) {
      if (event.key === "ArrowDown" && !suggestions.hidden) { event.preventDefault(); suggestions.querySelector("a").focus(); }
      if (event.key === "Escape") { clear(); }
    });
  }

  var cited = (params.get("lines") || "").match(/^(\d{1,9})(?:-(\d{1,9}))?$/);
  if (cited && document.querySelector("pre.source")) {
    for (var n = +cited[1]; n <= +(cited[2] || cited[1]) && n < +cited[1] + 500; n++) {
      var line = document.getElementById("L" + n);
      if (line) { line.classList.add("cited"); }
    }
  }

  function partView(p) {
    // One version as the server's part_view macro shows it: label, status, text, note, source.
    var section = el("section", { "class": "part" }, [el("h3", {}, [p.label + " ", el("span", { "class": "badge " + p.status }, [p.status]),
      " ", el("small", {}, [p.operation + (p.valid_from ? ", since " + p.valid_from : "") + (p.valid_to ? " until " + p.valid_to : "")])])]);
    if (p.text) { section.append(el("div", { "class": "text" }, p.text.split(/\n{2,}/).map(function (para) { return el("p", {}, [para]); }))); }
    if (p.note) { section.append(el("p", { "class": "note" }, ["Note: " + p.note])); }
    if (p.summary) { section.append(el("p", { "class": "summary" }, [el("strong", {}, ["Publisher's summary:"]), " " + p.summary])); }
    section.append(el("p", { "class": "source" }, [cite(p.citation, p.restated), " \u00b7 ", el("a", { href: link("version/" + p.key + ".html") }, ["permalink"]), " ", copyButton(p)]));
    return section;
  }

  function closeNames(cards, name) {
    // Up to three card names close to a name no card has (the deck page's "did you mean").
    var key = titleKey(name);
    var engine = window.RulingsSearch;
    var limit = Math.max(1, Math.floor(key.length / 4));
    var found = [];
    Object.keys(cards).forEach(function (k) {
      var d = engine.distance(key, k, limit);
      if (d <= limit && found.every(function (f) { return f.name !== cards[k][0]; })) { found.push({ name: cards[k][0], file: cards[k][1], d: d }); }
    });
    return found.sort(function (a, b) { return a.d - b.d || (a.name < b.name ? -1 : 1); }).slice(0, 3);
  }

  var deckForm = document.querySelector("form.deck");
  var deckText = params.get("list") || "";
  if (deckForm && deckText.trim()) {
    var lists = new Set();
    searchIndex().then(function (index) { lists = index.cardLists; }, function () {}).then(function () { return Promise.all([getJSON("cards.json"), names]); }).then(function (both) {
      var cards = both[0];
      var known = [];
      var unknown = [];
      deckText.split("\n").slice(0, 500).forEach(function (raw) {
        var line = raw.trim();
        if (!line) { return; }
        var m = line.match(/^(\d{1,3})\s*[x\u00d7]?\s+(.+)$/i);
        var count = m ? +m[1] : 1;
        var name = m ? m[2] : line;
        var card = cards[titleKey(name.replace(/^\[univ\]\s*/i, ""))];
        if (!card) { unknown.push(name); return; }
        var same = known.find(function (k) { return k.file === card[1]; });
        if (same) { same.count += count; } else { known.push({ name: card[0], file: card[1], count: count }); }
      });
      var total = known.reduce(function (a, k) { return a + k.count; }, 0);
      var shown = [el("p", { "class": "count" }, [total + (total === 1 ? " card, " : " cards, ") + known.length + " distinct known" + (unknown.length ? ", " + unknown.length + " unknown" : "")])];
      unknown.forEach(function (u) {
        var close = window.RulingsSearch ? closeNames(cards, u) : [];
        var line = el("p", { "class": "error" }, ["Unknown card: " + u]);
        if (close.length) {
          line.append(" \u2014 did you mean ");
          close.forEach(function (c, i) { line.append(i ? ", " : "", el("a", { href: link(c.file + ".html") }, [c.name])); });
          line.append("?");
        }
        shown.push(line);
      });
      // As the server's page: a table of the cards first, then each card's rulings, a ruling
      // bearing on two cards once (the later card links to it).
      var body = el("tbody", {}, []);
      var table = el("table", { "class": "deck-summary" }, [
        el("caption", {}, ["Every card of the list: its rulings are below, each ruling once"]),
        el("thead", {}, [el("tr", {}, ["Card", "Copies", "Rulings"].map(function (t) { return el("th", { scope: "col" }, [t]); }))]),
        body]);
      Promise.all(known.map(function (k) {
        return getJSON(k.file.split("/").map(encodeURIComponent).join("/") + ".json").then(function (answer) {
          return (answer.entries || []).filter(function (e) { return !lists.has(e.topic); });
        }, function () { return []; });
      })).then(function (all) {
        var seen = {};
        var sections = [];
        known.forEach(function (k, i) {
          var entries = all[i];
          var id = "card-" + (i + 1);
          var name = el("a", { href: entries.length ? "#" + id : link(k.file + ".html") }, [k.name]);
          body.append(el("tr", {}, [el("th", { scope: "row" }, [name]), el("td", {}, [String(k.count)]),
            el("td", {}, [entries.length ? String(entries.length) : "none"])]));
          if (!entries.length) { return; }
          var heading = el("h2", {}, [k.count + "\u00d7 ", el("a", { href: link(k.file + ".html") }, [k.name]), " ",
            el("small", {}, [entries.length + " ruling" + (entries.length === 1 ? "" : "s")])]);
          var section = el("section", { "class": "deckcard", id: id }, [heading]);
          entries.forEach(function (e) {
            if (seen[e.topic]) {
              section.append(el("p", { "class": "shared" }, ["Also bears on it: ", el("a", { href: "#ruling-" + e.topic }, [e.headword]), ", shown under " + seen[e.topic] + "."]));
              return;
            }
            seen[e.topic] = k.name;
            section.append(el("h3", { id: "ruling-" + e.topic }, [el("a", { href: link("entry/" + e.topic + ".html") }, [e.headword])]));
            (e.parts || []).forEach(function (p) { section.append(partView(p)); });
          });
          showCopyButtons(section);
          sections.push(section);
        });
        deckForm.after.apply(deckForm, shown.concat(known.length ? [table] : [], sections));
      });
    });
  }

  // The diff page's form, any two dates: the as-of views of the latest change dates on or
  // before FROM and TO (asof/<date>.json), compared as the server compares them.
  var diffForm = document.querySelector("form.filters input[name=from]");
  if (diffForm && (params.has("from") || params.has("to"))) {
    Promise.all([getJSON("dates.json"), names]).then(function (both) {
      var dates = both[0];
      var day = /^\d{4}-\d{2}-\d{2}$/;
      var first = dates.length ? new Date(dates[0] + "T00:00:00Z") : new Date();
      var start = params.get("from") || new Date(first.getTime() - 86400000).toISOString().slice(0, 10);
      var end = params.get("to") || new Date().toISOString().slice(0, 10);
      var main = diffForm.form.parentNode;
      var after = diffForm.form.nextElementSibling && diffForm.form.nextElementSibling.matches("p.dates")
        ? diffForm.form.nextElementSibling : diffForm.form;
      var clear = function () { while (after.nextSibling) { after.nextSibling.remove(); } };
      main.querySelector("h1").textContent = "Changes from " + start + " to " + end;
      main.querySelectorAll("p.banner").forEach(function (b) { b.remove(); });  // the latest document's: not what was asked
      diffForm.form.elements.from.value = start;
      diffForm.form.elements.to.value = end;
      clear();
      if (!day.test(start) || !day.test(end)) {
        main.append(el("p", { "class": "error", "data-offline": "1" }, ["Dates are YYYY-MM-DD: " + (day.test(start) ? end : start)]));
        return;
      }
      if (start > end) {
        main.append(el("p", { "class": "error", "data-offline": "1" }, ["FROM " + start + " is after TO " + end + "; give the earlier date first"]));
        return;
      }
      var view = function (on) {
        var known = dates.filter(function (d) { return d <= on; });
        return known.length ? getJSON("asof/" + known[known.length - 1] + ".json").then(function (a) { return a.topics; }) : Promise.resolve([]);
      };
      Promise.all([view(start), view(end)]).then(function (both) {
        var shape = function (t) {
          return JSON.stringify([t.parts.map(function (p) { return p.text; }).filter(Boolean).join("\n\n"), t.parts.map(function (p) { return p.note; })]);
        };
        var before = new Map(both[0].map(function (t) { return [t.topic, t]; }));
        var now = new Set(both[1].map(function (t) { return t.topic; }));
        var added = both[1].filter(function (t) { return !before.has(t.topic); });
        var changed = both[1].filter(function (t) { return before.has(t.topic) && shape(before.get(t.topic)) !== shape(t); });
        var rescinded = both[0].filter(function (t) { return !now.has(t.topic); });
        var list = function (items) {
          return el("ul", {}, items.map(function (t) { return el("li", {}, [el("a", { href: link("entry/" + t.topic + ".html") }, [t.headword])]); }));
        };
        var filtered = params.get("kind") || (params.get("deck") || "").trim() || params.get("game");
        // As the server's page: Changed first, each count a link to its section.
        var sections = [["changed", "Changed", changed], ["added", "Added", added], ["rescinded", "Rescinded", rescinded]];
        var count = el("p", { "class": "count", "data-offline": "1" }, []);
        sections.forEach(function (s, i) {
          var text = s[2].length + " " + s[0];
          count.append(i ? ", " : "", s[2].length ? el("a", { href: "#" + s[0] }, [text]) : text);
        });
        main.append(
          count,
          el("p", { "class": "note" }, ["Compared in your browser from the knowledge base as of " + (dates.filter(function (d) { return d <= start; }).pop() || "before its first document") +
            " and as of " + (dates.filter(function (d) { return d <= end; }).pop() || "before its first document") +
            ". Pending rulings are not counted here" + (filtered ? ", and the kind, deck and game filters are not applied" : "") +
            "; the server's diff page shows them."]),
          el("h2", { id: "changed" }, ["Changed"]), list(changed), el("h2", { id: "added" }, ["Added"]), list(added),
          el("h2", { id: "rescinded" }, ["Rescinded"]), list(rescinded));
      }).catch(function (error) { main.append(el("p", { "class": "error", "data-offline": "1" }, [String(error)])); });
    });
  }
})();
