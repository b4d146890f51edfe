// The service worker of the app and of its static export: every page, JSON twin, the search
// index and the assets answered from the network when there is one (and kept), from the cache
// when there is none. An export lists its files in offline.json: all are kept on the first
// visit (a large export keeps its shell and search index, and each page once opened). When the
// network is back and offline.json names a new build, the new build is kept and the old dropped.
// Offline, a page never opened is answered by a page of the worker's own ("this page was not
// saved"), never the browser's "can't be reached"; an export kept whole has every page, so what
// it lacks offline is not in it (its 404 page).
"use strict";
var PREFIX = "rulings-";
var SHELL = ["./", "static/style.css", "static/cite.js", "static/app.js", "static/pwa.js", "static/manifest.webmanifest", "static/icon.svg"];
var KEPT = ".rulings-kept"; // no file of an export starts with a dot

function scoped(path) {
  // A file of the export (as offline.json names it, not encoded) as a URL under the scope.
  var url = new URL(self.registration.scope);
  url.pathname += path === "./" ? "" : path;
  return url.href;
}

function keyOf(href) {
  // One spelling of a URL however its path was percent-encoded (%3A or :), so a link finds what was kept.
  var url = new URL(href);
  try { url.pathname = decodeURIComponent(url.pathname); } catch (e) { /* keep it as it came */ }
  return url.href;
}

function keptName() {
  // The newest cache whose keeping finished (its mark is there), or null: a page opened is put
  // only there, never into a cache being kept (a failed keeping deletes it) nor made anew.
  return caches.keys().then(function (names) {
    var ours = names.filter(function (n) { return n.indexOf(PREFIX) === 0; }).sort().reverse();
    return ours.reduce(function (found, name) {
      return found.then(function (already) { return already || kept(name).then(function (done) { return done ? name : null; }); });
    }, Promise.resolve(null));
  });
}

function kept(name) {
  // Whether the build's files were all kept: the mark is put last, so a cache whose keeping
  // failed or was cut short does not count (the next check keeps them again).
  return caches.has(name).then(function (has) {
    return has && caches.open(name).then(function (cache) { return cache.match(scoped(KEPT)); }).then(Boolean);
  });
}

function keep(name, files, whole) {
  // whole: every page of the build is among files (an export's offline.json says "complete").
  return caches.open(name).then(function (cache) {
    // cache: "no-store": a new build's files from the host, never the browser's HTTP cache.
    return cache.addAll(files.map(function (f) { return new Request(scoped(f), { cache: "no-store" }); })).then(function () {
      return cache.put(scoped(KEPT), new Response(JSON.stringify({ build: name, complete: Boolean(whole) })));
    });
  }).then(function () {
    return caches.keys();
  }).then(function (names) {
    return Promise.all(names.filter(function (n) { return n.indexOf(PREFIX) === 0 && n !== name; }).map(function (n) { return caches.delete(n); }));
  }, function (error) {
    // Not kept whole: dropped, so that it does not count as kept and the next check tries again;
    // never a cache another keeping finished (its mark is there), which the reader relies on.
    return kept(name).then(function (done) { return done || caches.delete(name); }).then(function () { throw error; });
  });
}

var running = Promise.resolve();
var waiting = null;

function serially(task) {
  // Every change to the caches, one at a time and in the order asked: the keepings of a build
  // and the pages put as they are opened. A page put while a keeping ran could land in the
  // cache that keeping then deleted on failing, or re-create it after (caches.open makes a cache
  // that is not there): a half-kept cache left behind.
  var done = running.then(task);
  running = done.catch(function () {});
  return done;
}

function check() {
  // One check at a time. Each page asks for one, and two keepings of a build at once would race:
  // the one that failed midway (the network gone while the reader is offline) dropped the cache
  // the other had just finished. A check asked while another waits to start is that one.
  if (!waiting) {
    waiting = serially(function () { waiting = null; return checkNow(); });
  }
  return waiting;
}

function checkNow() {
  // Keep the build offline.json names, unless it is the one kept already.
  return fetch(scoped("offline.json"), { cache: "no-store" }).then(function (response) {
    if (!response.ok) { throw new Error("no offline.json"); }
    return response.json();
  }).then(function (build) {
    var name = PREFIX + build.build;
    return kept(name).then(function (done) {
      if (done) { return null; }
      return keep(name, ["./"].concat(build.files), build.complete).then(function () { return build; });
    });
  }, function () {
    return kept(PREFIX + "app").then(function (done) { return done ? null : keep(PREFIX + "app", SHELL, false).then(function () { return null; }); });
  });
}

