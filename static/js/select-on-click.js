/* A read-only field holding something to copy (the one-time set-password link): a click or tap
 * selects all of it. In a file of its own because the Content-Security-Policy runs no inline
 * script or on*= attribute; one listener on the document also serves fields htmx swaps in. */
(function () {
  "use strict";

  document.addEventListener("click", function (event) {
    var target = event.target;
    var field = target && target.closest ? target.closest("[data-select-on-click]") : null;
    if (field && typeof field.select === "function") field.select();
  });
})();
