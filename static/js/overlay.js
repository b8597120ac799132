/* The overlay for streaming software (templates/simulation/broadcast/overlay.html): it follows
 * the featured match on air without a reload. The server's event stream (data-events) sends the
 * feed's JSON at once and at each change; when its version differs from the panel's, the panel
 * (data-panel) is fetched again and swapped in, so that every word stays the server's and
 * translated. Where the stream fails (an old browser source, a proxy, a busy server's 503), the
 * JSON feed (data-feed) is polled every few seconds instead. The round clock beside the panel
 * is the clock's own (static/js/clock.js). A file of its own: the CSP runs no inline script. */
(function () {
  "use strict";

  var POLL_MS = 3000;
  var body = document.body;
  if (!body || !body.hasAttribute("data-overlay")) return;
  var holder = document.querySelector("[data-overlay-panel]");
  var version = body.getAttribute("data-version");
  var pollTimer = null;
  var loading = false;

  function refresh(newVersion) {
    if (String(newVersion) === String(version) || loading) return;
    loading = true;
    fetch(body.getAttribute("data-panel"), { credentials: "same-origin", cache: "no-store" })
      .then(function (response) { return response.ok ? response.text() : null; })
      .then(function (html) {
        if (html !== null) {
          holder.innerHTML = html;
          var panel = holder.querySelector("[data-overlay-version]");
          version = panel ? panel.getAttribute("data-overlay-version") : newVersion;
          body.setAttribute("data-version", version);
        }
      })
      .catch(function () { /* the next event or poll tries again */ })
      .finally(function () { loading = false; });
  }

  function poll() {
    fetch(body.getAttribute("data-feed"), {
      credentials: "same-origin",
      cache: "no-store",
      headers: { Accept: "application/json" },
    })
      .then(function (response) { return response.ok ? response.json() : null; })
      .then(function (data) { if (data) refresh(data.version); })
      .catch(function () { /* keep polling */ });
  }

  function startPolling() {
    if (pollTimer === null) pollTimer = window.setInterval(poll, POLL_MS);
  }

  if (!window.EventSource) {
    startPolling();
    return;
  }
  var source = new EventSource(body.getAttribute("data-events"));
  var failures = 0;
  source.onmessage = function (event) {
    failures = 0;
    try {
      refresh(JSON.parse(event.data).version);
    } catch (error) { /* a broken event: wait for the next */ }
  };
  source.onerror = function () {
    failures += 1;
    if (source.readyState === EventSource.CLOSED || failures > 2) {
      source.close();
      startPolling();
    }
  };
})();
