// Search as you type and autocomplete as a WAI-ARIA combobox (the "copy citation" buttons are
// cite.js's, loaded first); every page works without this file.
(function () {
  "use strict";
  // Copy citation and the status line: cite.js, loaded before this file (without it, nothing is said).
  var cite = window.RulingsCite || { announce: function () {}, show: function () {} };
  var announce = cite.announce;

  // The search filters fold into their one-line summary on a phone (open without this file).
  var filters = document.getElementById("filters");
  if (filters && window.matchMedia("(max-width: 40rem)").matches) { filters.open = false; }

  // The two-card form's fields: names as typed come from /complete.json into their <datalist>
  // (cards, and game terms, which pair with a card too).
  document.querySelectorAll("input[data-complete]").forEach(function (field) {
    var names = document.getElementById(field.getAttribute("data-complete"));
    var typed = 0;
    field.addEventListener("input", function () {
      var q = field.value.trim();
      var ask = ++typed;
      if (!q || !names) { return; }
      fetch("/complete.json?q=" + encodeURIComponent(q)).then(function (r) { return r.json(); }).then(function (data) {
        if (ask !== typed) { return; }
        var seen = new Set();
        names.replaceChildren();
        data.completions.forEach(function (c) {
          if (seen.has(c.name)) { return; }
          seen.add(c.name);
          var option = document.createElement("option");
          option.value = c.name;
          option.label = c.kind === "card" ? "card · " + c.game : "game term · " + c.game;
          names.appendChild(option);
        });
      }).catch(function () {});
    });
  });

  var box = document.getElementById("q");
  var list = document.getElementById("suggestions");
  if (!box || !list) { return; }
  document.addEventListener("keydown", function (event) {
    var tag = (event.target.tagName || "").toLowerCase();
    if (event.key === "/" && tag !== "input" && tag !== "textarea" && tag !== "select") {
      event.preventDefault();
      box.focus();
      box.select();
    }
  });

  // The combobox: focus stays in the box; aria-activedescendant names the active option.
  var active = -1;
  var asked = 0;
  var timer = null;
  var asOf = new URLSearchParams(window.location.search).get("as_of") || "";
  function options() { return list.querySelectorAll("[role=option]"); }
  function setActive(index) {
    var all = options();
    active = index;
    all.forEach(function (option, i) { option.setAttribute("aria-selected", i === index ? "true" : "false"); });
    if (index >= 0 && index < all.length) {
      box.setAttribute("aria-activedescendant", all[index].id);
      all[index].scrollIntoView({ block: "nearest" });
    } else {
      box.removeAttribute("aria-activedescendant");
    }
  }
  function open(yes) {
    list.hidden = !yes;
    box.setAttribute("aria-expanded", yes ? "true" : "false");
    if (!yes) { setActive(-1); }
  }
  function clear() { list.replaceChildren(); open(false); }
  function option(c, i) {
    var li = document.createElement("li");
    li.id = "suggestion-" + i;
    li.setAttribute("role", "option");
    li.setAttribute("aria-selected", "false");
    li.dataset.url = c.url;
    var name = document.createElement("span");
    name.textContent = c.name;
    var label = document.createElement("span");
    label.className = "kind";
    label.textContent = " " + c.kind + " · " + c.game;
    li.append(name, label);
    return li;
  }
  function go(li) { window.location.assign(li.dataset.url); }
  list.addEventListener("mousedown", function (event) { event.preventDefault(); });  // keep focus in the box
  list.addEventListener("click", function (event) {
    var li = event.target.closest("[role=option]");
    if (li) { go(li); }
  });
  function searchParams(q) {
    // The query and the filters of the search form (the as-of date of the address when the page has no field).
    var params = new URLSearchParams({ q: q });
    ["as_of", "game", "kind"].forEach(function (name) {
      var field = document.querySelector('[name="' + name + '"][form="search"], #search [name="' + name + '"]');
      var value = field ? field.value : (name === "as_of" ? asOf : null);
      if (value !== null && (value || name === "game")) { params.set(name, value); }
    });
    return params;
  }
  function shared(params) {
    // The address of a search: its query and the filters chosen, no empty ones.
    var kept = new URLSearchParams();
    params.forEach(function (value, name) { if (value) { kept.set(name, value); } });
    return kept;
  }
  function update() {
    var q = box.value.trim();
    var ask = ++asked;
    if (!q) { clear(); return; }
    fetch("/complete.json?q=" + encodeURIComponent(q)).then(function (r) { return r.json(); }).then(function (data) {
      if (ask !== asked) { return; }  // a later keystroke asked again
      list.replaceChildren();
      data.completions.forEach(function (c, i) { list.appendChild(option(c, i)); });
      open(data.completions.length > 0);
    }).catch(clear);
    var results = document.getElementById("results");
    if (!results) { return; }
    // While typing, the results are those Enter gives, then any that complete the last word,
    // with the filters shown; the address becomes that search's, to share or come Back to.
    var params = searchParams(q);
    fetch("/?live=1&" + params.toString()).then(function (r) { return r.text(); }).then(function (html) {
      var doc = new DOMParser().parseFromString(html, "text/html");
      var fresh = doc.getElementById("results");
      var current = document.getElementById("results");
      if (fresh && current && box.value.trim() === q) {
        current.replaceWith(fresh);
        history.replaceState(null, "", "/?" + shared(params).toString());
        cite.show(fresh);
        var count = fresh.querySelector(".count");
        if (count) { announce(count.textContent); }
      }
    }).catch(function () {});
  }
  box.addEventListener("input", function () { clearTimeout(timer); timer = setTimeout(update, 150); });
  box.addEventListener("blur", function () { open(false); });
  box.addEventListener("keydown", function (event) {
    var count = options().length;
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      if (!count) { return; }
      event.preventDefault();
      if (list.hidden) { open(true); }
      var down = event.key === "ArrowDown";
      // Past the last option (or above the first) focus returns to the text typed.
      var next = down ? (active + 1 < count ? active + 1 : -1) : (active < 0 ? count - 1 : active - 1);
      setActive(next);
    } else if (event.key === "Enter" && !list.hidden && active >= 0) {
      event.preventDefault();
      go(options()[active]);
    } else if (event.key === "Escape") {
      if (!list.hidden) { event.preventDefault(); open(false); }
    }
  });
})();