function escaped(text) {
  return String(text).replace(/[&<>"]/g, function (c) { return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c]; });
}

function notSaved(build) {
  // The page for a page never opened, offline: it says so and, as every page does (pwa.js, in
  // the footer beside the build), offers "Save for offline".
  var footer = build ? '<footer><span class="build" data-build="' + escaped(build) + '">build ' + escaped(build) + "</span></footer>" : "<footer></footer>";
  var html = '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">' +
    '<meta name="viewport" content="width=device-width, initial-scale=1"><meta name="color-scheme" content="light dark">' +
    "<title>Offline: not saved · rulings</title>" +
    '<link rel="stylesheet" href="' + escaped(scoped("static/style.css")) + '">' +
    '<script src="' + escaped(scoped("static/pwa.js")) + '" data-sw="' + escaped(self.location.href) + '" defer></script>' +
    '</head><body><main id="main"><h1>Not saved for offline</h1>' +
    '<p class="banner offline" id="offline-page" role="status">offline: this page was not saved; search needs the saved copy.</p>' +
    "<p>The pages opened before still open offline, and so does <a href=\"" + escaped(scoped("./")) + '">the search page</a>. ' +
    "Once the network is back, this page opens again and is kept as you open it; Save for offline keeps the saved copy.</p>" +
    "</main>" + footer + "</body></html>";
  return new Response(html, { status: 503, statusText: "Offline", headers: { "Content-Type": "text/html; charset=utf-8" } });
}

function unsaved(request, otherwise) {
  // Offline, no copy of the page asked for: for a page (a navigation) of a build kept whole, the
  // export's own 404 page (it has every page); else the page saying it was not saved.
  if (request.mode !== "navigate") { return otherwise(); }
  return keptName().then(function (name) {
    if (!name) { return notSaved(null); }
    return caches.open(name).then(function (cache) { return cache.match(scoped(KEPT)); }).then(function (mark) {
      return mark.json();
    }).then(function (said) { return Boolean(said && said.complete); }, function () { return false; }).then(function (whole) {
      var build = name.slice(PREFIX.length);
      return whole ? caches.match(scoped("404.html")).then(function (page) {
        return page ? Response.redirect(scoped("404.html") + "?from=" + encodeURIComponent(new URL(request.url).pathname), 302) : notSaved(build);
      }) : notSaved(build);
    });
  });
}

self.addEventListener("install", function (event) {
  // A failed keeping does not stop the install: the next check (each page, or back online) tries again.
  event.waitUntil(check().catch(function () {}).then(function () { return self.skipWaiting(); }));
});

self.addEventListener("activate", function (event) {
  event.waitUntil(self.clients.claim());
});

self.addEventListener("message", function (event) {
  if (event.data && event.data.type === "settled" && event.ports[0]) {
    // Told once every keeping and page put asked before this message is done (the caches then
    // stand as they will until the next check): a reader, or a test, need not guess by waiting.
    var port = event.ports[0];
    event.waitUntil(running.then(function () { port.postMessage({ type: "settled" }); }));
    return;
  }
  if (!event.data || event.data.type !== "check") { return; }
  event.waitUntil(check().then(function (build) {
    if (!build) { return; }
    return self.clients.matchAll().then(function (clients) {
      clients.forEach(function (c) { c.postMessage({ type: "updated", build: build.build, built_on: build.built_on }); });
    });
  }).catch(function () {}));
});

self.addEventListener("fetch", function (event) {
  var request = event.request;
  var url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) { return; }
  // The served app's answers while typing go straight to the network, as if there were no worker.
  if (url.pathname.slice(-14) === "/complete.json" || url.searchParams.get("live") === "1") { return; }
  // Asked of the host every time (the HTTP cache only if the host says it is current), so a
  // new build shows as soon as the network is back.
  var fresh = fetch(request.url, { cache: "no-cache", credentials: "same-origin" }).then(function (response) {
    return response.redirected && request.mode === "navigate" ? Response.redirect(response.url, 302) : response;
  });
  // A page the export does not have: its own 404 page (404.html, kept offline), not the browser's error.
  function missing(otherwise) {
    if (request.mode !== "navigate") { return otherwise(); }
    return caches.match(scoped("404.html")).then(function (page) {
      return page ? Response.redirect(scoped("404.html") + "?from=" + encodeURIComponent(url.pathname), 302) : otherwise();
    });
  }
  event.respondWith(fresh.then(function (response) {
    // Kept: pages and files, not answers to a query (a search, a diff between two dates), which
    // would pile up one per question; a page asked with a query is found without it offline.
    if (response.ok && response.type === "basic" && !url.search) {
      var copy = response.clone();
      event.waitUntil(serially(function () {
        return keptName().then(function (name) {
          return name && caches.open(name).then(function (cache) { return cache.put(keyOf(request.url), copy); });
        });
      }).catch(function () {}));
    }
    return response.status === 404 ? missing(function () { return response; }) : response;
  }, function (error) {
    var key = keyOf(request.url);
    return caches.match(key).then(function (found) {
      return found || caches.match(key, { ignoreSearch: true });
    }).then(function (found) {
      if (found) { return found; }
      return unsaved(request, function () { throw error; });
    });
  }));
});
