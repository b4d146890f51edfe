// Search as you type and autocomplete; every page works without this file.
(function () {
  "use strict";
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
  var timer = null;
  var asOf = new URLSearchParams(window.location.search).get("as_of") || "";
  function clear() { list.replaceChildren(); list.hidden = true; }
  function item(c) {
    var li = document.createElement("li");
    var a = document.createElement("a");
    a.href = c.url;
    a.textContent = c.name;
    var label = document.createElement("span");
    label.className = "kind";
    label.textContent = " " + c.kind + " · " + c.game;
    a.appendChild(label);
    li.appendChild(a);
    return li;
  }
  function update() {
    var q = box.value.trim();
    if (!q) { clear(); return; }
    fetch("/complete.json?q=" + encodeURIComponent(q)).then(function (r) { return r.json(); }).then(function (data) {
      clear();
      data.completions.forEach(function (c) { list.appendChild(item(c)); });
      list.hidden = data.completions.length === 0;
    }).catch(clear);
    var results = document.getElementById("results");
    if (!results) { return; }
    // While typing, the results are those Enter gives, then any that complete the last word.
    var url = "/?live=1&q=" + encodeURIComponent(q) + (asOf ? "&as_of=" + encodeURIComponent(asOf) : "");
    fetch(url).then(function (r) { return r.text(); }).then(function (html) {
      var doc = new DOMParser().parseFromString(html, "text/html");
      var fresh = doc.getElementById("results");
      if (fresh && box.value.trim() === q) { results.replaceWith(fresh); }
    }).catch(function () {});
  }
  box.addEventListener("input", function () { clearTimeout(timer); timer = setTimeout(update, 150); });
  var filters = document.getElementById("filters");
  if (filters) {
    // The filters apply to what is typed now, not to the query the page was loaded with.
    filters.addEventListener("submit", function () { filters.elements.q.value = box.value; });
  }
  box.addEventListener("keydown", function (event) {
    if (event.key === "ArrowDown" && !list.hidden) { event.preventDefault(); list.querySelector("a").focus(); }
    if (event.key === "Escape") { clear(); }
  });
})();
