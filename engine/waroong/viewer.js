// Waroong Wars on the replay viewer: the menu row, the decks, and each player's cooked dishes,
// groceries and customer cards, with the scores.
"use strict";

(function (R) {
  function count(n, one, many) {
    return n + " " + (n === 1 ? one : many);
  }

  function menuRow(ctx, o) {
    const { el, describeValue, plain } = ctx;
    const row = el("div", { class: "menu-row", "aria-label": "The menu row" });
    o.row.forEach(([dish, points, groceries], position) => {
      const serving = o.dish && o.dish.position === position;
      row.append(el("div", { class: "menu-card" + (serving ? " serving" : ""), "data-position": position },
        el("div", { class: "dish" }, dish),
        el("div", { class: "points" }, count(points, "point", "points")),
        el("div", { class: "groceries" }, groceries.map(plain).join(" · ")),
        serving ? el("div", { class: "serving-note" }, "being served" +
          (o.dish.supplements.length ? " with " + o.dish.supplements.join(", ") : "") +
          (o.dish.boss.length ? "; boss: " + o.dish.boss.map(plain).join(", ") : "")) : null));
    });
    const decks = el("p", { class: "decks note" },
      "menu deck " + o.menu_deck + (o.boxed.length ? " · boxed: " + o.boxed.join(", ") : "") +
      " · grocery deck " + o.grocery_deck + " · discarded groceries: " + describeValue(o.grocery_discards) +
      " · customer deck " + o.customer_deck + " · customers used: " + describeValue(o.used_customers).replace(/-/g, " "));
    return [row, decks];
  }

  function player(ctx, o, s) {
    const { el, colours, data, priv, describeValue, plain } = ctx;
    const visible = priv[s] !== null;
    const mine = visible ? ctx.view(s) : null;
    const score = ctx.score && ctx.score.length ? ctx.score[s] : o.menu_points[s];
    const label = ctx.score && ctx.score.length ? "score" : "menu points";
    const cooked = o.cooked[s].length
      ? el("ul", { class: "cooked" }, ...o.cooked[s].map(([dish, sambal, kerupuk]) => el("li", {}, dish +
          (sambal ? " + sambal" : "") + (kerupuk ? " + kerupuk" : ""))))
      : el("p", { class: "note" }, "nothing cooked yet");
    const hidden = (text) => el("span", { class: "hidden-count" }, text + " (hidden)");
    const line = (name, shown, cls) => el("div", { class: "line " + cls, "data-hidden": visible ? null : "true" }, el("span", { class: "what" }, name + ": "), shown);
    const hand = visible ? describeValue(mine.hand) : hidden(count(o.hand_sizes[s], "card", "cards"));
    const picks = visible ? describeValue(mine.picks) + (mine.picked ? " (choosing " + mine.picked + ")" : "") : hidden(count(o.pick_counts[s], "card", "cards"));
    const kept = visible ? (mine.kept || "none") : hidden(count(o.kept_counts[s], "card", "cards"));
    const customers = visible ? plain(describeValue(mine.customers)) : hidden(count(o.customer_counts[s], "card", "cards"));
    const turn = o.turn === s ? " · cooking now" : "";
    return el("section", { class: "player" + (o.turn === s ? " to-move" : ""), "data-seat": s, style: "border-color:" + colours[s % colours.length] },
      el("h3", {}, el("span", { class: "swatch", style: "background:" + colours[s % colours.length] }), s + " " + data.bots[s],
        el("span", { class: "score", title: label }, " " + label + " " + score), turn),
      cooked,
      line("hand", hand, "hand"), line("picked groceries", picks, "picks"), line("kept", kept, "kept"),
      line("customer cards", customers, "customers"));
  }

  R.games.waroong = function (container, ctx) {
    const base = ctx.base();
    const people = ctx.el("div", { class: "players-grid" }, ...ctx.data.bots.map((bot, s) => player(ctx, base, s)));
    container.append(...menuRow(ctx, base), people);
  };

  R.games["waroong:status"] = function (o, data, help) {
    const turn = typeof o.turn === "number" ? " · cooking: " + help.seatName(o.turn, data.bots) : "";
    const security = o.security ? " · security: " + help.plain(o.security.card) + " by seat " + o.security.by : "";
    return "Round " + o.round + " · " + help.plain(o.phase) + turn + security + (o.offer ? " · an offer to decide" : "");
  };
})(window.ArenaReplay);
