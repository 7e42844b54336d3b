// Wongar on the replay viewer: the ten territories with their adjacency; in each, every seat's
// pieces by kind (one row per seat, always in the same place), the majority holder of each kind
// boxed, the ceremony territory outlined; the Ancestor and the Elder, with their last move and the
// pieces placed or removed at this step marked (against ctx.before(), the previous step); the
// stacks and their face-up cards; the Scorpion track with its phases; the players.
// The board is laid out in three rows (3-4-3) on a wide page and turned into three columns on a
// narrow one (a phone), so that it fits the width without shrinking the text out of reading.
"use strict";

(function (R) {
  const DECISIONS = {
    not_started: "setting up",
    setup_place: "place an opening piece",
    take: "take a territory card",
    piece_extra: "place the card's pieces",
    triple: "place the Triple's pieces",
    choose_ritual: "choose ritual cards",
    ancestor_move: "move the Ancestor",
    elder_move: "move the Elder",
    ceremony_play: "play a ritual card in the ceremony",
    ceremony_effect: "carry out the ritual card",
    over: "game over",
  };
  const KINDS = ["Disc", "Cube", "Cylinder"];
  const PLURALS = ["discs", "cubes", "cylinders"];
  const HEADS = ["disc", "cube", "cyl."];
  const BOX_W = 124, GAP = 6, CELL = 28, ROW_H = 15, HEAD_H = 64;
  // Below this width (CSS pixels) the board is drawn in columns instead of rows.
  const NARROW = 560;

  // Setup order is row by row: three territories, four, three. Returns [row, place in row].
  function slot(t) {
    if (t < 3) return [0, t + 0.5];
    if (t < 7) return [1, t - 3];
    return [2, t - 7 + 0.5];
  }

  // The box height fits one piece row per seat.
  function boxHeight(players) {
    return HEAD_H + ROW_H * (players + 1) + 6;
  }

  // The top-left corner of territory t's box; a narrow board swaps rows and columns.
  function corner(t, narrow, boxH) {
    const [row, place] = slot(t);
    const across = place, down = row;
    if (narrow) return [6 + down * (BOX_W + GAP), 6 + across * (boxH + GAP)];
    return [6 + across * (BOX_W + GAP), 6 + down * (boxH + GAP)];
  }

  function centre(t, narrow, boxH) {
    const [x, y] = corner(t, narrow, boxH);
    return [x + BOX_W / 2, y + boxH / 2];
  }

  function pieceShape(svg, kind, x, y, colour, cls) {
    const attrs = { fill: colour, class: cls || null };
    if (kind === 0) return svg("circle", Object.assign({ cx: x, cy: y - 4, r: 4.5 }, attrs));
    if (kind === 1) return svg("rect", Object.assign({ x: x - 4.5, y: y - 8.5, width: 9, height: 9 }, attrs));
    return svg("rect", Object.assign({ x: x - 3, y: y - 10, width: 6, height: 11, rx: 2 }, attrs));
  }

  // The seat holding the majority of each kind on territory t (ties: the first met clockwise from
  // the Ancestor's owner, as the ceremony scores them), or -1 where nobody has a piece of it.
  function majorities(o, t) {
    const players = o.pieces[t].length;
    const first = typeof o.ancestor.owner === "number" ? o.ancestor.owner : 0;
    return KINDS.map((_, k) => {
      let best = -1, most = 0;
      for (let i = 0; i < players; i++) {
        const s = (first + i) % players;
        if (o.pieces[t][s][k] > most) { best = s; most = o.pieces[t][s][k]; }
      }
      return best;
    });
  }

  function ceremonyTerritory(o) {
    const p = o.pending || {};
    return p.decision === "ceremony_play" || p.decision === "ceremony_effect" ? p.territory : null;
  }

  function territory(ctx, o, before, t, narrow, boxH) {
    const { svg, colours, data } = ctx;
    const name = o.territories[t];
    const [x, y] = corner(t, narrow, boxH);
    const ceremony = ceremonyTerritory(o) === name;
    const g = svg("g", { class: "territory" + (ceremony ? " ceremony" : ""), "data-territory": name });
    g.append(svg("rect", { x, y, width: BOX_W, height: boxH, rx: 9, class: "box" }));
    g.append(svg("text", { x: x + 7, y: y + 16, class: "name" }, name));
    if (ceremony) g.append(svg("text", { x: x + 7, y: y + boxH - 5, class: "ceremony-label" }, "ceremony here"));
    const card = o.face_up[t];
    const tookNow = before && before.face_up[t] && !card;
    const shown = card ? card : tookNow ? "taken: " + before.face_up[t] : "no face-up card";
    g.append(svg("text", { x: x + 7, y: y + 33, class: "card" + (tookNow ? " taken-now" : "") + (shown.length > 16 ? " long" : "") },
      svg("title", {}, "the face-up territory card"), shown));
    const under = o.scorpions_under[t] ? " · " + o.scorpions_under[t] + " Scorpion" + (o.scorpions_under[t] > 1 ? "s" : "") + " under" : "";
    const stack = "stack " + o.stack_sizes[t] + under;
    // a long line is squeezed into the box rather than running out of it
    g.append(svg("text", { x: x + 7, y: y + 47, class: "stack", textLength: stack.length > 18 ? BOX_W - 14 : null,
      lengthAdjust: "spacingAndGlyphs" }, svg("title", {}, "face-down cards left in the stack, and Scorpions known to lie at its bottom"), stack));
    // column heads: the piece kinds in words
    KINDS.forEach((kind, k) => {
      g.append(svg("text", { x: x + 30 + CELL * k + CELL / 2, y: y + HEAD_H - 4, "text-anchor": "middle", class: "kind-head", "data-kind": kind },
        svg("title", {}, PLURALS[k]), HEADS[k]));
    });
    const left = x + 30;
    const best = majorities(o, t);
    o.pieces[t].forEach((kinds, s) => {
      const rowY = y + HEAD_H + ROW_H * (s + 1) - 3;
      const has = kinds.some((n) => n > 0);
      const colour = colours[s % colours.length];
      const line = svg("g", { class: "pieces" + (has ? "" : " empty"), "data-seat": s });
      line.append(svg("title", {}, ctx.seatName(s, data.bots) + ": " +
        (has ? kinds.map((n, k) => n ? n + " " + (n === 1 ? PLURALS[k].slice(0, -1) : PLURALS[k]) : "").filter(Boolean).join(", ") : "no pieces")));
      line.append(svg("rect", { x: x + 6, y: rowY - 10, width: 18, height: 13, rx: 3, fill: colour, class: "seat-chip" }),
        svg("text", { x: x + 15, y: rowY, "text-anchor": "middle", class: "seat-number" }, String(s)));
      kinds.forEach((n, k) => {
        const was = before && before.pieces && before.pieces[t] ? before.pieces[t][s][k] : n;
        const cx = left + CELL * k + CELL / 2;
        const change = n > was ? " placed" : n < was ? " removed" : "";
        const major = best[k] === s;
        const cell = svg("g", { class: "cell" + (major ? " majority" : "") + change, "data-kind": KINDS[k] });
        if (major || change) cell.append(svg("rect", { x: cx - CELL / 2 + 1, y: rowY - 11, width: CELL - 2, height: 14, rx: 3, class: "mark" }));
        if (n) cell.append(pieceShape(svg, k, cx - 6, rowY, colour), svg("text", { x: cx + 1, y: rowY, class: "count" }, String(n)));
        if (change) cell.append(svg("title", {}, (n > was ? "placed now: " : "removed now: ") + Math.abs(n - was) + " " + PLURALS[k]));
        line.append(cell);
      });
      g.append(line);
    });
    return g;
  }

  // The Ancestor and the Elder on their territories; a figure that moved at this step leaves a
  // dashed trail from where it stood.
  function figures(ctx, o, before, narrow, boxH) {
    const { svg, colours } = ctx;
    const g = svg("g", { class: "figures" });
    const index = (name) => o.territories.indexOf(name);
    [["ancestor", "A", "Ancestor", 0], ["elder", "E", "Elder", 1]].forEach(([key, mark, label, n]) => {
      const t = index(o[key].territory);
      if (t < 0) return;
      const [x, y] = corner(t, narrow, boxH);
      const fx = x + BOX_W - 13 - 22 * n, fy = y + 13;
      const owner = o[key].owner;
      const from = before && before[key] ? index(before[key].territory) : t;
      const moved = from >= 0 && from !== t;
      if (moved) {
        const [ox, oy] = corner(from, narrow, boxH);
        const px = ox + BOX_W - 13 - 22 * n, py = oy + 13;
        g.append(svg("g", { class: "figure-move " + key, "data-from": o.territories[from], "data-to": o[key].territory },
          svg("line", { x1: px, y1: py, x2: fx, y2: fy }), svg("circle", { cx: px, cy: py, r: 9, class: "ghost" })));
      }
      const title = label + (typeof owner === "number" ? ", held by " + ctx.seatName(owner, ctx.data.bots) : "") + (moved ? ", moved here from " + o.territories[from] : "");
      g.append(svg("g", { class: "figure " + key + (moved ? " moved" : ""), "data-territory": o[key].territory },
        svg("title", {}, title),
        svg("circle", { cx: fx, cy: fy, r: 9, stroke: typeof owner === "number" ? colours[owner % colours.length] : "#555" }),
        svg("text", { x: fx, y: fy + 4, "text-anchor": "middle" }, mark)));
    });
    return g;
  }

  // The last space of each phase, from the match's scorpion_track knob ("5/5/5" by default).
  function phaseEnds(ctx, last) {
    const knob = ctx.data && ctx.data.knobs && ctx.data.knobs.scorpion_track;
    const lengths = typeof knob === "string" ? knob.split("/").map(Number) : [];
    const ends = [];
    lengths.reduce((total, n) => { ends.push(total + n); return total + n; }, 0);
    return ends.length && ends[ends.length - 1] === last ? ends : [last];
  }

  // Spaces 1..last (the Scorpion starts on 1), grouped into phases with a gap between them.
  function track(ctx, o, top, width) {
    const { svg } = ctx;
    const last = o.scorpion.last;
    const ends = phaseEnds(ctx, last);
    const g = svg("g", { class: "scorpion-track", "data-last": last });
    g.append(svg("text", { x: 6, y: top, class: "track-title" }, "Scorpion track: space " + o.scorpion.space + " of " + last +
      ", phase " + o.scorpion.phase));
    if (o.end) g.append(svg("text", { x: width - 6, y: top + 60, "text-anchor": "end", class: "end-note" }, "end triggered (" + o.end + ")"));
    const gap = 8;
    const size = Math.min(30, (width - 12 - gap * (ends.length - 1)) / last);
    let phase = 0;
    for (let i = 1; i <= last; i++) {
      while (i > ends[phase]) phase++;
      const x = 6 + (i - 1) * size + phase * gap;
      const here = i === o.scorpion.space;
      const start = i === 1 || i === ends[phase - 1] + 1;
      if (start) g.append(svg("text", { x, y: top + 16, class: "phase-label" }, "phase " + (phase + 1)));
      g.append(svg("rect", { x, y: top + 21, width: size - 3, height: 20, rx: 3, "data-space": i, "data-phase": phase + 1,
        class: "space phase-" + (phase + 1) + (here ? " here" : "") + (i === ends[phase] ? " phase-end" : "") }));
      g.append(svg("text", { x: x + (size - 3) / 2, y: top + 35, "text-anchor": "middle", class: here ? "marker" : "space-number" }, here ? "S" : String(i)));
    }
    return g;
  }

  function legend(ctx, top) {
    const { svg } = ctx;
    return svg("g", { class: "legend" },
      svg("rect", { x: 6, y: top - 10, width: 16, height: 13, rx: 3, class: "mark majority-key" }),
      svg("text", { x: 26, y: top }, "majority (scores in a ceremony)"),
      svg("rect", { x: 6, y: top + 6, width: 16, height: 13, rx: 3, class: "mark placed-key" }),
      svg("text", { x: 26, y: top + 16 }, "placed now"),
      svg("rect", { x: 100, y: top + 6, width: 16, height: 13, rx: 3, class: "mark removed-key" }),
      svg("text", { x: 120, y: top + 16 }, "removed now"));
  }

  function board(ctx, o, before, narrow) {
    const { svg } = ctx;
    const boxH = boxHeight(o.pieces[0].length);
    const width = narrow ? 12 + 3 * BOX_W + 2 * GAP : 12 + 4 * BOX_W + 3 * GAP;
    const boardH = narrow ? 12 + 4 * boxH + 3 * GAP : 12 + 3 * boxH + 2 * GAP;
    const picture = svg("svg", { viewBox: "0 0 " + width + " " + (boardH + 100), class: "wongar-board" + (narrow ? " narrow" : ""), role: "img",
      "aria-label": "The board: territories, pieces, figures and the Scorpion track" });
    const lines = svg("g", { class: "adjacency" });
    o.neighbours.forEach((near, t) => near.forEach((n) => {
      if (n > t) {
        const [x1, y1] = centre(t, narrow, boxH), [x2, y2] = centre(n, narrow, boxH);
        lines.append(svg("line", { x1, y1, x2, y2 }));
      }
    }));
    picture.append(lines);
    o.territories.forEach((_, t) => picture.append(territory(ctx, o, before, t, narrow, boxH)));
    picture.append(figures(ctx, o, before, narrow, boxH));
    picture.append(track(ctx, o, boardH + 14, width));
    picture.append(legend(ctx, boardH + 74));
    return picture;
  }

  function players(ctx, o) {
    const { el, colours, data, priv, describeValue } = ctx;
    const table = el("table", { class: "players" },
      el("thead", {}, el("tr", {}, el("th", {}, "player"), el("th", {}, "score"), el("th", { title: "discs / cubes / cylinders still in the supply" }, "supply"),
        el("th", {}, "territory cards"), el("th", {}, "ritual cards"), o.figure_cards ? el("th", {}, "figure cards") : null)));
    const body = el("tbody");
    data.bots.forEach((bot, s) => {
      const marks = [];
      if (o.ancestor.owner === s) marks.push("Ancestor");
      if (o.elder.owner === s) marks.push("Elder");
      if (o.boomerang === s) marks.push("starts the round");
      const own = priv[s];
      const score = ctx.score && ctx.score.length ? ctx.score[s] : o.scores[s];
      const hand = own ? describeValue(ctx.view(s).hand) : o.hand_sizes[s] + (o.hand_sizes[s] === 1 ? " card" : " cards") + " (hidden)";
      body.append(el("tr", { "data-seat": s, class: o.to_move.includes(s) ? "to-move" : null },
        el("td", { class: "name" }, el("span", { class: "swatch", style: "background:" + colours[s % colours.length] }), s + " " + bot,
          marks.length ? el("span", { class: "marks" }, " " + marks.join(", ")) : null),
        el("td", { class: "score", "data-label": "score" }, String(score)),
        el("td", { "data-label": "supply (discs / cubes / cylinders)" }, o.supply[s].join(" / ")),
        el("td", { class: "taken", "data-label": "territory cards" }, describeValue(o.taken[s])),
        el("td", { class: "hand", "data-hidden": own ? null : "true", "data-label": "ritual cards" }, hand),
        o.figure_cards ? el("td", { class: "figures", "data-label": "figure cards" }, ["Ancestor", "Elder"].filter((f) => o.figure_cards[s][f]).join(", ") || "played") : null));
    });
    table.append(body);
    const extra = el("p", { class: "note" }, "supply: discs / cubes / cylinders · ritual pile " + o.pile_size + " · discarded: " + describeValue(o.discard) +
      " · Scorpions beside the board " + o.ritual_set_aside);
    return [el("div", { class: "wide" }, table), extra];
  }

  R.games.wongar = function (container, ctx) {
    const base = ctx.base();
    const before = ctx.before ? ctx.before() : null;
    const room = container.clientWidth || window.innerWidth;
    container.append(ctx.el("div", { class: "board-picture" }, board(ctx, base, before, room < NARROW)), ...players(ctx, base));
  };

  R.games["wongar:status"] = function (o, data, help) {
    if (!o.pending) return "";
    const p = o.pending;
    const what = p.decision === "over" ? "Game over" : "To decide: " + help.seatName(p.seat, data.bots) + ", " + (DECISIONS[p.decision] || help.plain(p.decision));
    const more = p.territory ? " (" + p.territory + ")" : "";
    return "Round " + o.round + " · " + what + more;
  };
})(window.ArenaReplay);
