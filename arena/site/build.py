"""Write the published site of a stored tournament.

Layout of ``out``::

    index.html            the leaderboard (plus leaderboard.md and leaderboard.json)
    games.html            every game, filterable by bot and by fault
    bots/<bot>.html       a bot: rating over the tournament, head to head, its games
    games/<id>.html       the replay viewer of one game (a few hundred bytes)
    games/<id>.js         that game's replay data (see :mod:`arena.site.frames`)
    static/               the viewer's code and the style sheet, shared by every page, and
                          each game's own viewer (see :mod:`arena.site.viewers`)

Every page works from ``file://``: no server, no request to anything outside ``out``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from importlib import resources
from pathlib import Path
from typing import Any

from arena.rating_input import rated_game, stored_leaderboard
from arena.record import MatchRecord
from arena.site.frames import replay_data
from arena.site.names import file_stem
from arena.site.pages import render_page
from arena.site.privacy import public_bots, public_settings
from arena.site.progress import rating_history
from arena.site.viewers import Viewer, viewer_of
from arena.store.db import Placement, StoredGame, Store
from arena.tournament.config import config_from_plain
from arena.tournament.schedule import build_schedule
from engine.core import EngineError
from engine.registry import get_game
from leaderboards.errors import LeaderboardError
from leaderboards.model import Leaderboard, RatingSettings
from leaderboards.publish import publish

#: The shared files every page loads, from this package's ``static`` folder.
STATIC_FILES = ("site.css", "replay.js", "games.js")

_GAME_ID = re.compile(r"^[A-Za-z0-9._-]{1,80}$")


@dataclass(frozen=True, slots=True)
class SiteReport:
    """What was written: the folder, how many replays, their data size in bytes, and how many
    games are stored (replays of deals still being played wait: see :func:`withheld_replays`)."""

    out: Path
    games: int
    bots: int
    replay_bytes: int
    stored: int

    @property
    def bytes_per_game(self) -> int:
        """Average size of one game's replay data file."""
        return self.replay_bytes // self.games if self.games else 0


def private_board(board: Leaderboard, include_commands: bool) -> Leaderboard:
    """``board`` with its tournament settings fit to publish (:func:`public_settings`; the master
    seed waits while the board is provisional)."""
    if board.tournament is None:
        return board
    settings = public_settings(board.tournament.settings, include_commands, board.provisional)
    return replace(board, tournament=replace(board.tournament, settings=settings))


def build_site(
    store: Store,
    out: Path,
    tournament: str | None = None,
    settings: RatingSettings = RatingSettings(),
    include_commands: bool = False,
) -> SiteReport:
    """Write the whole site of ``tournament`` (the only one stored when ``None``) into ``out``,
    from one snapshot of the store (:meth:`Store.snapshot`: a run storing games meanwhile cannot
    make the pages disagree). With no game stored yet, ``index.html`` says so and the games list
    is empty.

    Raises :class:`LeaderboardError` when ``out`` cannot be written, the store's error for an
    unknown tournament, and :class:`arena.tournament.TournamentError` for a stored game that does
    not replay.
    """
    with store.snapshot():
        row = store.tournament(tournament)
        everything = store.games(row.name)
        bots = public_bots(store.bots(row.name), include_commands)
        board = (
            private_board(stored_leaderboard(store, row.name, settings, everything), include_commands)
            if everything
            else None
        )
    withheld = withheld_replays(row.config, [g.placement for g in everything], str(store.path))
    return write_site(out, row.name, everything, bots, board, withheld)


def write_site(
    out: Path,
    name: str,
    everything: Sequence[StoredGame],
    bots: Sequence[Mapping[str, Any]],
    board: Leaderboard | None,
    withheld: set[str],
) -> SiteReport:
    """Write the site of ``name`` into ``out``: its games (the replays of ``withheld`` ones wait),
    its public ``bots`` and ``board`` (``None`` before any game). Raises
    :class:`LeaderboardError` when ``out`` cannot be written."""
    games = [g for g in everything if g.placement.game_id not in withheld]
    names = sorted({b for g in games for b in g.record.bots} | {b["name"] for b in bots})
    stems = {name: file_stem(name) for name in names}
    try:
        for folder in ("bots", "games", "static"):
            (out / folder).mkdir(parents=True, exist_ok=True)
        if board is None:
            _write(out / "index.html", render_page(
                "waiting.html.j2", root="", title=f"{name}: leaderboard", tournament=name, bots=names,
            ))
        else:
            publish(board, out, bot_pages={n: f"bots/{s}.html" for n, s in stems.items()})
        _copy_static(out / "static")
        viewers = _write_viewers(games, out / "static")
        replay_bytes = _write_replays(games, out / "games", name, viewers)
        _write(out / "games.html", render_page(
            "games.html.j2", root="", title=f"{name}: games",
            games=[game_summary(g, g in games) for g in everything], withheld=len(withheld),
            bots=names, stems=stems, faults=_fault_kinds(games),
        ))
        if board is not None:
            _write_bot_pages(out / "bots", board, everything, bots, withheld, stems, name)
    except OSError as exc:
        raise LeaderboardError(f"cannot write the site to {out}: {exc.strerror or exc}") from None
    return SiteReport(out, len(games), len(names), replay_bytes, len(everything))


