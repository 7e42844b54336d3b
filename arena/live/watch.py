"""What the live page shows, read afresh from the database and the live folder on each look.

:meth:`Watch.snapshot` is plain JSON-able data: the tournament's progress, the running standings
of the stored games, every game in play with its board (rebuilt through the engine from the live
file's decisions) and its last decisions, the latest finished games as result cards (each with its
replay once every seating of its deal is played), the runner's status from its heartbeat
(:mod:`arena.live.heartbeat`), and the leaderboard once every scheduled game is stored.
"""

from __future__ import annotations

import threading
import time
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from arena.errors import ArenaError
from arena.live.files import SUFFIX, LiveGame, live_folder, read_live
from arena.live.heartbeat import runner_status
from arena.league.book import latest_ratings, league, league_game_ids, league_name, tables
from arena.league.config import label
from arena.league.fit import PROVISIONAL_SD
from arena.league.site import numbered
from arena.rating_input import stored_leaderboard
from arena.site.build import game_summary, replay_files, withheld_replays
from arena.site.frames import game_private_keys, split_views
from arena.site.viewers import Viewer
from arena.store.db import Placement, Store, StoredGame
from arena.tournament.config import config_from_plain
from arena.tournament.display import Tally
from arena.tournament.schedule import build_schedule
from engine.core import EngineError, Game, IllegalAction, MatchConfig, State
from engine.presentation import seat_names
from engine.registry import get_game
from leaderboards.errors import LeaderboardError
from leaderboards.model import RatingSettings

#: How many of a live game's latest decisions the page lists.
RECENT = 8

#: Bootstrap samples for the final leaderboard on the page (the published one uses more).
LIVE_SAMPLES = 200

#: How many finished games the page keeps as result cards, the latest first.
FINISHED = 24


@dataclass
class _Following:
    """A game in play as rebuilt so far: its state, how many decisions it has applied, and a line
    for each (the action, or without ``show_hands`` only what every seat saw of it)."""

    state: State
    game: Game
    applied: int
    labels: list[str]


