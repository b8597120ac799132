/* The round clock on the hall screen, the clock page and every player's card page.
 *
 * WCC: "A buzzer will be used to begin and end play." The page follows the clock's event stream
 * (data-events-url, tournaments.views.clock_events): each event says the clock's state, the
 * milliseconds left and the server's time when it said so. The page measures how far its own
 * clock is from the server's (offset) and counts down on the server's time, so every screen in
 * the hall shows the same second. Start, pause and reset show the moment they arrive.
 *
 * Where the stream fails (no EventSource, a proxy that holds it back, a server with its fill of
 * streams), htmx polls the clock's block every few seconds instead (hx-trigger on the block);
 * while the stream is live those polls are skipped.
 *
 * When a run starts: a short tone where sound was turned on, a vibration on phones, and "Play!"
 * for a few seconds. At zero: the buzzer (three tones, a vibration) and the rule about finishing
 * the round. Only for what this page saw happen: a page that loads after the buzzer shows the
 * rule without buzzing.
 *
 * Offline: the last state heard is kept in localStorage per tournament, and a page opened
 * without the network (a cached copy) counts down from it, saying it is offline.
 *
 * Its words come translated from the page (the block's data-word-* attributes), English if the
 * page has none. */
(function () {
  "use strict";

  var STORE = "round-clock:";
  var CUE_MS = 4000; // how long "Play!" shows
  var FRESH_RUN_MS = 5000; // a run younger than this, when first seen, still gets its signal
  var RETRY_STREAM_MS = 60000; // after the server refused the stream, try it again this late

  var audio = null; // an AudioContext, made on the tap that turns the sound on
  var known = null; // the clock as last heard: {state, remainingMs, serverMs, offset, version, ...}
  var heard = {}; // version -> true once this page saw that run with time left
  var buzzed = {}; // version -> true once this page buzzed for that run
  var signalled = {}; // version -> true once this page gave that run's start signal
  var source = null; // the EventSource
  var pollFailed = false; // the last poll of the clock's block found no server
  var heardAt = 0; // Date.now() of the stream's last event (it speaks at least every 15 s)
  var SILENT_MS = 37500; // a stream silent this long is taken for dead: the polls take over
  var cueUntil = 0;
  var shownState = null;
  var timer = null;
  var loaded = false; // the page's own block was taken in (later ones are swapped in by polls)

  function element() {
    return document.getElementById("round-clock");
  }

  function face(seconds) {
    var whole = seconds > 0 ? Math.ceil(seconds - 1e-9) : 0;
    var h = Math.floor(whole / 3600);
    var m = Math.floor((whole % 3600) / 60);
    var s = whole % 60;
    var ss = (s < 10 ? "0" : "") + s;
    if (h) return h + ":" + (m < 10 ? "0" : "") + m + ":" + ss;
    return m + ":" + ss;
  }

  function word(el, name, english) {
    var said = el && el.getAttribute("data-word-" + name);
    return said || english;
  }

  function tones(list) {
    if (!audio) return;
    var start = audio.currentTime;
    list.forEach(function (tone) {
      var osc = audio.createOscillator();
      var gain = audio.createGain();
      osc.type = "square";
      osc.frequency.value = tone[1];
      gain.gain.setValueAtTime(0.25, start + tone[0]);
      gain.gain.setValueAtTime(0, start + tone[0] + tone[2]);
      osc.connect(gain);
      gain.connect(audio.destination);
      osc.start(start + tone[0]);
      osc.stop(start + tone[0] + tone[2] + 0.01);
    });
  }

  function vibrate(pattern) {
    if (!navigator.vibrate) return;
    try { navigator.vibrate(pattern); } catch (e) { /* not allowed here */ }
  }

  function buzzer() {
    vibrate([400, 150, 400]);
    tones([[0, 440, 0.35], [0.45, 440, 0.35], [0.9, 440, 0.35]]);
  }

  function startSignal() {
    vibrate([200]);
    tones([[0, 880, 0.25]]);
  }

  // --- What is known, and where it came from ------------------------------------------------

  function load(slug) {
    try {
      var saved = JSON.parse(window.localStorage.getItem(STORE + slug) || "null");
      return saved && typeof saved.serverMs === "number" ? saved : null;
    } catch (e) {
      return null; // no storage here (a private window): the page's own figures then
    }
  }

  function save(slug, clock) {
    var kept = {};
    Object.keys(clock).forEach(function (key) { if (key !== "fromStream") kept[key] = clock[key]; });
    try { window.localStorage.setItem(STORE + slug, JSON.stringify(kept)); } catch (e) { /* full, or off */ }
  }

  /* The server's time now, on the offset measured when the figures were heard. */
  function serverNow(clock) {
    return Date.now() + clock.offset;
  }

  function remainingMs(clock) {
    if (clock.state !== "running") return clock.remainingMs;
    return Math.max(0, clock.remainingMs - (serverNow(clock) - clock.serverMs));
  }

  function fromElement(el) {
    var serverMs = parseInt(el.getAttribute("data-server-ms"), 10) || Date.now();
    var saved = load(el.getAttribute("data-slug"));
    return {
      state: el.hasAttribute("data-round-clock") ? el.getAttribute("data-state") : "off",
      remainingMs: parseInt(el.getAttribute("data-remaining-ms"), 10) || 0,
      duration: parseInt(el.getAttribute("data-duration"), 10) || 0,
      version: parseInt(el.getAttribute("data-version"), 10) || 0,
      startedMs: parseInt(el.getAttribute("data-started-ms"), 10) || 0,
      label: null, // the page's label as it is drawn
      serverMs: serverMs,
      // A page may come from a cache, long after it was drawn: the offset measured before on
      // this device is then the better guess of the server's time.
      offset: saved && typeof saved.offset === "number" ? saved.offset : serverMs - Date.now(),
    };
  }

  function fromEvent(data) {
    return {
      state: data.state,
      remainingMs: data.remaining_ms || 0,
      duration: data.duration || 0,
      version: data.version || 0,
      startedMs: data.started_ms || 0,
      label: typeof data.label === "string" ? data.label : null,
      serverMs: data.server_ms,
      offset: data.server_ms - Date.now(),
      fromStream: true,
    };
  }

  /* Take ``clock`` as the clock if it is newer (on the server's time) than what is known.
   * ``live``: heard as it happened, so a run that just began gets its start signal. */
  function apply(clock, live) {
    // The stream says the clock as it is now. A block or a stored state may be older than what
    // is known (a copy from the phone's cache, a poll answered by it offline): the later wins.
    if (known && !clock.fromStream && clock.serverMs < known.serverMs) return;
    var before = known;
    known = clock;
    var el = element();
    if (el) save(el.getAttribute("data-slug"), clock);
    if (
      live && clock.state === "running" && !signalled[clock.version] &&
      (!before || before.state !== "running" || before.version !== clock.version) &&
      clock.startedMs && serverNow(clock) - clock.startedMs < FRESH_RUN_MS &&
      remainingMs(clock) > 0
    ) {
      signalled[clock.version] = true;
      cueUntil = Date.now() + CUE_MS;
      startSignal();
    }
    if (el && el.hasAttribute("data-clock-off") && clock.state !== "off") {
      fetchBlock(el); // a clock was set up: its block, drawn by the server
    }
    tick();
  }

  function fetchBlock(el) {
    var url = el.getAttribute("hx-get");
    if (!url || el.getAttribute("data-fetching")) return;
    el.setAttribute("data-fetching", "1");
    if (window.htmx) {
      window.htmx.ajax("GET", url, { target: el, swap: "outerHTML" });
    }
  }

  // --- Drawing --------------------------------------------------------------------------------

  function tick() {
    var el = element();
    if (!el || !known || !el.hasAttribute("data-round-clock")) return;
    var faceEl = el.querySelector("[data-clock-face]");
    var stateEl = el.querySelector("[data-clock-state]");
    var notice = el.querySelector("[data-clock-notice]");
    var cue = el.querySelector("[data-clock-cue]");
    var labelEl = el.querySelector("[data-clock-label]");
    var offline = el.querySelector("[data-clock-offline]");
    if (known.state === "off") {
      el.hidden = true;
      return;
    }
    el.hidden = false;
    var left = remainingMs(known);
    var state = known.state === "running" && left <= 0 ? "expired" : known.state;
    if (known.state === "running" && left > 0) heard[known.version] = true;
    faceEl.textContent = face(left / 1000);
    ["ready", "running", "paused", "expired"].forEach(function (name) {
      el.classList.toggle("state-" + name, name === state);
    });
    el.setAttribute("data-state", state);
    el.setAttribute("data-version", String(known.version));
    // How this page hears of changes: "live" (the stream) or "polling" (the fallback).
    el.setAttribute("data-clock-stream", streaming() ? "live" : "polling");
    var words = { ready: "ready to start", running: "running", paused: "paused", expired: "time is up" };
    stateEl.textContent = word(el, state === "expired" ? "time-up" : state, words[state]);
    if (labelEl && known.label !== null) {
      labelEl.textContent = known.label || word(el, "clock", "Round clock");
    }
    if (notice) notice.hidden = state !== "expired";
    if (cue) {
      var cueing = state === "running" && Date.now() < cueUntil;
      cue.hidden = !cueing;
      if (cueing) cue.textContent = word(el, "play", "Play!");
    }
    if (offline) {
      var away = navigator.onLine === false || (pollFailed && !streaming());
      offline.hidden = !away;
      if (away) offline.textContent = word(el, "offline", "Offline: the clock as this page last heard it");
    }
    if (state === "expired" && heard[known.version] && !buzzed[known.version]) {
      buzzed[known.version] = true;
      buzzer();
    }
    if (state !== shownState) {
      shownState = state;
      document.dispatchEvent(new CustomEvent("round-clock:change", { detail: { state: state } }));
    }
  }

  // --- The stream, and the polls it replaces ----------------------------------------------------

  /* The stream is open and spoke lately: it tells this page every change. */
  function streaming() {
    return !!source && source.readyState === 1 && Date.now() - heardAt < SILENT_MS;
  }

  function connect(url) {
    if (!window.EventSource || source || !url) return;
    source = new EventSource(url);
    source.onmessage = function (event) {
      var data;
      try { data = JSON.parse(event.data); } catch (e) { return; }
      heardAt = Date.now();
      pollFailed = false;
      apply(fromEvent(data), true);
    };
    source.onerror = function () {
      heardAt = 0; // the polls take over until the next event
      if (source && source.readyState === 2) {
        // Refused (the server has its fill of streams) or gone: poll, and try again later.
        source.close();
        source = null;
        setTimeout(function () {
          var el = element();
          if (el) connect(el.getAttribute("data-events-url"));
        }, RETRY_STREAM_MS);
      }
    };
  }

  document.addEventListener("htmx:beforeRequest", function (event) {
    var elt = event.detail && event.detail.elt;
    if (streaming() && elt && elt.id === "round-clock" && !elt.getAttribute("data-fetching")) {
      event.preventDefault(); // the stream tells this page every change already
    }
  });

  function isClockRequest(event) {
    var elt = event.detail && event.detail.elt;
    return !!elt && elt.id === "round-clock";
  }
  document.addEventListener("htmx:sendError", function (event) {
    if (isClockRequest(event)) { pollFailed = true; tick(); }
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    if (isClockRequest(event) && event.detail.successful) pollFailed = false;
  });

  function soundButton(el, button) {
    if (!button || button.getAttribute("data-ready")) return;
    var Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return; // no WebAudio: the button would promise what it cannot do
    var on = word(el, "sound-on", "Buzzer sound: on");
    var off = word(el, "sound-off", "Buzzer sound: off (tap to turn on)");
    button.setAttribute("data-ready", "1");
    button.hidden = false;
    button.textContent = audio && audio.state === "running" ? on : off;
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

  /* A clock block came into the page: as it loaded (``live`` false: what it shows happened
   * before), or swapped in by a poll. */
  function adopt(root, live) {
    var el = element();
    if (!el || (root && root !== document && root !== el && !(root.contains && root.contains(el)))) return;
    live = live && loaded;
    loaded = true;
    el.removeAttribute("data-fetching");
    var slug = el.getAttribute("data-slug");
    var drawn = fromElement(el);
    if (!live) {
      var saved = load(slug);
      // A copy of the page from a cache may be older than what this device heard last.
      if (saved && saved.serverMs > drawn.serverMs) drawn = saved;
      if (drawn.state === "expired" || (drawn.state === "running" && remainingMs(drawn) <= 0)) {
        buzzed[drawn.version] = true; // the buzzer went before this page was here
      }
    }
    if (el.hasAttribute("data-round-clock")) soundButton(el, el.querySelector("[data-clock-sound]"));
    apply(drawn, live);
    connect(el.getAttribute("data-events-url"));
    if (!timer) timer = setInterval(tick, 250);
  }

  window.addEventListener("online", tick);
  window.addEventListener("offline", tick);
  document.addEventListener("DOMContentLoaded", function () { adopt(document, false); });
  document.addEventListener("htmx:load", function (event) { adopt(event.detail.elt, true); });
})();