def _write_bot_pages(
    folder: Path,
    board: Leaderboard,
    everything: Sequence[StoredGame],
    bots: Sequence[Mapping[str, Any]],
    withheld: set[str],
    stems: Mapping[str, str],
    tournament: str,
) -> None:
    """A page per bot: its rating over the tournament, head to head, its games."""
    history = rating_history([rated_game(g.record) for g in everything])
    by_name = {b["name"]: b for b in bots}
    for name, stem in stems.items():
        _write(folder / f"{stem}.html", _bot_page(
            name, by_name.get(name, {"name": name}), board, everything, withheld, history, stems, tournament,
        ))


def _write(path: Path, text: str) -> None:
    path.write_text(text, encoding="utf-8")


def _copy_static(folder: Path) -> None:
    source = resources.files("arena.site") / "static"
    for name in STATIC_FILES:
        (folder / name).write_text((source / name).read_text(encoding="utf-8"), encoding="utf-8")


def _write_viewers(games: Sequence[StoredGame], folder: Path) -> dict[str, Viewer]:
    """Each published game's own viewer files into ``folder``; the viewers by game key (a game the
    registry no longer knows gets none here, and its replay says why)."""
    viewers: dict[str, Viewer] = {}
    for key in sorted({f"{g.record.game}@{g.record.version}" for g in games}):
        try:
            viewers[key] = viewer_of(get_game(key))
        except EngineError:
            continue
        for name, text in viewers[key].files.items():
            _write(folder / name, text)
    return viewers


