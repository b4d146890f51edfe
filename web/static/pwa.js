// Installable and offline: registers the service worker (its URL is the script's data-sw; the
// export points it at its own root) and tells the reader when a newer build has been kept.
// Offline, a search page says so ("offline: search needs the saved copy") instead of showing
// nothing; the footer offers one "Save for offline", says while it saves, and names the build
// once it is kept ("Ready offline: build …").
(function () {
  "use strict";
  var script = document.currentScript;
  var results = document.getElementById("results");
  // A saved copy answers a search offline: the page kept without its query (the worker keeps no
  // answers to queries), so its search box does not hold the words asked. The browser may still
  // say it is online (the host is down, or the network is up but reaches nothing): both tell.
  function savedCopy() {
    var asked = new URLSearchParams(location.search).get("q");
    var box = document.getElementById("q");
    return Boolean(asked) && Boolean(box) && box.defaultValue !== asked.slice(0, 500);
  }
  function offlineNotice() {
    if (!results || document.getElementById("offline-search")) { return; }
    if (navigator.onLine !== false && !savedCopy()) { return; }
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
      if (found) { mark.replaceChildren("Ready offline: build " + build); }
      return Boolean(found);
    });
  }
  if (shownBuild && build) {
    var save = document.createElement("button");
    save.type = "button";
    save.textContent = "Save for offline";
    save.addEventListener("click", function () {
      mark.textContent = "Saving for offline…";
      navigator.serviceWorker.ready.then(function (registration) {
        if (registration.active) { registration.active.postMessage({ type: "check" }); }
        var tries = 0;
        (function poll() {
          ready().then(function (done) { if (!done && ++tries < 120) { setTimeout(poll, 250); } });
        })();
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
