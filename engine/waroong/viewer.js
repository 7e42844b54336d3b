// Waroong Wars on the replay viewer: the menu row, the decks, and each player's cooked dishes,
// groceries and customer cards, with the scores. What changed at this step (against ctx.before(),
// the previous step) is marked: the dish just cooked, the menus just opened, the lines of a player
// whose picks, kept grocery or customer cards just changed. Street Vendor has no customer cards,
// so it shows none of their lines.
"use strict";

(function (R) {
  function count(n, one, many) {
    return n + " " + (n === 1 ? one : many);
  }

  function hasCustomers(o) {
    return o.mode !== "street-vendor";
  }

  function menuRow(ctx, o, before) {
    const { el, describeValue, plain } = ctx;
    const row = el("div", { class: "menu-row", "aria-label": "The menu row" });
    // Cooking or a new round opens menus at the left end: as many as the deck lost.
    const opened = before && typeof before.menu_deck === "number" ? Math.max(0, before.menu_deck - o.menu_deck) : 0;
    o.row.forEach(([dish, points, groceries], position) => {
      const serving = o.dish && o.dish.position === position;
      const fresh = position < opened;
      row.append(el("div", { class: "menu-card" + (serving ? " serving" : "") + (fresh ? " just-opened" : ""), "data-position": position },
        el("div", { class: "dish" }, dish),
        el("div", { class: "points" }, count(points, "point", "points")),
        el("div", { class: "groceries" }, groceries.map(plain).join(" · ")),
        fresh ? el("div", { class: "fresh-note" }, "just opened") : null,
        serving ? el("div", { class: "serving-note" }, "being served" +
          (o.dish.supplements.length ? " with " + o.dish.supplements.join(", ") : "") +
          (o.dish.boss.length ? "; boss: " + o.dish.boss.map(plain).join(", ") : "")) : null));
    });
    const customers = hasCustomers(o)
      ? " · customer deck " + o.customer_deck + " · customers used: " + describeValue(o.used_customers).replace(/-/g, " ")
      : "";
    const decks = el("p", { class: "decks note" },
      "menu deck " + o.menu_deck + (o.boxed.length ? " · boxed: " + o.boxed.join(", ") : "") +
      " · grocery deck " + o.grocery_deck + " · discarded groceries: " + describeValue(o.grocery_discards) + customers);
    return [row, decks];
  }

  // Whether seat s's public count under ``key`` changed since the previous step.
  function changed(o, before, key, s) {
    return Boolean(before && before[key] && before[key][s] !== o[key][s]);
  }

  function player(ctx, o, before, s) {
    const { el, colours, data, priv, describeValue, plain } = ctx;
    const visible = priv[s] !== null;
    const mine = visible ? ctx.view(s) : null;
    const score = ctx.score && ctx.score.length ? ctx.score[s] : o.menu_points[s];
    const label = ctx.score && ctx.score.length ? "score" : "menu points";
    const cookedBefore = before && before.cooked ? before.cooked[s].length : o.cooked[s].length;
    const cooked = o.cooked[s].length
      ? el("ul", { class: "cooked" }, ...o.cooked[s].map(([dish, sambal, kerupuk], i) => el("li", { class: i >= cookedBefore ? "just-cooked" : null },
          dish + (sambal ? " + sambal" : "") + (kerupuk ? " + kerupuk" : ""), i >= cookedBefore ? el("span", { class: "fresh-note" }, " just cooked") : null)))
      : el("p", { class: "note" }, "nothing cooked yet");
    const hidden = (text) => el("span", { class: "hidden-count" }, text + " (hidden)");
    const line = (name, shown, cls, fresh) => el("div", { class: "line " + cls + (fresh ? " just-changed" : ""), "data-hidden": visible ? null : "true" },
      el("span", { class: "what" }, name + ": "), shown);
    const hand = visible ? describeValue(mine.hand) : hidden(count(o.hand_sizes[s], "card", "cards"));
    const picks = visible ? describeValue(mine.picks) + (mine.picked ? " (choosing " + mine.picked + ")" : "") : hidden(count(o.pick_counts[s], "card", "cards"));
    const kept = visible ? (mine.kept || "none") : hidden(count(o.kept_counts[s], "card", "cards"));
    const customers = hasCustomers(o)
      ? line("customer cards", visible ? plain(describeValue(mine.customers)) : hidden(count(o.customer_counts[s], "card", "cards")),
        "customers", changed(o, before, "customer_counts", s))
      : null;
    const turn = o.turn === s ? " · cooking now" : "";
    return el("section", { class: "player" + (o.turn === s ? " to-move" : ""), "data-seat": s, style: "border-color:" + colours[s % colours.length] },
      el("h3", {}, el("span", { class: "swatch", style: "background:" + colours[s % colours.length] }), s + " " + data.bots[s],
        el("span", { class: "score", title: label }, " " + label + " " + score), turn),
      cooked,
      line("hand", hand, "hand", false), line("picked groceries", picks, "picks", changed(o, before, "pick_counts", s)),
      line("kept", kept, "kept", changed(o, before, "kept_counts", s)), customers);
  }

  R.games.waroong = function (container, ctx) {
    const base = ctx.base();
    const before = ctx.before ? ctx.before() : null;
    const people = ctx.el("div", { class: "players-grid" }, ...ctx.data.bots.map((bot, s) => player(ctx, base, before, s)));
    container.append(...menuRow(ctx, base, before), people);
  };

  R.games["waroong:status"] = function (o, data, help) {
    const turn = typeof o.turn === "number" ? " · cooking: " + help.seatName(o.turn, data.bots) : "";
    const security = o.security ? " · security: " + help.plain(o.security.card) + " by seat " + o.security.by : "";
    return "Round " + o.round + " · " + help.plain(o.phase) + turn + security + (o.offer ? " · an offer to decide" : "");
  };
})(window.ArenaReplay);