def _script_json(data: Any) -> str:
    """JSON safe inside a script file or element: no ``</script>``, no line separators raw."""
    text = json.dumps(data, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    return text.replace("<", "\\u003c").replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")


def _write_replays(
    games: Sequence[StoredGame], folder: Path, tournament: str, viewers: Mapping[str, Viewer]
) -> int:
    """One data file and one small page per game, loading its game's viewer from ``viewers`` by
    game key; returns the data files' total size."""
    total = 0
    for index, stored in enumerate(games):
        game_id = stored.placement.game_id
        page, script = replay_files(
            stored, index + 1, tournament, viewers,
            games[index - 1].placement.game_id if index > 0 else None,
            games[index + 1].placement.game_id if index + 1 < len(games) else None,
        )
        (folder / f"{game_id}.js").write_text(script, encoding="utf-8")
        total += len(script.encode())
        _write(folder / f"{game_id}.html", page)
    return total


def replay_files(
    stored: StoredGame,
    number: int,
    tournament: str,
    viewers: Mapping[str, Viewer],
    previous: str | None = None,
    next_game: str | None = None,
) -> tuple[str, str]:
    """Game number ``number``'s replay: its page (``games/<id>.html``, loading its game's viewer
    from ``viewers`` by game key and ``../static/``) and its data script (``games/<id>.js``)."""
    game_id = stored.placement.game_id
    if not _GAME_ID.match(game_id):
        raise LeaderboardError(f"game id {game_id!r} cannot be a file name")
    about = {
        "tournament": tournament,
        "table": stored.placement.table,
        "deal": stored.placement.deal,
        "rotation": stored.placement.rotation,
        "number": number,
    }
    script = f"ArenaReplay.load({_script_json(replay_data(stored.record, game_id, about))});\n"
    page = render_page(
        "replay.html.j2", root="../", title=f"{tournament}: game {game_id}", game_id=game_id,
        previous=previous, next=next_game, viewer=viewers.get(f"{stored.record.game}@{stored.record.version}"),
    )
    return page, script


def withheld_replays(config: Mapping[str, Any], placements: Sequence[Placement], source: str) -> set[str]:
    """The ids of the stored games (their ``placements``) whose deal is still to be played in
    another seating: their replays would show the deal's hidden cards to bots that have yet to
    play it, so they wait (here and on the live page)."""
    schedule = build_schedule(config_from_plain(config, source=f"{source}: stored config"))
    stored = {p.game_id for p in placements}
    open_deals = {(g.table, g.deal) for g in schedule if g.id not in stored}
    return {p.game_id for p in placements if (p.table, p.deal) in open_deals}


def _fault_kinds(games: Sequence[StoredGame]) -> list[str]:
    return sorted({f.kind.value for g in games for f in g.record.faults} | (
        {"forfeit"} if any(g.record.forfeited for g in games) else set()
    ))


def _seat_fault_kinds(record: MatchRecord, seat: int) -> list[str]:
    """The kinds of ``seat``'s faults in ``record``, in first-seen order, then ``forfeit`` if it
    forfeited."""
    kinds = list(dict.fromkeys(f.kind.value for f in record.faults if f.seat == seat))
    return kinds + (["forfeit"] if seat in record.forfeited else [])


def game_summary(stored: StoredGame, replay: bool = True) -> dict[str, Any]:
    """A games-list row: id, seats with score and place, fault kinds, decisions, and whether its
    replay is published."""
    record = stored.record
    kinds = sorted({f.kind.value for f in record.faults} | ({"forfeit"} if record.forfeited else set()))
    marks = [(seat, _seat_fault_kinds(record, seat)) for seat in range(len(record.bots))]
    return {
        "id": stored.placement.game_id,
        "table": stored.placement.table,
        "deal": stored.placement.deal,
        "rotation": stored.placement.rotation,
        "game": f"{record.game} {record.variant}",
        "seats": [
            {"bot": bot, "score": score, "rank": rank, "forfeited": seat in record.forfeited,
             "faults": sum(1 for f in record.faults if f.seat == seat), "fault_kinds": marks[seat][1]}
            for seat, (bot, score, rank) in enumerate(zip(record.bots, record.scores, record.ranks))
        ],
        "faults": kinds,
        "whose": [f"{', '.join(k)}: {record.bots[seat]} (seat {seat})" for seat, k in marks if k],
        "decisions": len(record.decisions),
        "replay": replay,
    }


def _bot_page(
    name: str,
    bot: Mapping[str, Any],
    board: Leaderboard,
    games: Sequence[StoredGame],
    withheld: set[str],
    history: Sequence[tuple[int, Mapping[str, float]]],
    stems: Mapping[str, str],
    tournament: str,
) -> str:
    standing = next((s for s in board.standings if s.bot == name), None)
    meetings = [m for m in board.head_to_head if m.bot == name]
    played = [game_summary(g, g.placement.game_id not in withheld) for g in games if name in g.record.bots]
    line = [(count, ratings[name]) for count, ratings in history if name in ratings]
    return render_page(
        "bot.html.j2", root="../", title=f"{tournament}: {name}", name=name, bot=bot,
        standing=standing, meetings=meetings, games=played, chart=_line_chart(line, len(games)),
        stems=stems, faults=next((f for f in board.faults if f.bot == name), None),
    )


@dataclass(frozen=True, slots=True)
class LineChart:
    """A rating line in SVG units: the polyline points, the y-axis ticks (y, label) and the
    x-axis ends (x, label)."""

    points: str
    dots: tuple[tuple[float, float, str], ...]
    ticks: tuple[tuple[float, str], ...]
    width: int
    height: int


def _line_chart(line: Sequence[tuple[int, float]], total: int) -> LineChart | None:
    """The bot's rating after each checkpoint, on an axis of games stored (None if no point)."""
    if not line:
        return None
    width, height, left, top, bottom = 320, 160, 44, 10, 24
    low = min(v for _, v in line)
    high = max(v for _, v in line)
    step = 50.0
    while (high - low) / step > 5:
        step *= 2
    low, high = step * (low // step), step * (high // step + 1)

    def x(count: int) -> float:
        return round(left + (width - left - 8) * count / max(total, 1), 1)

    def y(value: float) -> float:
        return round(top + (height - top - bottom) * (high - value) / (high - low), 1)

    dots = tuple((x(c), y(v), f"after {c} games: {v:.0f}") for c, v in line)
    count = round((high - low) / step)
    ticks = tuple((y(low + k * step), f"{low + k * step:.0f}") for k in range(count + 1))
    return LineChart(" ".join(f"{a},{b}" for a, b, _ in dots), dots, ticks, width, height)
