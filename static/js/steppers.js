/* The − / + buttons beside a round's 20s boxes (templates/scoring/cards/_round_line.html).
 * They only move the number in the box by one, within the box's own min and max, and tell the
 * page the box changed: the game total is added up and judged by the server (the rounds grid's
 * htmx request), never here. Without this file the buttons stay hidden and the boxes are
 * plain number inputs. One listener on the document also serves round lines htmx adds later.
 * A file of its own: the Content-Security-Policy runs no inline script. */
(function () {
  "use strict";

  document.documentElement.classList.add("has-steppers");

  document.addEventListener("click", function (event) {
    var button = event.target && event.target.closest ? event.target.closest("[data-step]") : null;
    if (!button) return;
    var box = button.parentElement && button.parentElement.querySelector("input[type=number]");
    if (!box) return;
    event.preventDefault();
    var before = box.value;
    if (box.value === "") box.value = "0";
    try {
      if (Number(button.getAttribute("data-step")) > 0) box.stepUp();
      else box.stepDown();
    } catch (e) {
      return; // a box holding something that is not a number: leave it to the person
    }
    if (box.value === before) return;
    box.dispatchEvent(new Event("input", { bubbles: true }));
    box.dispatchEvent(new Event("change", { bubbles: true }));
  });
})();
