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

  class Viewer {
    constructor(root, data) {
      this.root = root;
      this.data = data;
      this.players = data.bots.length;
      this.seat = null;
      this.index = 0;
      this.timer = null;
      this.faultsAt = new Map();
      for (const fault of data.faults) {
        const ply = fault[2];
        if (!this.faultsAt.has(ply)) this.faultsAt.set(ply, []);
        this.faultsAt.get(ply).push(fault);
      }
      this.reset();
      this.build();
      const wanted = new URLSearchParams(location.hash.slice(1));
      if (wanted.has("seat")) this.setSeat(wanted.get("seat"));
      this.show(wanted.has("step") ? Number(wanted.get("step")) : 0);
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
      heading.textContent = "Game " + (d.about.number || "") + ": " + d.game + " (" + plain(d.variant) + ")";
      const who = el("p", { class: "note", id: "players" },
        ...d.bots.flatMap((bot, s) => [s ? " · " : "", el("span", { class: "player-name", "data-seat": s },
          "seat " + s + ": " + bot, ...this.seatMarks(s))]),
        d.about.table !== undefined ? " · table " + (d.about.table + 1) + ", deal " + (d.about.deal + 1) + ", rotation " + (d.about.rotation + 1) : "");
      const view = el("select", { id: "view", "aria-label": "Whose view" },
        el("option", { value: "" }, "Everything (omniscient)"),
        ...d.bots.map((bot, s) => el("option", { value: String(s) }, "As seat " + s + " (" + bot + ") saw it")));
      view.addEventListener("change", () => { this.setSeat(view.value); this.show(this.index); });
      this.viewSelect = view;
      const button = (id, label, title, action) => {
        const b = el("button", { id, type: "button", title, "aria-label": title }, label);
        b.addEventListener("click", action);
        return b;
      };
      this.playButton = button("play", "play", "Play / pause (space)", () => this.toggle());
      this.scrub = el("input", { id: "scrub", type: "range", min: 0, max: d.steps.length - 1, value: 0, "aria-label": "Step" });
      this.scrub.addEventListener("input", () => { this.stop(); this.show(Number(this.scrub.value)); });
      this.position = el("span", { id: "position", class: "position" });
      const controls = el("div", { class: "controls" },
        button("first", "«", "First step (Home)", () => { this.stop(); this.show(0); }),
        button("back", "‹", "Step back (←)", () => { this.stop(); this.show(this.index - 1); }),
        this.playButton,
        button("forward", "›", "Step forward (→)", () => { this.stop(); this.show(this.index + 1); }),
        button("last", "»", "Last step (End)", () => { this.stop(); this.show(d.steps.length - 1); }),
        this.scrub, this.position);
      this.status = el("p", { id: "status", class: "status" });
      this.board = el("div", { id: "board", class: "board " + d.game });
      this.result = el("div", { id: "result", class: "result", hidden: true });
      this.happened = el("ul", { id: "happened", class: "happened" });
      this.log = el("ol", { id: "log", class: "log", start: 1 });
      this.root.append(who, el("div", { class: "toolbar" }, view, controls), this.status, this.result, this.board,
        el("div", { class: "columns" },
          el("section", {}, el("h2", {}, "What happened"), this.happened),
          el("section", {}, el("h2", {}, "Decisions"), this.log)));
      document.addEventListener("keydown", (e) => this.key(e));
      this.fillLog();
    }

    key(e) {
      if (e.target instanceof HTMLSelectElement || e.altKey || e.ctrlKey || e.metaKey) return;
      const moves = { ArrowLeft: this.index - 1, ArrowRight: this.index + 1, Home: 0, End: this.data.steps.length - 1 };
      if (e.key in moves) { e.preventDefault(); this.stop(); this.show(moves[e.key]); }
      else if (e.key === " ") { e.preventDefault(); this.toggle(); }
    }

    setSeat(value) {
      const seat = value === "" || value === null ? null : Number(value);
      this.seat = seat !== null && seat >= 0 && seat < this.players ? seat : null;
      this.viewSelect.value = this.seat === null ? "" : String(this.seat);
      this.fillLog();
    }

    // The decision log as this view saw it: another seat's choice shows only that it decided, and
    // its info stays hidden (it may speak of its cards).
    fillLog() {
      const d = this.data;
      this.log.replaceChildren();
      const early = this.faultsAt.get(-1);
      if (early) this.log.append(this.faultItem(early, -1));
      d.log.forEach(([seat, label, ms, info, fallback], ply) => {
        const own = this.seat === null || this.seat === seat;
        const faults = this.faultsAt.get(ply) || [];
        const item = el("li", { "data-ply": ply, "data-seat": seat, class: (fallback || faults.length ? "fault " : "") + "seat-" + seat },
          el("span", { class: "who", style: "border-color:" + COLOURS[seat % COLOURS.length] }, seatName(seat, d.bots)),
          ": ", own ? label : "decided",
          el("span", { class: "ms" }, fallback ? " referee's fallback" : " " + ms + " ms"));
        for (const fault of faults) {
          if (own || this.seat === null) item.append(el("div", { class: "fault-detail" }, plain(fault[1]) + " (" + seatName(fault[0], d.bots) + "): " + fault[3]));
          else item.append(el("div", { class: "fault-detail" }, plain(fault[1]) + " (" + seatName(fault[0], d.bots) + ")"));
        }
        if (own && info !== null && info !== undefined) item.append(el("pre", { class: "info" }, JSON.stringify(info)));
        this.log.append(item);
      });
    }

    faultItem(faults, ply) {
      return el("li", { class: "fault", "data-ply": ply },
        ...faults.map((f) => el("div", { class: "fault-detail" }, plain(f[1]) + " (" + seatName(f[0], this.data.bots) + ") before the first decision: " + f[3])));
    }

    show(target) {
      const last = this.data.steps.length - 1;
      const index = Math.max(0, Math.min(last, Number.isFinite(target) ? Math.floor(target) : 0));
      if (index < this.cursor) this.reset();
      while (this.cursor < index) this.advance();
      this.index = index;
      this.scrub.value = String(index);
      this.position.textContent = index === 0 ? "the deal" : "decision " + index + " of " + this.data.log.length;
      const visible = (s) => this.seat === null || this.seat === s;
      draw(this.board, this.data, this.pub, this.priv.map((p, s) => (visible(s) ? p : null)),
        this.seat === null ? this.score : null, this.seat, this.mover());
      this.showHappened();
      this.showStatus();
      this.showResult(index === last);
      for (const item of this.log.querySelectorAll(".current")) item.classList.remove("current");
      const current = this.log.querySelector('li[data-ply="' + (index - 1) + '"]');
      if (current) {
        current.classList.add("current");
        const box = this.log;
        const top = current.offsetTop - box.offsetTop;
        if (top < box.scrollTop || top > box.scrollTop + box.clientHeight - current.offsetHeight) box.scrollTop = top - box.clientHeight / 2;
      }
      const hash = (this.seat === null ? "" : "seat=" + this.seat + "&") + "step=" + index;
      try { history.replaceState(null, "", "#" + hash); } catch (err) { /* a page that may not change its address */ }
    }

    // The step's events in the game's own words (arena/site/frames.py); the omniscient view says
    // who saw a private one.
    showHappened() {
      this.happened.replaceChildren();
      const seat = this.seat;
      for (const [seats, text] of this.events) {
        if (seat !== null && seats !== null && !seats.includes(seat)) continue;
        if (seats === null) {
          this.happened.append(el("li", {}, text));
        } else {
          const seen = seat === null ? " (seen by " + seats.map((s) => seatName(s, this.data.bots)).join(", ") + ")" : "";
          this.happened.append(el("li", { class: "private" }, text + seen));
        }
      }
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

    showResult(final) {
      const d = this.data;
      this.result.hidden = !final;
      this.result.replaceChildren();
      if (!final) return;
      const order = d.bots.map((bot, s) => s).sort((a, b) => d.ranks[a] - d.ranks[b] || a - b);
      this.result.append(el("h2", {}, d.complete ? "Final result" : "Result (the record ends before the game does)"),
        el("ul", { class: "standings" }, ...order.map((s) => el("li", { "data-seat": s, "data-score": d.scores[s], "data-rank": d.ranks[s] },
          el("span", { class: "swatch", style: "background:" + COLOURS[s % COLOURS.length] }),
          ordinal(d.ranks[s]) + " " + d.bots[s] + ": ", el("strong", { class: "final-score" }, String(d.scores[s])),
          ...this.seatMarks(s),
          d.forfeited.includes(s) ? " — forfeited: ranked last whatever its score" : ""))));
    }

    // The kinds of seat s's faults, then "forfeit" if it forfeited, as one marked element (none
    // for a seat without either).
    seatMarks(s) {
      const d = this.data;
      const kinds = [...new Set(d.faults.filter((f) => f[0] === s).map((f) => plain(f[1])))];
      if (d.forfeited.includes(s)) kinds.push("forfeit");
      return kinds.length ? [" ", el("span", { class: "seat-faults", "data-kinds": kinds.join(" ") }, "(" + kinds.join(", ") + ")")] : [];
    }

    toggle() {
      if (this.timer !== null) { this.stop(); return; }
      if (this.index >= this.data.steps.length - 1) this.show(0);
      this.playButton.textContent = "pause";
      this.timer = setInterval(() => {
        if (this.index >= this.data.steps.length - 1) this.stop(); else this.show(this.index + 1);
      }, 350);
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
  // next. ``data`` needs game and bots.
  function draw(container, data, pub, priv, score, seat, mover) {
    const renderer = games[data.game] || games.generic;
    container.replaceChildren();
    renderer(container, {
      data, pub, priv, seat, score, mover: mover || 0, colours: COLOURS, el, svg, plain, describeValue, seatName,
      view: (s) => Object.assign({}, pub, priv[s] || {}),
      base: () => Object.assign({}, pub, priv[seat === null ? mover || 0 : seat] || {}),
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
