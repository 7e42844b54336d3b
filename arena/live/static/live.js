// The live page: follows the server's event stream and redraws progress, the games in play
// (with the replay viewer's boards), the standings, and the leaderboard when the run is over.
"use strict";

(function (R) {
  const { el } = R;
  const cards = new Map();

  function table(node, head, rows) {
    node.replaceChildren(el("thead", {}, el("tr", {}, ...head.map(([label, cls]) => el("th", cls ? { class: cls } : {}, label)))),
      el("tbody", {}, ...rows.map((cells) => el("tr", {}, ...cells.map(([value, cls]) => el("td", cls ? { class: cls } : {}, String(value)))))));
  }

  function drawGame(game) {
    let card = cards.get(game.id);
    if (!card) {
      card = { node: el("article", { class: "live-game", "data-game": game.id }), board: el("div", { class: "board " + game.game }),
        title: el("h3"), recent: el("ol", { class: "recent" }), count: el("p", { class: "note decisions" }) };
      card.node.append(card.title, card.count, card.board, card.recent);
      cards.set(game.id, card);
    }
    card.title.textContent = game.bots.map((b, s) => s + " " + b).join(" · ");
    card.count.textContent = game.decisions + " decisions" + (game.to_move.length ? " · to move: " + game.to_move.map((s) => game.bots[s]).join(", ") : "");
    card.node.dataset.decisions = String(game.decisions);
    R.draw(card.board, game, game.pub, game.priv, game.score, null, game.to_move.length ? game.to_move[0] : 0);
    card.recent.replaceChildren(...game.recent.map(([seat, label]) => el("li", {}, game.bots[seat] + ": " + label)));
    card.recent.start = Math.max(1, game.decisions - game.recent.length + 1);
    return card.node;
  }

  // A finished game as a result card: its seats by place with scores and fault marks, and the
  // link to its replay (or why there is none yet).
  function resultCard(game) {
    const seats = game.seats.map((s, seat) => Object.assign({ seat }, s)).sort((a, b) => a.rank - b.rank || a.seat - b.seat);
    return el("article", { class: "result-card", "data-game": game.id },
      el("h3", {}, "Game " + (game.table + 1) + "." + (game.deal + 1) + "." + (game.rotation + 1)),
      el("ol", {}, ...seats.map((s) => el("li", { class: s.rank === 1 ? "winner" : null, "data-seat": s.seat, value: s.rank },
        s.bot + ": " + s.score, s.fault_kinds.length ? el("span", { class: "seat-faults" }, " (" + s.fault_kinds.join(", ") + ")") : null))),
      game.replay ? el("a", { class: "watch", href: "games/" + encodeURIComponent(game.id) + ".html" }, "replay")
        : el("span", { class: "note" }, "replay once every seating of this deal is played"));
  }

  // What the runner is doing, from its heartbeat; null once the run is over.
  function runnerLine(view) {
    const r = view.runner;
    if (!r || !view.scheduled || view.stored >= view.scheduled) return null;
    if (r.state === "running") return view.live.length ? "The runner is playing." : "The runner is alive (pid " + r.pid + "), between games.";
    if (r.state === "unresponsive") return "The runner (pid " + r.pid + ") has not been heard from for " + r.quiet + " s.";
    return "No runner is playing: " + (view.scheduled - view.stored) + " games are left; resume the tournament to play them.";
  }

  function show(view) {
    document.getElementById("title").textContent = view.tournament ? view.tournament + " — live" : "Arena live";
    const message = document.getElementById("message");
    message.textContent = view.message || "";
    message.hidden = !view.message;
    const progress = document.getElementById("progress");
    progress.hidden = !view.scheduled;
    if (view.scheduled) {
      document.getElementById("progress-bar").style.width = Math.min(100, 100 * view.stored / view.scheduled) + "%";
      document.getElementById("progress-text").textContent = view.stored + " of " + view.scheduled + " games played" +
        (view.live.length ? " · " + view.live.length + " in play" : "");
    }
    const games = document.getElementById("games");
    const ids = new Set(view.live.map((g) => g.id));
    for (const id of Array.from(cards.keys())) if (!ids.has(id)) { cards.get(id).node.remove(); cards.delete(id); }
    for (const game of view.live) { const node = drawGame(game); if (!node.parentNode) games.append(node); }
    const over = view.scheduled > 0 && view.stored >= view.scheduled;
    if (!view.live.length) games.replaceChildren(el("p", { class: "note" }, over ? "The run is over: all " + view.scheduled + " games are played." : "No game in play right now."));
    else games.querySelectorAll(":scope > p").forEach((p) => p.remove());
    const runner = document.getElementById("runner");
    const line = runnerLine(view);
    runner.hidden = !line;
    runner.textContent = line || "";
    runner.dataset.state = view.runner ? view.runner.state : "";
    const finished = document.getElementById("finished");
    finished.replaceChildren(...(view.finished.length ? view.finished.map(resultCard) : [el("p", { class: "note" }, "No game has finished yet.")]));
    document.getElementById("standings-title").textContent = over ? "Final standings" : "Standings so far";
    table(document.getElementById("standings"),
      [["bot", "name"], ["games"], ["wins"], ["average place"], ["average score"], ["faults"]],
      view.standings.map((s) => [[s.bot, "name"], [s.games], [s.wins], [s.average_place.toFixed(2)], [s.average_score.toFixed(1)], [s.faults]]));
    if (!view.standings.length) {
      document.getElementById("standings").tBodies[0].append(el("tr", {}, el("td", { colspan: 6, class: "name note", id: "no-games" }, "No games yet.")));
    }
    const board = document.getElementById("leaderboard-section");
    board.hidden = !view.leaderboard;
    const top = view.leaderboard && view.leaderboard[0];
    const ladder = !view.scheduled; // a league: its ladder, while it goes on
    document.getElementById("leaderboard-title").textContent = ladder ? "Ladder" : "Final leaderboard";
    document.getElementById("final").textContent = !top ? "" : ladder
      ? "Leading: " + top.bot + " (Elo " + top.elo + ") after " + view.stored + " games; a ? marks a provisional rating."
      : "Winner: " + top.bot + " (Elo " + top.elo + ") after " + view.stored + " games.";
    if (view.leaderboard) {
      table(document.getElementById("leaderboard"), [["rank"], ["bot", "name"], ["Elo"], ["interval"], ["games"], ["score"], ["faults"]],
        view.leaderboard.map((r) => [[r.rank], [r.bot + (r.provisional ? " ?" : ""), "name"], [r.elo], [(r.low === null ? "…" : r.low) + " – " + (r.high === null ? "…" : r.high)],
          [r.games], [r.score === null ? "" : (100 * r.score).toFixed(1) + "%"], [r.faults === null ? "" : r.faults]]));
    }
  }

  const source = new EventSource("events");
  source.addEventListener("view", (event) => show(JSON.parse(event.data)));
  source.addEventListener("error", () => {
    const message = document.getElementById("message");
    message.hidden = false;
    message.textContent = "Connection lost; trying again…";
  });
  window.arenaLive = { show };
})(window.ArenaReplay);
