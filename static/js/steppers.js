/* The 20s of a round on a phone (templates/scoring/cards/_round_line.html): a chip per usual
 * count (0 to 4, one tap sets the box to it) and the − / + buttons for higher counts, which
 * move the number in the box by one, within the box's own min and max. Either only changes the
 * box and tells the page it changed: the game total is added up and judged by the server (the
 * rounds grid's htmx request), never here. The chip matching the box is shown pressed, also
 * when the box is typed into. Without this file the chips and buttons stay hidden and the boxes
 * are plain number inputs. One listener on the document also serves round lines htmx adds later.
 * A file of its own: the Content-Security-Policy runs no inline script. */
(function () {
  "use strict";

  document.documentElement.classList.add("has-steppers");

  function changed(box) {
    box.dispatchEvent(new Event("input", { bubbles: true }));
    box.dispatchEvent(new Event("change", { bubbles: true }));
  }

  function boxOf(element) {
    var stepper = element.closest(".stepper");
    return stepper ? stepper.querySelector("input[type=number]") : null;
  }

  /* Show the chip of the box's count pressed; chips above the box's max are disabled. */
  function sync(box) {
    var stepper = box.closest(".stepper");
    if (!stepper) return;
    var value = box.value === "" ? "0" : String(Number(box.value));
    var max = box.max === "" ? Infinity : Number(box.max);
    stepper.querySelectorAll("[data-set]").forEach(function (chip) {
      var count = chip.getAttribute("data-set");
      chip.setAttribute("aria-pressed", count === value ? "true" : "false");
      chip.disabled = Number(count) > max;
    });
  }

  function syncAll(root) {
    (root || document).querySelectorAll(".stepper input[type=number]").forEach(sync);
  }

  document.addEventListener("click", function (event) {
    var target = event.target && event.target.closest ? event.target : null;
    if (!target) return;
    var chip = target.closest("[data-set]");
    if (chip) {
      var into = boxOf(chip);
      if (!into) return;
      event.preventDefault();
      var count = chip.getAttribute("data-set");
      if (into.value !== count) {
        into.value = count;
        changed(into);
      }
      sync(into);
      return;
    }
    var button = target.closest("[data-step]");
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
    sync(box);
    if (box.value === before) return;
    changed(box);
  });

  document.addEventListener("input", function (event) {
    var box = event.target;
    if (box && box.matches && box.matches(".stepper input[type=number]")) sync(box);
  });

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", function () { syncAll(); });
  } else {
    syncAll();
  }
  // Rows htmx draws again (a saved row, a refused save with what was typed) and lines it adds.
  document.addEventListener("htmx:load", function (event) { syncAll(event.target); });
})();
