/* Installs the site's service worker (templates/pwa/sw.js, served at the address this script's
 * data-sw attribute gives, scope "/"), so the card pages keep working offline and the app can be
 * added to the home screen. Logging out on this phone, or no longer acting for an entry, also
 * forgets the pages it kept, so the next person on a shared phone cannot open them offline.
 * A file of its own: the Content-Security-Policy runs no inline script. */
(function () {
  "use strict";

  var script = document.currentScript;
  if (!script || !("serviceWorker" in navigator)) return;
  var url = script.getAttribute("data-sw");
  if (!url) return;

  navigator.serviceWorker.register(url, { scope: "/" }).catch(function () {
    /* not a secure context, or storage refused: the pages still work online */
  });

  // Logging out, or "Stop acting for" an entry (its private link dropped from this browser).
  var logout = script.getAttribute("data-logout");
  var dropLink = /\/me\/drop\/\d+\/$/;
  document.addEventListener("submit", function (event) {
    var form = event.target;
    var action = form && form.getAttribute ? form.getAttribute("action") || "" : "";
    if (action !== logout && !dropLink.test(action)) return;
    var worker = navigator.serviceWorker.controller;
    if (worker) worker.postMessage({ type: "crokinole-forget-pages" });
    if (window.caches) window.caches.delete("crokinole-pages");
  });
})();
