/* The round clock: counts down in the browser from the seconds the server gave, and starts
 * again from the server's figure each time htmx swaps in a fresh block (every few seconds), so
 * every screen in the hall agrees. At zero: the rule shown, and a short buzzer where the
 * browser allows sound (after a tap on "Buzzer sound"), a vibration on phones that have one.
 * Its words come translated from the page (the block's data-word-* attributes), English if
 * the page has none. */
(function () {
  "use strict";

  var audio = null; // an AudioContext, made on the tap that turns the sound on
  var heard = {}; // version -> true once this page saw that run with time left
  var buzzed = {}; // version -> true once this page buzzed for that run
  var timer = null;

  function face(seconds) {
    var whole = seconds > 0 ? Math.ceil(seconds - 1e-9) : 0;
    var h = Math.floor(whole / 3600);
    var m = Math.floor((whole % 3600) / 60);
    var s = whole % 60;
    var ss = (s < 10 ? "0" : "") + s;
    if (h) return h + ":" + (m < 10 ? "0" : "") + m + ":" + ss;
    return m + ":" + ss;
  }

  function beep() {
    if (navigator.vibrate) {
      try { navigator.vibrate([400, 150, 400]); } catch (e) { /* not allowed here */ }
    }
    if (!audio) return;
    var start = audio.currentTime;
    [0, 0.45, 0.9].forEach(function (offset) {
      var osc = audio.createOscillator();
      var gain = audio.createGain();
      osc.type = "square";
      osc.frequency.value = 440;
      gain.gain.setValueAtTime(0.25, start + offset);
      gain.gain.setValueAtTime(0, start + offset + 0.35);
      osc.connect(gain);
      gain.connect(audio.destination);
      osc.start(start + offset);
      osc.stop(start + offset + 0.36);
    });
  }

  function word(el, name, english) {
    var said = el.getAttribute("data-word-" + name);
    return said || english;
  }

  function soundButton(el, button) {
    if (!button) return;
    var Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return; // no WebAudio: the button would promise what it cannot do
    var on = word(el, "sound-on", "Buzzer sound: on");
    var off = word(el, "sound-off", "Buzzer sound: off (tap to turn on)");
    button.hidden = false;
    button.textContent = audio ? on : off;
    button.addEventListener("click", function () {
      if (!audio) {
        audio = new Context();
      } else if (audio.state === "running") {
        audio.suspend();
        button.textContent = off;
        return;
      }
      audio.resume();
      button.textContent = on;
    });
  }

  function start(root) {
    var el = root && root.querySelector ? root.querySelector("[data-round-clock]") : null;
    if (root && root.matches && root.matches("[data-round-clock]")) el = root;
    if (!el) return;
    var state = el.getAttribute("data-state");
    var version = el.getAttribute("data-version");
    var left = parseInt(el.getAttribute("data-remaining-ms"), 10) / 1000;
    var since = performance.now();
    var faceEl = el.querySelector("[data-clock-face]");
    var stateEl = el.querySelector("[data-clock-state]");
    var notice = el.querySelector("[data-clock-notice]");
    soundButton(el, el.querySelector("[data-clock-sound]"));
    if (state === "running" && left > 0) heard[version] = true;
    if (timer) clearInterval(timer);

    function tick() {
      if (!document.body.contains(el)) return;
      var now = state === "running" ? Math.max(0, left - (performance.now() - since) / 1000) : left;
      faceEl.textContent = face(now);
      var up = state === "expired" || (state === "running" && now <= 0);
      if (!up) return;
      el.classList.remove("state-running");
      el.classList.add("state-expired");
      stateEl.textContent = word(el, "time-up", "time is up");
      notice.hidden = false;
      if (heard[version] && !buzzed[version]) {
        buzzed[version] = true;
        beep();
      }
    }
    tick();
    timer = setInterval(tick, 250);
  }

  document.addEventListener("DOMContentLoaded", function () { start(document); });
  document.addEventListener("htmx:load", function (event) { start(event.detail.elt); });
})();
