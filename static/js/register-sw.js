/* Installs the site's service worker (templates/pwa/sw.js, served at the address this script's
 * data-sw attribute gives, scope "/"), so the card pages keep working offline and the app can be
 * added to the home screen. Logging out on this phone also forgets the pages it kept, so the next
 * person on a shared phone cannot open them offline. A file of its own: the
 * Content-Security-Policy runs no inline script. */
(function () {
  "use strict";

  var script = document.currentScript;
  if (!script || !("serviceWorker" in navigator)) return;
  var url = script.getAttribute("data-sw");
  if (!url) return;

  navigator.serviceWorker.register(url, { scope: "/" }).catch(function () {
    /* not a secure context, or storage refused: the pages still work online */
  });

  var logout = script.getAttribute("data-logout");
  if (!logout) return;
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form || form.getAttribute("action") !== logout) return;
    var worker = navigator.serviceWorker.controller;
    if (worker) worker.postMessage({ type: "crokinole-forget-pages" });
    if (window.caches) window.caches.delete("crokinole-pages");
  });
})();
