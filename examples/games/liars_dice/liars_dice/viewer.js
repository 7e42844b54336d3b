// Liar's Dice on the replay viewer: each seat's dice (faces only where the chosen view may see
// them), the standing bid and this round's bids, and the latest challenge with every die it
// revealed. Text only: every value reaches the page through the shared el() helper.
"use strict";

(function (R) {
  const SINGULAR = ["", "one", "two", "three", "four", "five", "six"];
  const PLURAL = ["", "ones", "twos", "threes", "fours", "fives", "sixes"];

  function diceWords(n) {
    return n + " " + (n === 1 ? "die" : "dice");
  }

  function bidWords(quantity, face) {
    return quantity + " " + (quantity === 1 ? SINGULAR : PLURAL)[face];
  }

  // The dice as faces; those that count towards ``face`` (ones too when they are wild) marked.
  function faces(el, dice, face, wild) {
    const counts = (d) => d === face || (wild && d === 1);
    return el("span", { class: "faces" }, ...dice.map((d) => el("span", { class: "die" + (counts(d) ? " matching" : "") }, String(d))));
  }

  function seat(ctx, o, s) {
    const { el, colours, data, priv } = ctx;
    const count = o.dice_counts[s];
    const out = o.eliminated.includes(s);
    const visible = priv[s] !== null;
    const mine = visible ? ctx.view(s).dice || [] : null;
    const colour = colours[s % colours.length];
    const score = ctx.score && ctx.score.length
      ? el("span", { class: "score", title: "seats outlasted" }, " outlasted " + ctx.score[s]) : null;
    const dice = out
      ? el("div", { class: "line dice out-note" }, "out (" + (o.eliminated.indexOf(s) + 1) + " of " + o.eliminated.length + " out so far)")
      : el("div", { class: "line dice", "data-hidden": visible ? null : "true" },
          el("span", { class: "what" }, "dice: "),
          visible ? faces(el, mine, null, false) : el("span", { class: "hidden-count" }, diceWords(count) + " (hidden)"));
    return el("section", { class: "player" + (o.to_move === s ? " to-move" : "") + (out ? " out" : ""), "data-seat": s, style: "border-color:" + colour },
      el("h3", {}, el("span", { class: "swatch", style: "background:" + colour }), s + " " + data.bots[s],
        el("span", { class: "dice-count" }, " · " + diceWords(count)), score, o.to_move === s ? " · to act" : ""),
      dice);
  }

  function bids(ctx, o) {
    const { el, data, seatName } = ctx;
    const standing = o.bid
      ? "Standing bid: " + bidWords(o.bid[0], o.bid[1]) + " by " + seatName(o.bidder, data.bots)
      : "No bid yet this round.";
    const history = o.history.length
      ? el("ol", { class: "bid-history" }, ...o.history.map(([s, q, f]) => el("li", { "data-seat": s }, seatName(s, data.bots) + ": " + bidWords(q, f))))
      : el("p", { class: "note" }, "no bids yet in round " + o.round);
    return el("div", { class: "bids" }, el("p", { class: "standing-bid" }, standing), history);
  }

  function challenge(ctx, o) {
    const { el, data, seatName } = ctx;
    const c = o.last_challenge;
    if (!c) return el("p", { class: "last-challenge note" }, "no challenge yet");
    const verdict = c.loser === c.seat ? "the bid stood" : "the bid failed";
    const summary = "Round " + c.round + ": " + seatName(c.seat, data.bots) + " challenged " + seatName(c.bidder, data.bots) +
      "'s " + bidWords(c.quantity, c.face) + "; there " + (c.count === 1 ? "was 1" : "were " + c.count) + ", " + verdict +
      ", and " + seatName(c.loser, data.bots) + " lost a die.";
    const revealed = el("ul", { class: "revealed" }, ...c.dice.map((dice, s) =>
      el("li", { "data-seat": s, class: s === c.loser ? "loser" : "" }, seatName(s, data.bots) + ": ",
        dice.length ? faces(el, dice, c.face, o.variant === "wild-ones") : "no dice", s === c.loser ? " (lost a die)" : "")));
    return el("div", { class: "last-challenge" }, el("p", { class: "summary" }, summary), revealed);
  }

  R.games.liars_dice = function (container, ctx) {
    const o = ctx.base();
    const seats = ctx.el("div", { class: "players-grid" }, ...ctx.data.bots.map((bot, s) => seat(ctx, o, s)));
    container.append(seats, bids(ctx, o), challenge(ctx, o));
  };

  R.games["liars_dice:status"] = function (o, data, help) {
    const turn = typeof o.to_move === "number" ? " · to act: " + help.seatName(o.to_move, data.bots) : "";
    return "Round " + o.round + " · " + help.plain(o.variant) + turn;
  };
})(window.ArenaReplay);
