/* The hall screen pages through its panels by itself (templates/tournaments/screen/).
 *
 * One panel is up at a time. When it comes up, its lines are cut into pages that fit the
 * height left on the screen, measured rather than guessed, so a 4:3 projector, a 16:9 TV or a
 * zoomed browser all get whole pages; each page stays up data-seconds seconds, "page 2 of 3" in
 * the panel's heading, then the next page, then the next panel. A page that starts inside a
 * group (a stage, a pool) repeats the group's heading.
 *
 * The data: every few seconds the page asks the tournament's live version (tournaments:live);
 * once it moved on, the panels are fetched again (the same address, as an htmx request) just
 * before the next panel comes up, so the rotation goes on where it was instead of reloading
 * from the start. If the network drops, the screen keeps paging through what it has.
 *
 * The round clock in the top band is static/js/clock.js's: it hears every change at once from
 * the clock's event stream; this script only makes room for it when it grows or shrinks. */
(function () {
  "use strict";

  var body = document.body;
  if (!body || !body.hasAttribute("data-hall-screen")) return;
  document.documentElement.classList.remove("no-js");

  var seconds = parseInt(body.getAttribute("data-seconds"), 10) || 12;
  var liveUrl = body.getAttribute("data-live-url");
  var pollMs = parseInt(body.getAttribute("data-poll-ms"), 10) || 5000;
  // "page {page} of {pages}" in the page's language (data-page-of-words).
  var pageOfWords = body.getAttribute("data-page-of-words") || "page {page} of {pages}";
  var stale = false;
  var panelIndex = 0;
  var pageIndex = 0;
  var pages = [];

  function container() { return document.getElementById("hall-panels"); }
  function panels() { return Array.prototype.slice.call(container().querySelectorAll("[data-panel]")); }
  function lines(panel) { return Array.prototype.slice.call(panel.querySelectorAll("tbody > tr")); }

  /* Cut the panel's lines into pages that fit between its table's top and the screen's foot. */
  function paginate(panel) {
    var rows = lines(panel);
    rows.forEach(function (row) { row.hidden = false; });
    var tbody = panel.querySelector("tbody");
    if (!tbody || !rows.length) return [rows];
    var foot = window.innerHeight - 4;
    var room = Math.max(foot - tbody.getBoundingClientRect().top, 1);
    var heights = rows.map(function (row) { return row.getBoundingClientRect().height; });
    var result = [];
    var page = [];
    var used = 0;
    var group = null;
    var groupHeight = 0;
    rows.forEach(function (row, i) {
      var isGroup = row.classList.contains("group");
      var h = heights[i];
      if (page.length && used + h > room) {
        // Never leave a group's heading alone at the foot of a page.
        var last = page[page.length - 1];
        var carried = last.classList.contains("group") && page.length > 1 ? page.pop() : null;
        result.push(page);
        page = [];
        used = 0;
        if (carried) {
          page.push(carried);
          used += groupHeight;
        } else if (!isGroup && group) {
          page.push(group);
          used += groupHeight;
        }
      }
      if (isGroup) {
        group = row;
        groupHeight = h;
      }
      page.push(row);
      used += h;
    });
    if (page.length) result.push(page);
    return result;
  }

  function showPage(panel) {
    var shown = pages[pageIndex] || [];
    lines(panel).forEach(function (row) { row.hidden = shown.indexOf(row) < 0; });
    var label = panel.querySelector("[data-page-of]");
    if (label) {
      label.textContent = pages.length > 1
        ? pageOfWords.replace("{page}", String(pageIndex + 1)).replace("{pages}", String(pages.length))
        : "";
    }
  }

  function showPanel(index) {
    var all = panels();
    if (!all.length) return;
    panelIndex = index % all.length;
    all.forEach(function (panel, i) { panel.hidden = i !== panelIndex; });
    var panel = all[panelIndex];
    pages = paginate(panel);
    pageIndex = 0;
    showPage(panel);
  }

  function refetch() {
    return fetch(window.location.href, { headers: { "HX-Request": "true" } })
      .then(function (response) { return response.ok ? response.text() : ""; })
      .then(function (html) {
        var template = document.createElement("template");
        template.innerHTML = html.trim();
        var fresh = template.content.querySelector("#hall-panels");
        if (fresh) {
          container().replaceWith(fresh);
          if (window.htmx) window.htmx.process(fresh); // panels that load their own part (odds)
          stale = false;
        }
      })
      .catch(function () { /* offline for a moment: page through the old panels again */ });
  }

  function advance() {
    var all = panels();
    var panel = all[panelIndex];
    if (panel && pageIndex + 1 < pages.length) {
      pageIndex += 1;
      showPage(panel);
      return;
    }
    var next = panelIndex + 1;
    if (stale) {
      refetch().then(function () { showPanel(next); });
    } else {
      showPanel(next);
    }
  }

  function poll() {
    if (!liveUrl || stale) return;
    var seen = container().getAttribute("data-version");
    fetch(liveUrl + "?seen=" + encodeURIComponent(seen), { headers: { Accept: "application/json" } })
      .then(function (response) { return response.ok ? response.json() : null; })
      .then(function (answer) {
        if (answer && String(answer.version) !== seen) stale = true;
      })
      .catch(function () { /* offline for a moment: keep paging through what is shown */ });
  }

  function start() {
    showPanel(0);
    setInterval(advance, seconds * 1000);
    setInterval(poll, pollMs);
  }

  /* Cut the panel shown into pages again: the room left for it changed. */
  var resized = null;
  function refit() {
    clearTimeout(resized);
    resized = setTimeout(function () {
      var panel = panels()[panelIndex];
      if (!panel) return;
      pages = paginate(panel);
      pageIndex = Math.min(pageIndex, pages.length - 1);
      showPage(panel);
    }, 200);
  }
  window.addEventListener("resize", refit);
  // The round clock in the screen's top band (static/js/clock.js, which follows the clock's
  // event stream) grows when time is up and the rule shows, and shrinks back at the next start.
  document.addEventListener("round-clock:change", refit);

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
