/* Keeps a phone's screen on while a scorecard is open: a player fills their row between rounds
 * and should not have to unlock the phone each time. The Screen Wake Lock API where the browser
 * has it; the browser drops the lock whenever the page is hidden, so it is asked for again each
 * time the page is shown. Browsers without it (or that refuse, e.g. on low battery) simply let
 * the screen sleep as usual. A file of its own: the Content-Security-Policy runs no inline
 * script. */
(function () {
  "use strict";

  if (!("wakeLock" in navigator) || !navigator.wakeLock) return;
  var lock = null;

  function acquire() {
    if (document.visibilityState !== "visible" || (lock && !lock.released)) return;
    navigator.wakeLock.request("screen").then(
      function (sentinel) {
        lock = sentinel;
        document.documentElement.setAttribute("data-wake-lock", "on");
        sentinel.addEventListener("release", function () {
          document.documentElement.setAttribute("data-wake-lock", "off");
        });
      },
      function () {
        lock = null; // refused: the screen sleeps as it would anyway
      }
    );
  }

  document.addEventListener("visibilitychange", acquire);
  acquire();
})();
