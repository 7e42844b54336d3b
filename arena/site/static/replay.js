// The replay viewer: rebuilds every step of a game from its data file (ArenaReplay.load) and
// draws it with the game's own renderer (ArenaReplay.games[name]). Everything a bot supplied
// (names, info, fault details) is shown as text only: textContent, never markup.
"use strict";

window.ArenaReplay = (function () {
  const SVG = "http://www.w3.org/2000/svg";
  const COLOURS = ["#d1495b", "#2e86ab", "#e9a322", "#3f9b4f", "#7d5ba6"];
  const games = {};

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    fill(node, attrs, children);
    return node;
  }

  function svg(tag, attrs, ...children) {
    const node = document.createElementNS(SVG, tag);
    fill(node, attrs, children);
    return node;
  }

  function fill(node, attrs, children) {
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (key === "style") node.style.cssText = String(value); // a style attribute the page's policy refuses
      else node.setAttribute(key, String(value));
    }
    for (const child of children) {
      if (child === null || child === undefined || child === false) continue;
      node.append(typeof child === "string" || typeof child === "number" ? document.createTextNode(String(child)) : child);
    }
  }

  function clone(value) {
    return value === null || typeof value !== "object" ? value : JSON.parse(JSON.stringify(value));
  }

  // One change of arena/site/frames.py: [path, value] sets, [path] removes.
  function apply(target, change) {
    const path = change[0];
    let node = target;
    for (let i = 0; i < path.length - 1; i++) node = node[path[i]];
    const last = path[path.length - 1];
    if (change.length === 1) {
      if (Array.isArray(node)) node.splice(last, 1); else delete node[last];
    } else {
      node[last] = clone(change[1]);
    }
  }

  function plain(word) {
    return String(word).replace(/[_-]+/g, " ");
  }

  function ordinal(rank) {
    const tail = rank % 10 === 1 && rank % 100 !== 11 ? "st" : rank % 10 === 2 && rank % 100 !== 12 ? "nd"
      : rank % 10 === 3 && rank % 100 !== 13 ? "rd" : "th";
    return rank + tail;
  }

  function describeValue(value) {
    if (value === null) return "none";
    if (Array.isArray(value)) return value.map(describeValue).join(", ") || "none";
    if (typeof value === "object") {
      const counts = Object.entries(value);
      if (counts.every(([, v]) => typeof v === "number")) {
        return counts.filter(([, v]) => v).map(([k, v]) => (v > 1 ? v + "× " : "") + k).join(", ") || "none";
      }
      return counts.map(([k, v]) => plain(k) + " " + describeValue(v)).join(" ");
    }
    return String(value);
  }

  function seatName(seat, bots) {
    return "seat " + seat + " (" + bots[seat] + ")";
  }

  // Play speeds: a step every BASE_MS / speed milliseconds.
  const SPEEDS = [0.5, 1, 2, 4];
  const BASE_MS = 600;

  class Viewer {
    constructor(root, data) {
      this.root = root;
      this.data = data;
      this.players = data.bots.length;
      this.seat = null;
      this.index = 0;
      this.timer = null;
      this.speed = 1;
      this.before = null;
      this.faultsAt = new Map();
      for (const fault of data.faults) {
        const ply = fault[2];
        if (!this.faultsAt.has(ply)) this.faultsAt.set(ply, []);
        this.faultsAt.get(ply).push(fault);
      }
      this.reset();
      this.build();
      this.follow(true);
      window.addEventListener("hashchange", () => { this.stop(); this.follow(false); });
      window.addEventListener("resize", () => this.showHint());
    }

    // The view and step the address asks for (#seat=1&step=60): on load and whenever it changes.
    follow(first) {
      const wanted = new URLSearchParams(location.hash.slice(1));
      this.setSeat(wanted.get("seat"));
      this.show(wanted.has("step") ? Number(wanted.get("step")) : first ? 0 : this.index);
    }

    reset() {
      this.cursor = -1;
      this.pub = {};
      this.priv = Array.from({ length: this.players }, () => ({}));
      this.score = [];
      this.events = [];
    }

    advance() {
      const step = this.data.steps[++this.cursor];
      for (const change of step.pub) apply(this.pub, change);
      if (step.priv) step.priv.forEach((changes, s) => changes.forEach((c) => apply(this.priv[s], c)));
      if (step.score) this.score = step.score.slice();
      this.events = step.ev || [];
    }

    build() {
      const d = this.data;
      const heading = this.root.querySelector("h1");
      heading.textContent = "Game " + (d.about.number || "") + ": " + (d.title || d.game) + " (" + plain(d.variant) + ")";
      const who = el("p", { class: "note", id: "players" },
        ...d.bots.flatMap((bot, s) => [s ? " · " : "", el("span", { class: "player-name", "data-seat": s },
          "seat " + s + ": " + bot, ...this.seatMarks(s))]),
        d.about.table !== undefined ? " · table " + (d.about.table + 1) + ", deal " + (d.about.deal + 1) + ", rotation " + (d.about.rotation + 1) : "");
      const view = el("select", { id: "view", "aria-label": "Whose view" },
        el("option", { value: "" }, "Everything (omniscient)"),
        ...d.bots.map((bot, s) => el("option", { value: String(s) }, "As seat " + s + " (" + bot + ") saw it")));
      // Once chosen, the list gives the keys back to the replay: the arrows step, not change the view.
      view.addEventListener("change", () => { this.setSeat(view.value); this.show(this.index); view.blur(); });
      this.viewSelect = view;
      const button = (id, label, title, action) => {
        const b = el("button", { id, type: "button", title, "aria-label": title }, label);
        b.addEventListener("click", action);
        return b;
      };
      this.playButton = button("play", "play", "Play / pause (space)", () => this.toggle());
      this.speedSelect = el("select", { id: "speed", "aria-label": "Play speed", title: "Play speed" },
        ...SPEEDS.map((x) => el("option", { value: String(x), selected: x === this.speed }, x + "×")));
      this.speedSelect.addEventListener("change", () => { this.setSpeed(Number(this.speedSelect.value)); this.speedSelect.blur(); });
      this.scrub = el("input", { id: "scrub", type: "range", min: 0, max: d.steps.length - 1, value: 0, "aria-label": "Step" });
      this.scrub.addEventListener("input", () => { this.stop(); this.show(Number(this.scrub.value)); });
      this.position = el("span", { id: "position", class: "position" });
      const controls = el("div", { class: "controls" },
        button("first", "«", "First step (Home)", () => { this.stop(); this.show(0); }),
        button("back", "‹", "Step back (←)", () => { this.stop(); this.show(this.index - 1); }),
        this.playButton,
        button("forward", "›", "Step forward (→)", () => { this.stop(); this.show(this.index + 1); }),
        button("last", "»", "Last step (End)", () => { this.stop(); this.show(d.steps.length - 1); }),
        this.speedSelect, this.scrub, this.position);
      this.chart = el("div", { id: "chart", class: "score-chart" });
      this.status = el("p", { id: "status", class: "status" });
      this.board = el("div", { id: "board", class: "board " + d.game });
      this.hint = el("p", { id: "board-hint", class: "board-hint", hidden: true }, "↔ The board is wider than the screen: swipe it sideways.");
      this.result = el("div", { id: "result", class: "result", hidden: true });
      this.scoreboard = el("table", { id: "scoreboard", class: "scoreboard" });
      this.happened = el("ul", { id: "happened", class: "happened" });
      this.log = el("ol", { id: "log", class: "log" });
      const infoToggle = el("input", { id: "show-info", type: "checkbox" });
      infoToggle.addEventListener("change", () => this.log.classList.toggle("show-info", infoToggle.checked));
      this.root.append(who, el("div", { class: "stage" },
        el("div", { class: "main-column" }, el("div", { class: "toolbar" }, view, controls), this.chart, this.status,
          this.result, this.hint, this.board),
        el("aside", { class: "side-column" },
          el("section", { class: "players-section" }, this.scoreboard),
          el("section", { class: "happened-section" }, el("h2", {}, "What happened"), this.happened),
          el("section", { class: "log-section" },
            el("div", { class: "log-head" }, el("h2", {}, "Decisions and events"),
              el("label", { class: "info-toggle", title: "What each bot said about its decision" }, infoToggle, " bots' info")),
            this.log))));
      document.addEventListener("keydown", (e) => this.key(e));
      this.fillLog();
    }

    key(e) {
      if (e.altKey || e.ctrlKey || e.metaKey) return;
      const moves = { ArrowLeft: this.index - 1, ArrowRight: this.index + 1, Home: 0, End: this.data.steps.length - 1 };
      // A list keeps its own keys, but left and right still step the replay.
      if (e.target instanceof HTMLSelectElement && e.key !== "ArrowLeft" && e.key !== "ArrowRight") return;
      if (e.target instanceof HTMLInputElement && e.target.type === "checkbox" && e.key === " ") return;
      if (e.key in moves) { e.preventDefault(); this.stop(); this.show(moves[e.key]); }
      else if (e.key === " ") { e.preventDefault(); this.toggle(); }
    }

    setSeat(value) {
      const seat = value === "" || value === null ? null : Number(value);
      this.seat = seat !== null && seat >= 0 && seat < this.players ? seat : null;
      this.viewSelect.value = this.seat === null ? "" : String(this.seat);
      this.series = this.scoreSeries();
      this.fillLog();
      this.drawChart();
    }

    // Whether this view shows seat s's hidden side.
    visible(s) {
      return this.seat === null || this.seat === s;
    }

    // The events of step i this view saw: [seats, text], seats null when every seat saw it.
    eventsAt(i) {
      return (this.data.steps[i].ev || []).filter(([seats]) => this.seat === null || seats === null || seats.includes(this.seat));
    }

    // The decision and event log as this view saw it. Another seat's choice reads as what every
    // seat saw of it (its public events), or only that it decided; its info stays hidden (it may
    // speak of its cards).
    fillLog() {
      const d = this.data;
      this.log.replaceChildren();
      this.log.append(el("li", { class: "deal", "data-step": 0 }, el("span", { class: "what" }, "The deal"), this.eventList(0)));
      const early = this.faultsAt.get(-1);
      if (early) this.log.append(this.faultItem(early, -1));
      d.log.forEach(([seat, label, ms, info, fallback], ply) => {
        const own = this.visible(seat);
        const faults = this.faultsAt.get(ply) || [];
        const publicWords = (d.steps[ply + 1].ev || []).filter(([seats]) => seats === null).map(([, text]) => text).join("; ");
        const item = el("li", { "data-ply": ply, "data-step": ply + 1, "data-seat": seat, class: (fallback || faults.length ? "fault " : "") + "seat-" + seat },
          el("span", { class: "who", style: "border-color:" + COLOURS[seat % COLOURS.length] }, seatName(seat, d.bots)),
          ": ", el("span", { class: "what" }, own ? label : publicWords || "decided"),
          el("span", { class: "ms" }, fallback ? " referee's fallback" : " " + ms + " ms"));
        for (const fault of faults) {
          if (own) item.append(el("div", { class: "fault-detail" }, plain(fault[1]) + " (" + seatName(fault[0], d.bots) + "): " + fault[3]));
          else item.append(el("div", { class: "fault-detail" }, plain(fault[1]) + " (" + seatName(fault[0], d.bots) + ")"));
        }
        const events = own ? this.eventList(ply + 1) : null;
        if (events) item.append(events);
        if (own && info !== null && info !== undefined) item.append(el("pre", { class: "info" }, JSON.stringify(info)));
        this.log.append(item);
      });
      this.markLatest();
    }

    eventList(step) {
      const events = this.eventsAt(step);
      return events.length ? el("ul", { class: "step-events" }, ...events.map((e) => this.eventItem(e))) : null;
    }

    // One event in the game's words; the omniscient view says who saw a private one.
    eventItem([seats, text]) {
      if (seats === null) return el("li", {}, text);
      const seen = this.seat === null ? " (seen by " + seats.map((s) => seatName(s, this.data.bots)).join(", ") + ")" : "";
      return el("li", { class: "private" }, text + seen);
    }

    faultItem(faults, ply) {
      return el("li", { class: "fault", "data-ply": ply, "data-step": 0 },
        ...faults.map((f) => el("div", { class: "fault-detail" }, plain(f[1]) + " (" + seatName(f[0], this.data.bots) + ") before the first decision: " + f[3])));
    }

    show(target) {
      const last = this.data.steps.length - 1;
      const index = Math.max(0, Math.min(last, Number.isFinite(target) ? Math.floor(target) : 0));
      if (index !== this.cursor) {
        if (index < this.cursor) this.reset();
        while (this.cursor < index - 1) this.advance();
        this.before = this.cursor >= 0 ? { pub: clone(this.pub), priv: clone(this.priv) } : null;
        this.advance();
      }
      this.index = index;
      this.scrub.value = String(index);
      this.position.textContent = index === 0 ? "the deal" : "decision " + index + " of " + this.data.log.length;
      const shown = (privs) => privs.map((p, s) => (this.visible(s) ? p : null));
      draw(this.board, this.data, this.pub, shown(this.priv), this.seat === null ? this.score : null, this.seat, this.mover(),
        this.before && { pub: this.before.pub, priv: shown(this.before.priv) });
      this.showHappened();
      this.showStatus();
      this.showScoreboard();
      this.showResult(index === last);
      this.markLatest();
      this.moveCursor();
      this.showHint();
      const hash = (this.seat === null ? "" : "seat=" + this.seat + "&") + "step=" + index;
      try { history.replaceState(null, "", "#" + hash); } catch (err) { /* a page that may not change its address */ }
    }

    // The log entries of this step marked as the latest, and kept in sight.
    markLatest() {
      for (const item of this.log.querySelectorAll(".current")) item.classList.remove("current");
      const items = this.log.querySelectorAll(':scope > li[data-step="' + this.index + '"]');
      items.forEach((item) => item.classList.add("current"));
      const current = items[items.length - 1];
      if (!current) return;
      const box = this.log;
      const top = current.offsetTop - box.offsetTop;
      if (top < box.scrollTop || top > box.scrollTop + box.clientHeight - current.offsetHeight) box.scrollTop = top - box.clientHeight / 2;
    }

    // The step's events in the game's own words (arena/site/frames.py).
    showHappened() {
      this.happened.replaceChildren();
      const seat = this.seat;
      this.happened.append(...this.eventsAt(this.index).map((e) => this.eventItem(e)));
      if (!this.happened.children.length) {
        const none = this.index === 0 ? "The deal." : seat === null ? "No event at this step." : "Nothing that this seat saw.";
        this.happened.append(el("li", { class: "note" }, none));
      }
    }

    // The seat that decides next (the last one to decide at the end): whose view the
    // omniscient picture starts from.
    mover() {
      const next = this.data.log[Math.min(this.index, this.data.log.length - 1)];
      return next ? next[0] : 0;
    }

    showStatus() {
      const base = Object.assign({}, this.pub, this.priv[this.seat === null ? this.mover() : this.seat]);
      const describe = (games[this.data.game + ":status"] || (() => ""));
      this.status.textContent = describe(base, this.data, { seatName, plain });
    }

    // The running scores by step as this view may see them (null where unknown): everything
    // the game counts in the omniscient view; in a seat's view only the scores its observation
    // holds (the key "scores", one number per seat), so nothing when the game keeps them hidden.
    scoreSeries() {
      const series = [];
      if (this.seat === null) {
        let now = [];
        for (const step of this.data.steps) {
          if (step.score) now = step.score;
          series.push(now.length === this.players ? now.slice() : null);
        }
        return series;
      }
      const held = {};
      const take = (changes) => (changes || []).forEach((c) => { if (c[0][0] === "scores") apply(held, c); });
      for (const step of this.data.steps) {
        take(step.pub);
        if (step.priv) take(step.priv[this.seat]);
        const s = held.scores;
        series.push(Array.isArray(s) && s.length === this.players && s.every((v) => typeof v === "number") ? s.slice() : null);
      }
      return series;
    }

    // The scores over the game as lines under the slider, a mark at each fault; a click goes to
    // that step.
    drawChart() {
      const d = this.data;
      const last = Math.max(1, d.steps.length - 1);
      const W = 1000, H = 100;
      const values = this.series.flatMap((s) => s || []);
      const low = Math.min(0, ...values), high = Math.max(1, ...values);
      const x = (i) => (W * i / last).toFixed(1);
      const y = (v) => (H - 4 - (H - 8) * (v - low) / (high - low || 1)).toFixed(1);
      const picture = svg("svg", { class: "chart", viewBox: "0 0 " + W + " " + H, preserveAspectRatio: "none", role: "img",
        "aria-label": "Scores over the game; click to go to that step" });
      picture.append(svg("rect", { class: "chart-back", x: 0, y: 0, width: W, height: H }));
      for (let s = 0; s < this.players; s++) {
        let run = [];
        const flush = () => {
          if (run.length) picture.append(svg("polyline", { class: "line", "data-seat": s, points: run.join(" "), stroke: COLOURS[s % COLOURS.length] }));
          run = [];
        };
        this.series.forEach((scores, i) => { if (scores) run.push(x(i) + "," + y(scores[s])); else flush(); });
        flush();
      }
      for (const fault of d.faults) {
        const step = Math.max(0, Math.min(last, fault[2] + 1));
        picture.append(svg("line", { class: "fault-mark", "data-step": step, x1: x(step), x2: x(step), y1: 0, y2: H },
          svg("title", {}, plain(fault[1]) + " by " + seatName(fault[0], d.bots) + (fault[2] < 0 ? " before the first decision" : " at decision " + (fault[2] + 1)))));
      }
      this.cursorLine = svg("line", { class: "chart-cursor", x1: 0, x2: 0, y1: 0, y2: H });
      picture.append(this.cursorLine);
      picture.addEventListener("click", (e) => {
        const box = picture.getBoundingClientRect();
        this.stop();
        this.show(Math.round(last * (e.clientX - box.left) / box.width));
      });
      const caption = values.length
        ? "Scores, " + low + " to " + high + (d.faults.length ? " · faults marked in red" : "")
        : this.seat === null ? "No running score: the game tells the scores at the end." : "Scores are hidden in this seat's view until the end.";
      this.chart.replaceChildren(picture, el("span", { class: "chart-caption note" }, caption));
      this.chart.dataset.shown = values.length ? "scores" : "none";
      this.moveCursor();
    }

    moveCursor() {
      if (!this.cursorLine) return;
      const at = (1000 * this.index / Math.max(1, this.data.steps.length - 1)).toFixed(1);
      this.cursorLine.setAttribute("x1", at);
      this.cursorLine.setAttribute("x2", at);
    }

    // The players with the scores this view may see, the seat to decide marked.
    showScoreboard() {
      const d = this.data;
      const scores = this.series[this.index];
      const over = this.index === d.steps.length - 1;
      this.scoreboard.replaceChildren(el("thead", {}, el("tr", {}, el("th", { class: "name" }, "player"), el("th", {}, "score"))),
        el("tbody", {}, ...d.bots.map((bot, s) => {
          const deciding = !over && this.mover() === s;
          return el("tr", { "data-seat": s, class: deciding ? "to-move" : null },
            el("td", { class: "name" }, el("span", { class: "swatch", style: "background:" + COLOURS[s % COLOURS.length] }),
              s + " " + bot, ...this.seatMarks(s), deciding ? el("span", { class: "deciding" }, " ▶ to decide") : null),
            el("td", { class: "running", title: scores ? null : "not shown in this view" }, scores ? String(scores[s]) : "–"));
        })));
    }

    // The scroll hint shows while the board, or a part of it, is wider than its box.
    showHint() {
      const parts = [this.board, ...this.board.querySelectorAll("div, table")];
      this.hint.hidden = !parts.some((e) => e.scrollWidth > e.clientWidth + 1 && /auto|scroll/.test(getComputedStyle(e).overflowX));
    }

    // The end screen: places, then where the scores came from (the game's breakdown: rows of
    // points per seat, summing to the final scores), with each seat's faults and forfeit.
    showResult(final) {
      const d = this.data;
      this.result.hidden = !final;
      this.result.replaceChildren();
      if (!final) return;
      const order = d.bots.map((bot, s) => s).sort((a, b) => d.ranks[a] - d.ranks[b] || a - b);
      const rows = d.breakdown || [["stored score", d.scores]];
      const seats = d.bots.map((bot, s) => s);
      const breakdown = el("table", { id: "breakdown", class: "breakdown" },
        el("caption", {}, "Where the points came from"),
        el("thead", {}, el("tr", {}, el("th", { class: "name" }, ""),
          ...seats.map((s) => el("th", { "data-seat": s, scope: "col" },
            el("span", { class: "swatch", style: "background:" + COLOURS[s % COLOURS.length] }), d.bots[s], ...this.seatMarks(s))))),
        el("tbody", {}, ...rows.map(([label, points]) => el("tr", { class: "part" }, el("th", { class: "name", scope: "row" }, label),
          ...seats.map((s) => el("td", { "data-seat": s }, String(points[s])))))),
        el("tfoot", {},
          el("tr", { class: "total" }, el("th", { class: "name", scope: "row" }, "total"),
            ...seats.map((s) => el("td", { "data-seat": s }, String(d.scores[s])))),
          el("tr", { class: "place" }, el("th", { class: "name", scope: "row" }, "place"),
            ...seats.map((s) => el("td", { "data-seat": s }, ordinal(d.ranks[s]) + (d.forfeited.includes(s) ? " (forfeit)" : ""))))));
      this.result.append(el("h2", {}, d.complete ? "Final result" : "Result (the record ends before the game does)"),
        el("ul", { class: "standings" }, ...order.map((s) => el("li", { "data-seat": s, "data-score": d.scores[s], "data-rank": d.ranks[s] },
          el("span", { class: "swatch", style: "background:" + COLOURS[s % COLOURS.length] }),
          ordinal(d.ranks[s]) + " " + d.bots[s] + ": ", el("strong", { class: "final-score" }, String(d.scores[s])),
          ...this.seatMarks(s),
          d.forfeited.includes(s) ? " — forfeited: ranked last whatever its score" : ""))),
        el("div", { class: "wide" }, breakdown));
    }

    // The kinds of seat s's faults, then "forfeit" if it forfeited, as one marked element (none
    // for a seat without either).
    seatMarks(s) {
      const d = this.data;
      const kinds = [...new Set(d.faults.filter((f) => f[0] === s).map((f) => plain(f[1])))];
      if (d.forfeited.includes(s)) kinds.push("forfeit");
      return kinds.length ? [" ", el("span", { class: "seat-faults", "data-kinds": kinds.join(" ") }, "(" + kinds.join(", ") + ")")] : [];
    }

    // Milliseconds between steps while playing.
    interval() {
      return BASE_MS / this.speed;
    }

    setSpeed(speed) {
      this.speed = SPEEDS.includes(speed) ? speed : 1;
      this.speedSelect.value = String(this.speed);
      if (this.timer !== null) { this.stop(); this.play(); }
    }

    toggle() {
      if (this.timer !== null) { this.stop(); return; }
      if (this.index >= this.data.steps.length - 1) this.show(0);
      this.play();
    }

    play() {
      this.playButton.textContent = "pause";
      this.timer = setInterval(() => {
        if (this.index >= this.data.steps.length - 1) this.stop(); else this.show(this.index + 1);
      }, this.interval());
    }

    stop() {
      if (this.timer !== null) clearInterval(this.timer);
      this.timer = null;
      this.playButton.textContent = "play";
    }
  }

  // A game without its own drawing: every key of the view as text.
  games.generic = function (board, ctx) {
    const table = ctx.el("table", { class: "generic" });
    for (const [key, value] of Object.entries(ctx.base())) {
      table.append(ctx.el("tr", {}, ctx.el("th", {}, ctx.plain(key)), ctx.el("td", {}, JSON.stringify(value))));
    }
    board.append(table);
  };

  // Draw one moment of a game into ``container``: ``pub`` what every seat saw, ``priv[s]`` what
  // seat s saw alone (null: not shown), ``score`` the running scores (null: only what is public),
  // ``seat`` whose view it is (null: the omniscient or public view), ``mover`` the seat deciding
  // next, ``before`` the step before as ``{pub, priv}`` (null or left out: none, as at the deal).
  // ``data`` needs game and bots.
  function draw(container, data, pub, priv, score, seat, mover, before) {
    const renderer = games[data.game] || games.generic;
    const whose = seat === null ? mover || 0 : seat;
    container.replaceChildren();
    renderer(container, {
      data, pub, priv, seat, score, mover: mover || 0, colours: COLOURS, el, svg, plain, describeValue, seatName,
      view: (s) => Object.assign({}, pub, priv[s] || {}),
      base: () => Object.assign({}, pub, priv[whose] || {}),
      before: () => (before ? Object.assign({}, before.pub, before.priv[whose] || {}) : null),
    });
  }

  function load(data) {
    const start = () => {
      const root = document.getElementById("replay");
      window.arenaViewer = new Viewer(root, data);
    };
    if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start); else start();
  }

  return { games, load, draw, el, svg, plain, describeValue, COLOURS };
})();
