/* A button that copies a read-only field (the one-time set-password link) to the clipboard:
 * <button data-copy-target="field-id" data-copied="Copied" hidden>. The button is hidden in the
 * page and shown here, so that without JavaScript nobody sees a button that does nothing (the
 * field is still there to select). In a file of its own because the Content-Security-Policy runs
 * no inline script or on*= attribute. The clipboard API needs a secure page (HTTPS, or
 * localhost); elsewhere the field is selected and the browser's own copy command is asked. */
(function () {
  "use strict";

  var buttons = document.querySelectorAll("[data-copy-target]");
  for (var i = 0; i < buttons.length; i++) buttons[i].hidden = false;

  function copied(button) {
    var words = button.getAttribute("data-copied");
    if (words) button.textContent = words;
  }

  document.addEventListener("click", function (event) {
    var target = event.target;
    var button = target && target.closest ? target.closest("[data-copy-target]") : null;
    if (!button) return;
    var field = document.getElementById(button.getAttribute("data-copy-target"));
    if (!field) return;
    field.select();
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(field.value).then(function () { copied(button); });
      return;
    }
    try {
      if (document.execCommand("copy")) copied(button);
    } catch (ignored) {
      /* the field stays selected for the visitor to copy */
    }
  });
})();
