// Wongar on the replay viewer: the ten territories with their adjacency, every player's pieces,
// the Ancestor and the Elder, the stacks and their face-up cards, the Scorpion track, the players.
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
  const PIECES = ["discs", "cubes", "cylinders"];
  const W = 150, H = 124, BOX_W = 142, BOX_H = 116;

  // Setup order is row by row: three territories, four, three (the standard board's hexes).
  function centre(t) {
    if (t < 3) return [W * (t + 1), 70];
    if (t < 7) return [W * (t - 3) + W / 2, 70 + H];
    return [W * (t - 6), 70 + 2 * H];
  }

  function pieceShape(svg, kind, x, y, colour) {
    if (kind === 0) return svg("circle", { cx: x + 5, cy: y - 4, r: 5, fill: colour });
    if (kind === 1) return svg("rect", { x, y: y - 9, width: 10, height: 10, fill: colour });
    return svg("rect", { x: x + 2, y: y - 11, width: 6, height: 12, rx: 2, fill: colour });
  }

  function board(ctx, o) {
    const { svg, colours } = ctx;
    const names = o.territories;
    const picture = svg("svg", { viewBox: "0 0 " + (W * 4 + 8) + " " + (H * 3 + 80), class: "wongar-board", role: "img",
      "aria-label": "The board: territories, pieces, figures and the Scorpion track" });
    const lines = svg("g", { class: "adjacency" });
    o.neighbours.forEach((near, t) => near.forEach((n) => {
      if (n > t) {
        const [x1, y1] = centre(t), [x2, y2] = centre(n);
        lines.append(svg("line", { x1, y1, x2, y2 }));
      }
    }));
    picture.append(lines);
    names.forEach((name, t) => {
      const [cx, cy] = centre(t);
      const x = cx - BOX_W / 2, y = cy - BOX_H / 2;
      const g = svg("g", { class: "territory", "data-territory": name });
      g.append(svg("rect", { x, y, width: BOX_W, height: BOX_H, rx: 10, class: "box" }));
      g.append(svg("text", { x: x + 8, y: y + 17, class: "name" }, name));
      const card = o.face_up[t];
      g.append(svg("text", { x: x + 8, y: y + 33, class: "card" }, card || "no card"));
      const under = o.scorpions_under[t] ? " · " + o.scorpions_under[t] + " Scorpion" + (o.scorpions_under[t] > 1 ? "s" : "") : "";
      g.append(svg("text", { x: x + 8, y: y + 47, class: "stack" }, "stack " + o.stack_sizes[t] + under));
      let figure = 0;
      for (const [key, mark] of [["ancestor", "A"], ["elder", "E"]]) {
        if (o[key].territory !== name) continue;
        const owner = o[key].owner;
        const fx = x + BOX_W - 14 - 24 * figure++;
        const title = (key === "ancestor" ? "Ancestor" : "Elder") + (owner === null || owner === undefined ? "" : ", held by seat " + owner);
        g.append(svg("g", { class: "figure " + key },
          svg("title", {}, title),
          svg("circle", { cx: fx, cy: y + 14, r: 10, stroke: owner === null || owner === undefined ? "#555" : colours[owner % colours.length] }),
          svg("text", { x: fx, y: y + 18, "text-anchor": "middle" }, mark)));
      }
      let row = 0;
      o.pieces[t].forEach((kinds, s) => {
        if (!kinds.some((n) => n > 0)) return;
        const py = y + 64 + 13 * row++;
        const colour = colours[s % colours.length];
        const line = svg("g", { class: "pieces", "data-seat": s });
        line.append(svg("title", {}, "seat " + s + ": " + kinds.map((n, k) => n + " " + PIECES[k]).join(", ")));
        kinds.forEach((n, k) => {
          const px = x + 8 + 44 * k;
          line.append(pieceShape(svg, k, px, py, colour), svg("text", { x: px + 13, y: py, class: "count" }, String(n)));
        });
        g.append(line);
      });
      picture.append(g);
    });
    picture.append(track(ctx, o, H * 3 + 40));
    return picture;
  }

  function track(ctx, o, top) {
    const { svg } = ctx;
    const last = o.scorpion.last;
    const g = svg("g", { class: "scorpion-track" });
    g.append(svg("text", { x: 8, y: top - 6 }, "Scorpion track: space " + o.scorpion.space + " of " + last + ", phase " + o.scorpion.phase + (o.end ? " · end triggered (" + o.end + ")" : "")));
    const size = Math.min(26, (W * 4 - 8) / (last + 1));
    for (let i = 0; i <= last; i++) {
      const here = i === o.scorpion.space;
      g.append(svg("rect", { x: 8 + i * size, y: top, width: size - 3, height: 18, class: here ? "space here" : "space" }));
      if (here) g.append(svg("text", { x: 8 + i * size + (size - 3) / 2, y: top + 13, "text-anchor": "middle", class: "marker" }, "S"));
    }
    return g;
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
        el("td", { class: "score" }, String(score)),
        el("td", {}, o.supply[s].join(" / ")),
        el("td", { class: "taken" }, describeValue(o.taken[s])),
        el("td", { class: "hand", "data-hidden": own ? null : "true" }, hand),
        o.figure_cards ? el("td", { class: "figures" }, ["Ancestor", "Elder"].filter((f) => o.figure_cards[s][f]).join(", ") || "played") : null));
    });
    table.append(body);
    const extra = el("p", { class: "note" }, "supply: discs / cubes / cylinders · ritual pile " + o.pile_size + " · discarded: " + describeValue(o.discard) +
      " · Scorpions beside the board " + o.ritual_set_aside);
    return [el("div", { class: "wide" }, table), extra];
  }

  R.games.wongar = function (container, ctx) {
    const base = ctx.base();
    container.append(ctx.el("div", { class: "board-picture" }, board(ctx, base)), ...players(ctx, base));
  };

  R.games["wongar:status"] = function (o, data, help) {
    if (!o.pending) return "";
    const p = o.pending;
    const what = p.decision === "over" ? "Game over" : "To decide: " + help.seatName(p.seat, data.bots) + ", " + (DECISIONS[p.decision] || help.plain(p.decision));
    const more = p.territory ? " (" + p.territory + ")" : "";
    return "Round " + o.round + " · " + what + more;
  };
})(window.ArenaReplay);
