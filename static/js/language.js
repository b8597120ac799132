/* The language switcher of the site's bar: picking another language sends the form at once (its
 * button stays for those without JavaScript). In a file of its own because the
 * Content-Security-Policy runs no inline script or on*= attribute. */
(function () {
  "use strict";

  document.addEventListener("change", function (event) {
    var target = event.target;
    var form = target && target.closest ? target.closest("form[data-language-switcher]") : null;
    if (form && target.name === "language") form.submit();
  });
})();
