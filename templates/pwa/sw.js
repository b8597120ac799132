/* The site's service worker (served at /sw.js, scope "/"): the card pages keep working in a hall
 * whose Wi-Fi comes and goes.
 *
 * - A player's card pages, their private-link page and the round clock are asked of the network
 *   first, and the last copy that came back is kept on the phone: offline, the phone shows it.
 *   A page the phone never kept opens the last card page it kept instead, so the installed app
 *   opens on the player's card even with no network.
 * - The site's own files (/static/) come from the phone's copy first, refreshed in the
 *   background; a new version of this worker starts a new copy.
 * - Rows saved offline wait in the outbox (static/js/outbox.js, imported below). The page sends
 *   them when the network returns; where the browser has Background Sync, this worker sends them
 *   too, even with the page closed, and tells the open pages how each one went.
 * - The calls pushed to the phone are shown by static/js/sw-push.js, imported when it exists.
 * Rendered from templates/pwa/sw.js by config.pwa. */
/* eslint-env serviceworker */
"use strict";

var VERSION = "{{ version }}";
var STATIC_PREFIX = "{{ static_prefix }}";
var PAGES = "crokinole-pages";
var FILES = "crokinole-static-" + VERSION;
var LAST_PAGE = "/__offline__/last-card-page";
var LAST_URL = "/__offline__/last-card-url";
/* Where the installed app starts (the manifest's start_url): the player's last card page. */
var START = "{{ start_path }}";
/* The pages kept for offline use: a card, the cards of a tournament, a private link's page, the
 * round clock's block and state. */
var KEPT = [
  /^\/t\/[^/]+\/cards\/(\d+\/\d+\/)?$/,
  /^\/t\/[^/]+\/me\/[^/]+\/$/,
  /^\/t\/[^/]+\/clock\/(now\/|state\.json)$/
];
/* Of those, the ones the installed app may open on when offline. */
var LANDING = [/^\/t\/[^/]+\/cards\/\d+\/\d+\/$/, /^\/t\/[^/]+\/me\/[^/]+\/$/];

try { importScripts("{{ outbox_url }}"); } catch (e) { /* no outbox: the pages still work */ }
{% if push_url %}try { importScripts("{{ push_url }}"); } catch (e) { /* calls not pushed */ }
{% endif %}
self.addEventListener("install", function (event) {
  // Nothing fetched ahead: the files are kept as the pages use them (see networkFirst and
  // staticFirst below), so a card opened once online has all it needs offline.
  event.waitUntil(self.skipWaiting());
});

self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches.keys().then(function (names) {
      return Promise.all(names.filter(function (name) {
        return name.indexOf("crokinole-static-") === 0 && name !== FILES;
      }).map(function (name) { return caches.delete(name); }));
    }).then(function () { return self.clients.claim(); })
  );
});

function matches(patterns, path) {
  return patterns.some(function (pattern) { return pattern.test(path); });
}

/* The network's answer, kept when it is a page as it is (not a redirect, not an error). */
function networkFirst(event, path) {
  var request = event.request;
  return fetch(request).then(function (response) {
    if (response.ok && response.type === "basic" && !response.redirected) {
      var copy = response.clone();
      var landing = request.mode === "navigate" && matches(LANDING, path) ? response.clone() : null;
      event.waitUntil(caches.open(PAGES).then(function (cache) {
        return Promise.all([
          cache.put(request, copy),
          landing ? cache.put(LAST_PAGE, landing) : null,
          landing ? cache.put(LAST_URL, new Response(path)) : null
        ]);
      }));
    }
    return response;
  }).catch(function (error) {
    return caches.open(PAGES).then(function (cache) {
      return cache.match(request, { ignoreVary: true }).then(function (kept) {
        if (kept) return kept;
        if (request.mode === "navigate") {
          return cache.match(LAST_PAGE).then(function (last) { return last || offlinePage(); });
        }
        throw error;
      });
    });
  });
}

function offlinePage() {
  return new Response(
    "<!doctype html><meta charset=utf-8><meta name=viewport content='width=device-width'>" +
    "<title>Offline</title><p style='font:18px system-ui;padding:1rem'>" +
    "{{ offline_words|escapejs }}</p>",
    { status: 503, headers: { "Content-Type": "text/html; charset=utf-8" } }
  );
}

/* The phone's copy of a site file at once, and a fresh copy fetched for the next time. */
function staticFirst(event) {
  var request = event.request;
  return caches.open(FILES).then(function (cache) {
    return cache.match(request).then(function (kept) {
      var fresh = fetch(request).then(function (response) {
        if (!response.ok) return response;
        return cache.put(request, response.clone()).then(function () { return response; });
      });
      if (kept) {
        event.waitUntil(fresh.catch(function () { /* offline: the copy stays */ }));
        return kept;
      }
      return fresh;
    });
  });
}

/* The installed app opens on the card page the player last opened (a private-link player has
 * no login that would lead there), else where the site's own landing leads. */
function start(event) {
  return caches.open(PAGES).then(function (cache) {
    return cache.match(LAST_URL);
  }).then(function (last) {
    return last ? last.text() : "";
  }).then(function (path) {
    if (path) return Response.redirect(path, 302);
    return fetch(event.request).catch(offlinePage);
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") return; // saves go to the network; the outbox keeps the failed
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate" && url.pathname + url.search === START) {
    event.respondWith(start(event));
    return;
  }
  if (url.pathname.indexOf(STATIC_PREFIX) === 0) {
    event.respondWith(staticFirst(event));
  } else if (matches(KEPT, url.pathname)) {
    event.respondWith(networkFirst(event, url.pathname));
  }
});

/* The open pages hear how each entry sent from here went, and show it in its row. */
function tell(entry, result) {
  return self.clients.matchAll({ type: "window" }).then(function (windows) {
    windows.forEach(function (client) {
      client.postMessage({
        type: "crokinole-outbox", key: entry.key, url: entry.url, state: result.state,
        html: result.html || ""
      });
    });
  });
}

self.addEventListener("sync", function (event) {
  if (!self.CrokiOutbox || event.tag !== self.CrokiOutbox.SYNC_TAG) return;
  event.waitUntil(self.CrokiOutbox.flush(null, tell).then(function (outcome) {
    // Still offline: the browser tries again later.
    if (outcome.waiting) throw new Error("network not back yet");
  }));
});

self.addEventListener("message", function (event) {
  // A page asks the worker to forget the kept pages (its player logged out on this phone).
  if (event.data && event.data.type === "crokinole-forget-pages") {
    event.waitUntil(caches.delete(PAGES));
  }
});
