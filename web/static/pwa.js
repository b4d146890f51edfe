// Installable and offline: registers the service worker (its URL is the script's data-sw; the
// export points it at its own root) and tells the reader when a newer build has been kept.
// Offline, a search page says so ("offline: search needs the saved copy") instead of showing
// nothing; the footer offers one "Save for offline", says while it saves, and names the build
// once it is kept ("Ready offline: build …"); offline, that saving needs the network. A page
// never opened, offline, is the service worker's own (sw.js: "this page was not saved").
(function () {
  "use strict";
  var script = document.currentScript;
  var results = document.getElementById("results");
  function copyShown() {
    // A search asked (?q=) answered by the saved copy of the empty search page: the worker found
    // no copy of the answer, so the network is gone, whatever navigator.onLine says (it stays true
    // behind a network that is gone). Not the export's search page, which answers in the browser.
    var asked = (new URLSearchParams(window.location.search).get("q") || "").trim();
    var exported = document.querySelector('script[src$="offline.js"]');
    return Boolean(asked) && !(results.getAttribute("data-query") || "").trim() && !exported;
  }
  function offlineNotice() {
    if (!results || document.getElementById("offline-search")) { return; }
    if (navigator.onLine !== false && !copyShown()) { return; }
    var notice = document.createElement("p");
    notice.id = "offline-search";
    notice.className = "banner offline";
    notice.setAttribute("role", "status");
    notice.textContent = "offline: search needs the saved copy (the exported site, which searches in the browser); pages saved for offline still open.";
    results.before(notice);
  }
  offlineNotice();
  window.addEventListener("offline", offlineNotice);
  if (!script || !("serviceWorker" in navigator) || !window.isSecureContext) { return; }
  var shownBuild = document.querySelector(".build");
  var build = shownBuild ? shownBuild.getAttribute("data-build") : "";
  var mark = document.createElement("span");
  mark.className = "saved";
  mark.setAttribute("role", "status");
  function ready() {
    // Kept whole: the worker puts its mark last in the cache named by the build.
    return caches.open("rulings-" + build).then(function (cache) { return cache.match(new URL("../.rulings-kept", script.src)); }).then(function (found) {
      if (found) {
        mark.replaceChildren("Ready offline: build " + build);
        if (save) { save.textContent = "Save again"; }  // kept already: "Save for offline" beside it contradicts it
      }
      return Boolean(found);
    });
  }
  var save = null;
  if (shownBuild && build) {
    save = document.createElement("button");
    save.type = "button";
    save.textContent = "Save for offline";
    save.addEventListener("click", function () {
      mark.textContent = "Saving for offline…";
      // Asked of the host past the worker (?live=1) and its copies: offline, saving must wait
      // (navigator.onLine is not to be trusted: it says true behind a network that is gone).
      fetch(new URL("../offline.json?live=1", script.src).href, { cache: "no-store" }).then(function () {
        return navigator.serviceWorker.ready.then(function (registration) {
          if (registration.active) { registration.active.postMessage({ type: "check" }); }
          var tries = 0;
          (function poll() {
            ready().then(function (done) { if (!done && ++tries < 120) { setTimeout(poll, 250); } });
          })();
        });
      }, function () {
        mark.textContent = "Saving needs the network: save once back online.";
      });
    });
    shownBuild.after(" · ", save, " ", mark);
  }
  var root = new URL("../", script.src);
  var worker = new URL(script.getAttribute("data-sw") || "sw.js", window.location.href);
  function check(registration) {
    var active = registration.active || navigator.serviceWorker.controller;
    if (active && navigator.onLine !== false) { active.postMessage({ type: "check" }); }
  }
  navigator.serviceWorker.register(worker.href, { scope: root.pathname }).then(function (registration) {
    navigator.serviceWorker.ready.then(check).then(function () { if (build) { ready(); } });
    window.addEventListener("online", function () { registration.update().catch(function () {}); check(registration); });
  }).catch(function () {});
  navigator.serviceWorker.addEventListener("message", function (event) {
    var shown = document.querySelector(".build");
    if (!event.data || event.data.type !== "updated" || !shown || shown.getAttribute("data-build") === event.data.build) { return; }
    var notice = document.createElement("p");
    notice.className = "banner update";
    notice.textContent = "A newer build (" + event.data.build + ", " + event.data.built_on + ") is kept for offline use. ";
    var reload = document.createElement("a");
    reload.href = window.location.href;
    reload.textContent = "Show it";
    notice.append(reload);
    document.body.prepend(notice);
  });
})();
