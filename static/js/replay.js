/* Replay of a simulated crokinole game, shot by shot, on the board the server drew.
 *
 * Nothing is recorded frame by frame: each shot's record lists its physics events, each with
 * the position and velocity, just after it, of every disc it changed. Between events a disc
 * slides in a straight line with constant deceleration a (given by the shot's first event,
 * "release") until it stops: p(t) = p0 + v0·t − ½·a·t²·v̂, for t up to |v0| / a. A disc
 * flying over the ditch ("airborne") has no board under it, so no friction. Discs that drop
 * into the 20 hole leave the board; at the end of a shot the board is set to the outcome's
 * exact positions and the round's 20s are put beside the board, as simulation/render.py does.
 */
(function () {
  "use strict";
  var SVGNS = "http://www.w3.org/2000/svg";
  var FRICTION = { surface: true, leaner: true };
  var SEATS = ["south", "west", "north", "east"];

  function el(name, attrs, parent) {
    var node = document.createElementNS(SVGNS, name);
    Object.keys(attrs).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    if (parent) parent.appendChild(node);
    return node;
  }

  function at(seg, t) {
    var v = Math.sqrt(seg.vx * seg.vx + seg.vy * seg.vy);
    var tau = t - seg.t0;
    if (!v || tau <= 0) return [seg.x, seg.y];
    if (seg.a > 0) tau = Math.min(tau, v / seg.a);
    var s = v * tau - 0.5 * seg.a * tau * tau;
    return [seg.x + (seg.vx / v) * s, seg.y + (seg.vy / v) * s];
  }

  function Replay(root, data) {
    var ds = root.dataset;
    this.root = root;
    this.r = parseFloat(ds.discRadius);
    this.tray = { x: parseFloat(ds.trayX), top: parseFloat(ds.trayTop), step: parseFloat(ds.trayStep) };
    this.fill = ds.fill.split(","); this.stroke = ds.stroke.split(","); this.text = ds.text.split(",");
    this.sides = data.sides;
    this.record = data.record;
    this.seats = this.record.seats;
    this.layer = el("g", { "class": "replay-discs" }, root.querySelector(".replay-board svg"));
    this.status = root.querySelector(".replay-status");
    this.score = root.querySelector(".replay-score");
    this.speed = 1; this.pos = 0; this.anim = null; this.playing = false;
    this.shots = [];
    var self = this;
    this.record.rounds.forEach(function (rnd, ri) {
      var before = [], tray = [];
      rnd.shots.forEach(function (item, si) {
        self.shots.push({ round: ri, index: si, item: item, before: before, tray: tray });
        before = item.outcome.discs;
        tray = tray.concat(item.outcome.twenties || []);
      });
    });
    this.controls();
    this.show(0);
  }

  Replay.prototype.controls = function () {
    var self = this, root = this.root;
    var button = function (act) { return root.querySelector("[data-act=" + act + "]"); };
    this.playButton = button("play");
    button("play").addEventListener("click", function () { self.toggle(); });
    button("next").addEventListener("click", function () { self.next(); });
    button("prev").addEventListener("click", function () { self.prev(); });
    button("speed").addEventListener("change", function (e) { self.speed = parseFloat(e.target.value) || 1; });
    ["play", "next", "prev"].forEach(function (act) { button(act).disabled = false; });
  };

  Replay.prototype.disc = function (d, x, y) {
    var side = d.side === 0 ? 0 : 1;
    var g = el("g", { "class": "disc side-" + side }, this.layer);
    el("circle", { r: (this.r * 1000).toFixed(2), fill: this.fill[side], stroke: this.stroke[side], "stroke-width": "1.2" }, g);
    var label = el("text", { dy: "3.5", "text-anchor": "middle", "font-size": "10", "font-family": "sans-serif", fill: this.text[side] }, g);
    label.textContent = d.id;
    this.place(g, x, y);
    return g;
  };

  Replay.prototype.place = function (g, x, y) {
    g.setAttribute("transform", "translate(" + (x * 1000).toFixed(2) + " " + (-y * 1000).toFixed(2) + ")");
  };

  Replay.prototype.draw = function (discs, tray) {
    var self = this, count = [0, 0];
    while (this.layer.firstChild) this.layer.removeChild(this.layer.firstChild);
    var nodes = {};
    discs.forEach(function (d) { nodes[d.id] = self.disc(d, d.x, d.y); });
    tray.forEach(function (d) {
      var side = d.side === 0 ? 0 : 1;
      self.disc(d, side ? self.tray.x : -self.tray.x, self.tray.top - count[side]++ * self.tray.step);
    });
    return nodes;
  };

  /* The board before shot n (n = number of shots: the end of the game). */
  Replay.prototype.show = function (n) {
    this.stop();
    this.pos = n;
    if (n < this.shots.length) {
      var s = this.shots[n];
      this.draw(s.before, s.tray);
    } else {
      var last = this.shots[this.shots.length - 1];
      this.draw(last.item.outcome.discs, last.tray.concat(last.item.outcome.twenties || []));
    }
    this.describe(n, null);
  };

  Replay.prototype.describe = function (n, done) {
    var shot = this.shots[Math.min(n, this.shots.length - 1)];
    var rounds = this.record.rounds;
    var text;
    if (n >= this.shots.length && !done) {
      text = "End of the game.";
    } else {
      var item = shot.item, side = this.seats[String(item.seat)];
      text = "Round " + (shot.round + 1) + " of " + rounds.length + " · shot " + (shot.index + 1) +
        " of " + rounds[shot.round].shots.length + " · " + SEATS[item.seat] + ", " + this.sides[side];
      if (item.aim && item.aim.kind) text += " · aims: " + item.aim.kind;
      if (done) {
        var o = item.outcome;
        var made = (o.twenties || []).some(function (t) { return t.id === item.shot.id; });
        text += " · " + (o.foul ? "foul (" + o.foul + ")" : made ? "a 20!" : o.valid === false ? "not valid" : "played");
        if ((o.removed || []).length) text += ", removed " + o.removed.map(function (r) { return r.id; }).join(" ");
      }
    }
    this.status.textContent = text;
    var finished = done ? shot.round + (shot.index === rounds[shot.round].shots.length - 1 ? 1 : 0)
      : (n >= this.shots.length ? rounds.length : shot.round);
    var pts = [0, 0], tw = [0, 0], parts = [];
    for (var i = 0; i < finished; i++) {
      var r = rounds[i];
      pts[0] += r.points[0]; pts[1] += r.points[1]; tw[0] += r.twenties[0]; tw[1] += r.twenties[1];
      parts.push("R" + (i + 1) + " " + r.score[0] + "–" + r.score[1]);
    }
    this.score.textContent = finished ? parts.join(" · ") + " → points " + pts[0] + "–" + pts[1] +
      ", 20s " + tw[0] + "–" + tw[1] : "";
    this.rounds(finished);
  };

  /* The score table (drawn by the page) shows the rounds played so far, the last one marked:
   * the rest would tell the end of the game before it is watched. */
  Replay.prototype.rounds = function (finished) {
    var rows = this.root.querySelectorAll(".replay-rounds tbody tr[data-round]");
    rows.forEach(function (row) {
      var n = parseInt(row.dataset.round, 10);
      row.hidden = n >= finished;
      row.classList.toggle("latest", n === finished - 1);
    });
  };

  Replay.prototype.animate = function (n) {
    var self = this, s = this.shots[n], events = s.item.outcome.events || [];
    var nodes = this.draw(s.before, s.tray), segs = {};
    var decel = events.length && events[0].deceleration ? events[0].deceleration : 0;
    s.before.forEach(function (d) { segs[d.id] = { t0: 0, x: d.x, y: d.y, vx: 0, vy: 0, a: 0 }; });
    var anim = { n: n, t: 0, next: 0, end: events.length ? events[events.length - 1].t : 0, last: null };
    this.anim = anim; this.running = true; this.pos = n;
    this.describe(n, false);
    var step = function (now) {
      if (self.anim !== anim) return;
      if (self.running && anim.last !== null) anim.t += ((now - anim.last) / 1000) * self.speed;
      anim.last = now;
      while (anim.next < events.length && events[anim.next].t <= anim.t) {
        var ev = events[anim.next++];
        (ev.discs || []).forEach(function (d) {
          if (!nodes[d.id]) nodes[d.id] = self.disc({ id: d.id, side: self.seats[String(s.item.seat)] }, d.x, d.y);
          segs[d.id] = { t0: ev.t, x: d.x, y: d.y, vx: d.vx, vy: d.vy, a: FRICTION[d.status] ? decel : 0 };
          nodes[d.id].style.display = d.status === "captured-20" ? "none" : "";
          nodes[d.id].classList.toggle("gone", d.status === "ditch");
        });
      }
      Object.keys(segs).forEach(function (id) {
        var p = at(segs[id], anim.t);
        if (nodes[id]) self.place(nodes[id], p[0], p[1]);
      });
      if (anim.t >= anim.end && anim.next >= events.length) return self.finish();
      requestAnimationFrame(step);
    };
    requestAnimationFrame(step);
  };

  Replay.prototype.finish = function () {
    var anim = this.anim, self = this;
    if (!anim) return;
    var s = this.shots[anim.n];
    this.anim = null; this.running = false;
    this.draw(s.item.outcome.discs, s.tray.concat(s.item.outcome.twenties || []));
    this.pos = anim.n + 1;
    this.describe(anim.n, true);
    if (this.playing && this.pos < this.shots.length) {
      var pos = this.pos;
      setTimeout(function () { if (self.playing && self.pos === pos && !self.anim) self.animate(pos); }, 600 / this.speed);
    } else {
      this.setPlaying(false);
    }
  };

  Replay.prototype.stop = function () { this.anim = null; this.running = false; };

  Replay.prototype.setPlaying = function (on) {
    this.playing = on;
    this.playButton.textContent = on ? "Pause" : "Play";
  };

  Replay.prototype.toggle = function () {
    if (this.playing) { this.setPlaying(false); this.running = false; return; }
    this.setPlaying(true);
    if (this.anim) { this.running = true; return; }
    if (this.pos >= this.shots.length) this.show(0);
    this.animate(this.pos);
  };

  Replay.prototype.next = function () {
    this.setPlaying(false);
    if (this.anim) { this.finish(); return; }
    if (this.pos < this.shots.length) this.animate(this.pos);
  };

  Replay.prototype.prev = function () {
    this.setPlaying(false);
    this.show(this.anim ? this.anim.n : Math.max(0, this.pos - 1));
  };

  function start(root) {
    fetch(root.dataset.recordUrl, { headers: { Accept: "application/json" } })
      .then(function (r) { if (!r.ok) throw new Error("the record could not be loaded (" + r.status + ")"); return r.json(); })
      .then(function (data) { root.replay = new Replay(root, data); })
      .catch(function (err) { root.querySelector(".replay-status").textContent = "Replay unavailable: " + err.message; });
  }

  document.querySelectorAll(".replay[data-record-url]").forEach(start);
})();
