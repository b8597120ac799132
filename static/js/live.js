// A public page reloads itself when the poller (base.html, data-live-poll) hears that what it
// shows has changed, unless somebody is typing in it: the reload then waits for the next poll.
document.addEventListener("htmx:beforeOnLoad", (event) => {
  if (!event.detail.elt.hasAttribute("data-live-poll")) return;
  const active = document.activeElement;
  if (active && active.matches("input, textarea, select, [contenteditable]")) {
    event.preventDefault();
  }
});
