// Installable and offline: registers the service worker (its URL is the script's data-sw; the
// export points it at its own root) and tells the reader when a newer build has been kept.
(function () {
  "use strict";
  var script = document.currentScript;
  if (!script || !("serviceWorker" in navigator) || !window.isSecureContext) { return; }
  var root = new URL("../", script.src);
  var worker = new URL(script.getAttribute("data-sw") || "sw.js", window.location.href);
  function check(registration) {
    var active = registration.active || navigator.serviceWorker.controller;
    if (active && navigator.onLine !== false) { active.postMessage({ type: "check" }); }
  }
  navigator.serviceWorker.register(worker.href, { scope: root.pathname }).then(function (registration) {
    navigator.serviceWorker.ready.then(check);
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