class Watch:
    """The live view of the tournament ``tournament`` (the only one stored when ``None``) of the
    database ``db``. ``show_hands``: also show every seat's hidden cards (off by default: a
    remote entrant's people may be watching). Safe to call from several threads."""

    def __init__(self, db: Path, tournament: str | None = None, show_hands: bool = False) -> None:
        self.db = db
        self.tournament = tournament
        self.show_hands = show_hands
        self._lock = threading.Lock()
        self._following: dict[str, _Following] = {}
        self._tally: Tally | None = None
        self._tallied = ""
        self._counted: set[str] = set()
        self._board: tuple[int, list[dict[str, Any]]] | None = None
        self._finished: list[tuple[float, dict[str, Any]]] = []  # (stored at, result card)
        self._placements: list[Placement] = []
        self._where: dict[str, str] = {}  # game id → its tournament
        self._tables: dict[str, int] = {}  # a league table's tournament → the table's number
        self._withheld: set[str] = set()  # stored games whose replay waits

    def snapshot(self) -> dict[str, Any]:
        """Everything the page shows now (see the module docstring)."""
        with self._lock:
            return self._look()

    def _look(self) -> dict[str, Any]:
        view: dict[str, Any] = {"time": time.time(), "tournament": None, "live": [], "standings": [],
                                "stored": 0, "scheduled": 0, "leaderboard": None, "message": None,
                                "finished": [], "runner": None}
        if not self.db.exists():
            view["message"] = "waiting for the tournament to start"
            return view
        try:
            with Store(self.db) as store, store.snapshot():  # progress, standings, cards agree
                self._read_store(store, view)
        except (ArenaError, LeaderboardError) as exc:
            view["message"] = str(exc)
        view["live"] = self._live_games(view)
        status = runner_status(live_folder(self.db))
        view["runner"] = {"state": status.state, "pid": status.pid, "quiet": round(status.quiet)}
        return view

    def _read_store(self, store: Store, view: dict[str, Any]) -> None:
        name = self.tournament is None and league_name(store)
        if name:
            self._read_league(store, view, name)
            return
        stored = store.tournaments()
        if not stored:
            view["message"] = "waiting for the tournament to start"
            return
        row = store.tournament(self.tournament if self.tournament is not None or len(stored) == 1 else stored[-1].name)
        config = config_from_plain(row.config, source=f"{store.path}: tournament {row.name!r}")
        scheduled = len(build_schedule(config))
        ids = store.stored_ids(row.name)
        self._take(store, row.name, scheduled, [(row.name, game_id) for game_id in ids])
        self._withheld = withheld_replays(row.config, self._placements, str(store.path))
        self._show(view, row.name, config.game, config.variant, scheduled)
        if ids and len(ids) >= scheduled:
            view["leaderboard"] = self._leaderboard(store, row.name, len(ids))

    def _read_league(self, store: Store, view: dict[str, Any], name: str) -> None:
        """The league ``name``: every stored game of its tables (a table's replays wait until it
        is whole), and its ladder from its latest rating fit, provisional ratings marked."""
        row = league(store, name)
        self._tables = {table.tournament: table.number for table in tables(store, name)}
        stored = league_game_ids(store, name)
        self._take(store, f"league {name}", 0, stored)
        per_table = Counter(tournament for tournament, _ in stored)
        self._withheld = {game_id for tournament, game_id in stored if per_table[tournament] < row.table_size}
        self._show(view, f"league {name}", str(row.template["game"]), row.template.get("variant"), 0)
        view["leaderboard"] = [
            {"rank": rank, "bot": label((r.bot, r.version)), "elo": round(r.elo), "low": round(r.elo - 1.96 * r.sd),
             "high": round(r.elo + 1.96 * r.sd), "games": r.games, "score": None, "faults": None,
             "provisional": r.sd > PROVISIONAL_SD}
            for rank, r in enumerate(sorted(latest_ratings(store, name), key=lambda r: -r.elo), start=1)
        ] or None

    def _take(self, store: Store, name: str, scheduled: int, stored: list[tuple[str, str]]) -> None:
        """Count the games of ``stored`` (tournament and game id) not counted yet, starting afresh
        when ``name`` is not what was counted (a newer tournament took over)."""
        if self._tally is None or self._tallied != name:
            self._tally, self._tallied, self._counted, self._board = Tally(total=scheduled), name, set(), None
            self._finished, self._placements, self._where = [], [], {}
        for tournament, game_id in sorted(stored):
            if game_id in self._counted:
                continue
            game = self._stored(store, game_id, tournament)
            self._tally.add(game.record)
            self._counted.add(game_id)
            self._where[game_id] = tournament
            self._placements.append(game.placement)
            self._finished.append((game.finished, game_summary(game)))
        self._finished.sort(key=lambda f: (-f[0], f[1]["id"]))

    def _stored(self, store: Store, game_id: str, tournament: str) -> StoredGame:
        """Stored game ``game_id`` of ``tournament``, numbered across the league if a league's."""
        game = store.game(game_id, tournament)
        table = self._tables.get(tournament)
        return game if table is None else numbered(game, table)

    def _show(self, view: dict[str, Any], name: str, game: str, variant: str | None, scheduled: int) -> None:
        """The view's progress, result cards and standings from what :meth:`_take` counted."""
        assert self._tally is not None
        view["finished"] = [{**card, "replay": card["id"] not in self._withheld} for _, card in self._finished[:FINISHED]]
        view.update(tournament=name, game=game, variant=variant, stored=len(self._counted), scheduled=scheduled,
                    stored_ids=sorted(self._counted))
        view["standings"] = [
            {"bot": bot, "games": s.games, "wins": s.wins, "average_place": round(s.average_rank, 2),
             "average_score": round(s.score_sum / s.games, 1) if s.games else 0.0, "faults": s.flagged}
            for bot, s in self._tally.ordered()
        ]

    def replay(self, game_id: str, viewers: Mapping[str, Viewer]) -> tuple[str, str] | None:
        """The replay page and data script of stored game ``game_id`` (see
        :func:`arena.site.build.replay_files`), or ``None`` while it is not stored or its deal is
        still to be played in another seating (its replay would show hidden cards too early)."""
        with self._lock:
            if game_id not in self._counted or game_id in self._withheld:
                return None
            number = 1 + [p.game_id for p in self._placements].index(game_id)
            tournament = self._where[game_id]
            try:
                with Store(self.db) as store:
                    return replay_files(self._stored(store, game_id, tournament), number, tournament, viewers)
            except (ArenaError, LeaderboardError):
                return None

    def _leaderboard(self, store: Store, tournament: str, stored: int) -> list[dict[str, Any]]:
        if self._board is None or self._board[0] != stored:
            board = stored_leaderboard(store, tournament, RatingSettings(bootstrap_samples=LIVE_SAMPLES))
            self._board = (stored, [
                {"rank": s.rank, "bot": s.bot, "elo": round(s.elo), "low": None if s.ci_low is None else round(s.ci_low),
                 "high": None if s.ci_high is None else round(s.ci_high), "games": s.games,
                 "score": round(s.score, 3), "faults": s.faults}
                for s in board.standings
            ])
        return self._board[1]

    def _live_games(self, view: dict[str, Any]) -> list[dict[str, Any]]:
        folder = live_folder(self.db)
        stored = set(view.get("stored_ids", ()))
        view.pop("stored_ids", None)
        shown: list[dict[str, Any]] = []
        seen: set[str] = set()
        for path in sorted(folder.glob(f"*{SUFFIX}")) if folder.is_dir() else []:
            live = read_live(path)
            if live is None or str(live.header["id"]) in stored:
                continue
            game = self._follow(live)
            if game is not None:
                seen.add(str(live.header["id"]))
                shown.append(game)
        for gone in set(self._following) - seen:
            del self._following[gone]
        return shown

    def _follow(self, live: LiveGame) -> dict[str, Any] | None:
        header = live.header
        game_id = str(header["id"])
        bots = [str(b) for b in header["bots"]]
        following = self._following.get(game_id)
        if following is None or following.applied > len(live.decisions):
            try:
                game = get_game(f"{header['game']}@{header['version']}")
                config = MatchConfig(str(header["game"]), int(header["version"]), str(header["variant"]),
                                     len(bots), dict(header.get("knobs", {})))
                following = _Following(game.start(config, int(header["seed"])), game, 0, [])
            except (EngineError, ValueError, TypeError):
                return None
            self._following[game_id] = following
        state, presentation, names = following.state, following.game.presentation(), seat_names(bots)
        for seat, action, ms, fallback in live.decisions[following.applied:]:
            label = presentation.action_text(state, seat, action)
            seen = len(state.log)
            try:
                state.apply_checked(seat, action)
            except IllegalAction:
                return None
            following.applied += 1
            if not self.show_hands:  # a choice may be secret (a draft pick): say what all seats saw
                label = "; ".join(
                    presentation.event_text(e.data, names) for e in state.log[seen:] if e.seats is None
                ) or "decided"
            following.labels.append(f"{label} ({'referee' if fallback else f'{ms:.0f} ms'})")
        # Keys the game keeps private stay out of the public channel even when the seats' values
        # happen to be alike now: without --show-hands the page must not receive them at all.
        public, private = split_views([state.observation(s) for s in range(len(bots))],
                                      game_private_keys(following.game, state.config))
        recent = [
            [seat, following.labels[i]] for i, (seat, _, _, _) in enumerate(live.decisions[:following.applied])
        ][-RECENT:]
        return {
            "id": game_id, "game": header["game"], "variant": header["variant"], "bots": bots,
            "decisions": following.applied, "pub": public,
            "priv": private if self.show_hands else [None] * len(bots),
            "score": presentation.running_scores(state) if self.show_hands else None,
            "recent": recent, "to_move": list(state.to_move()),
        }
