"""A league as the store keeps it: its config, its entrants (every version of every bot), its
tables (seats decided before play) and the rating history. Every change is one transaction; nothing
here deletes a row: a retired or replaced version keeps its games and its history.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, replace
from typing import Any

from arena.league.config import (
    Intake,
    LeagueConfig,
    LeagueError,
    check_bot_name,
    policy_plain,
)
from arena.league.owners import games_folder
from arena.league.matchmaking import EntrantKey, Policy
from arena.store.db import Store
from arena.tournament.config import BotEntry, config_from_plain


@dataclass(frozen=True, slots=True)
class LeagueRow:
    """A stored league: the template of its tables (plain tournament config, without bots), its
    matchmaking settings, when it was created and its submissions folder."""

    name: str
    template: dict[str, Any]
    policy: Policy
    created: float
    #: The watched submissions folder, if any (:mod:`arena.league.submissions`).
    submissions: Intake | None = None

    @property
    def table_size(self) -> int:
        return int(self.template["table_size"])


@dataclass(frozen=True, slots=True)
class EntrantRow:
    """One version of a bot: what it runs, the league's table count when it arrived, when it was
    added and retired (``None`` while active)."""

    bot: str
    version: int
    entry: BotEntry
    arrived: int
    added: float
    retired: float | None

    @property
    def key(self) -> EntrantKey:
        return (self.bot, self.version)

    @property
    def active(self) -> bool:
        return self.retired is None


@dataclass(frozen=True, slots=True)
class TableRow:
    """Table ``number`` of a league: the tournament that plays it, its seats and why."""

    number: int
    tournament: str
    seats: tuple[EntrantKey, ...]
    reason: str


@dataclass(frozen=True, slots=True)
class RatingRow:
    """A version's rating after the fit made when the league had played ``tables`` tables:
    an exact fit, or a step from the fit before (``exact`` false)."""

    tables: int
    bot: str
    version: int
    elo: float
    sd: float
    games: int
    exact: bool = True


def create_league(store: Store, config: LeagueConfig) -> None:
    """Store a new league with its first entrants (version 1 each); :class:`LeagueError` if a
    league of that name is stored."""
    if store.rows("SELECT 1 FROM leagues WHERE name = ?", (config.name,)):
        raise LeagueError(f"{store.path}: league {config.name!r} already exists")
    template = config.template.to_plain()
    del template["bots"]
    now = time.time()
    with store.write():
        store.execute("INSERT INTO leagues VALUES (?, ?, ?)", (
            config.name,
            json.dumps({"template": template, "policy": policy_plain(config.policy),
                        **({} if config.submissions is None
                           else {"submissions": asdict(config.submissions)})}),
            now,
        ))
        for entry in config.template.bots:
            _insert_entrant(store, config.name, entry, 1, 0, now)


def league(store: Store, name: str | None) -> LeagueRow:
    """The league ``name`` (the only one stored when ``None``); :class:`LeagueError` otherwise."""
    rows = store.rows("SELECT name, config, created FROM leagues ORDER BY created")
    if name is None:
        if len(rows) != 1:
            raise LeagueError(f"{store.path}: " + (
                "no league is stored; create one with: arena league init CONFIG --db DB"
                if not rows else
                f"{len(rows)} leagues are stored ({', '.join(r[0] for r in rows)}); name one "
                "with --league"))
        row = rows[0]
    else:
        found = [r for r in rows if r[0] == name]
        if not found:
            raise LeagueError(f"{store.path}: no league named {name!r}")
        row = found[0]
    plain = json.loads(row[1])
    intake = plain.get("submissions")
    return LeagueRow(row[0], plain["template"], Policy(**plain["policy"]), float(row[2]),
                     None if intake is None else Intake(**intake))


def entrants(store: Store, league_name: str) -> list[EntrantRow]:
    """Every version of every bot of the league, in order of arrival; the entry of a bot with an
    owner token keeps its processes' output in its owner's folder (:mod:`arena.league.owners`)."""
    logs = {bot: str(games_folder(store.path, token))
            for bot, token in store.rows("SELECT bot, token FROM league_owners WHERE league = ?",
                                         (league_name,))}
    return [
        EntrantRow(bot, version, replace(_entry(entry), log_folder=logs.get(bot)), arrived, added,
                   retired)
        for bot, version, entry, arrived, added, retired in store.rows(
            "SELECT bot, version, entry, arrived, added, retired FROM league_entrants "
            "WHERE league = ? ORDER BY added, bot, version", (league_name,))
    ]


def add_entrant(store: Store, row: LeagueRow, entry: BotEntry) -> EntrantKey:
    """A new bot in the league (version 1); :class:`LeagueError` if the name is taken."""
    check_bot_name(entry.name)
    if any(e.bot == entry.name for e in entrants(store, row.name)):
        raise LeagueError(f"league {row.name!r} already has a bot {entry.name!r}; submit a new "
                          f"version with: arena league update {entry.name} BOT")
    with store.write():
        _insert_entrant(store, row.name, entry, 1, len(tables(store, row.name)), time.time())
    return (entry.name, 1)


def update_entrant(store: Store, row: LeagueRow, entry: BotEntry) -> EntrantKey:
    """A new version of a bot already in the league; its active version (if any) is retired in
    the same transaction. :class:`LeagueError` for a bot the league does not have."""
    versions = [e for e in entrants(store, row.name) if e.bot == entry.name]
    if not versions:
        raise LeagueError(f"league {row.name!r} has no bot {entry.name!r}; add it with: "
                          f"arena league add {entry.name} BOT")
    version = max(e.version for e in versions) + 1
    now = time.time()
    with store.write():
        store.execute("UPDATE league_entrants SET retired = ? WHERE league = ? AND bot = ? "
                      "AND retired IS NULL", (now, row.name, entry.name))
        _insert_entrant(store, row.name, entry, version, len(tables(store, row.name)), now)
    return (entry.name, version)


def retire_entrant(store: Store, row: LeagueRow, bot: str) -> EntrantKey:
    """Retire ``bot``'s active version (it keeps its games and history); :class:`LeagueError`
    if it has none."""
    active = [e for e in entrants(store, row.name) if e.bot == bot and e.active]
    if not active:
        known = any(e.bot == bot for e in entrants(store, row.name))
        raise LeagueError(f"league {row.name!r} " + (
            f"has no active version of {bot!r}" if known else f"has no bot {bot!r}"))
    with store.write():
        store.execute("UPDATE league_entrants SET retired = ? WHERE league = ? AND bot = ? "
                      "AND version = ?", (time.time(), row.name, bot, active[0].version))
    return active[0].key


def tables(store: Store, league_name: str) -> list[TableRow]:
    """Every table the league has decided, in order (the last may still be playing)."""
    return [
        TableRow(number, tournament, tuple((b, int(v)) for b, v in json.loads(seats)), reason)
        for number, tournament, seats, reason in store.rows(
            "SELECT number, tournament, seats, reason FROM league_tables WHERE league = ? "
            "ORDER BY number", (league_name,))
    ]


def add_table(store: Store, league_name: str, table: TableRow) -> None:
    """Record a decided table before it is played (its number is the next one); raises
    :class:`LeagueError` if a tournament of the table's name is stored already (one run into the
    league's database by hand), which the table would take for its own."""
    with store.write():
        if any(row.name == table.tournament for row in store.tournaments()):
            raise LeagueError(
                f"{store.path} holds a tournament named {table.tournament!r}, the name of league "
                f"{league_name!r}'s table {table.number}: keep other tournaments in a database of their own")
        store.execute("INSERT INTO league_tables VALUES (?, ?, ?, ?, ?, ?)", (
            league_name, table.number, table.tournament,
            json.dumps([list(key) for key in table.seats]), table.reason, time.time()))


def add_ratings(store: Store, league_name: str, ratings: Sequence[RatingRow]) -> None:
    """Store one fit's ratings (a fit of the same kind already stored for that table count is
    kept as it was)."""
    with store.write():
        for r in ratings:
            store.execute(
                "INSERT OR IGNORE INTO league_ratings VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (league_name, r.tables, r.bot, r.version, r.elo, r.sd, r.games, int(r.exact)))


def ratings_history(store: Store, league_name: str, bot: str | None = None) -> list[RatingRow]:
    """Every stored rating (of ``bot``'s versions only, if given), by fit (a step before the
    exact fit of the same table count) then version."""
    sql = (f"SELECT {_RATING_COLUMNS} FROM league_ratings WHERE league = ?"
           + (" AND bot = ?" if bot is not None else "") + " ORDER BY tables, exact, bot, version")
    args: tuple[str, ...] = (league_name,) if bot is None else (league_name, bot)
    return _rating_rows(store, sql, args)


def latest_ratings(store: Store, league_name: str) -> list[RatingRow]:
    """The ratings of the league's latest fit (the exact one where a step shares its table
    count), by version."""
    return _rating_rows(
        store,
        f"SELECT {_RATING_COLUMNS} FROM league_ratings r WHERE league = ? AND (tables, exact) = "
        "(SELECT tables, exact FROM league_ratings WHERE league = r.league "
        "ORDER BY tables DESC, exact DESC LIMIT 1) ORDER BY bot, version", (league_name,))


#: The columns of ``league_ratings`` a :class:`RatingRow` is read from, in its order.
_RATING_COLUMNS = "tables, bot, version, elo, sd, games, exact"


def _rating_rows(store: Store, sql: str, args: tuple[str, ...]) -> list[RatingRow]:
    """The rows ``sql`` selects (:data:`_RATING_COLUMNS`) as :class:`RatingRow` values."""
    return [RatingRow(tables, bot, version, elo, sd, games, bool(exact))
            for tables, bot, version, elo, sd, games, exact in store.rows(sql, args)]


def league_name(store: Store) -> str | None:
    """The name of the league stored last, or ``None`` when no league is stored."""
    rows = store.rows("SELECT name FROM leagues ORDER BY created DESC LIMIT 1")
    return str(rows[0][0]) if rows else None


def league_game_ids(store: Store, league_name: str) -> list[tuple[str, str]]:
    """The tournament and id of every stored game of the league's tables."""
    return [(str(t), str(g)) for t, g in store.rows(
        "SELECT g.tournament, g.id FROM games g JOIN league_tables t ON t.tournament = g.tournament "
        "WHERE t.league = ?", (league_name,))]


def _insert_entrant(
    store: Store, league_name: str, entry: BotEntry, version: int, arrived: int, now: float
) -> None:
    store.execute("INSERT INTO league_entrants VALUES (?, ?, ?, ?, ?, ?, NULL)", (
        league_name, entry.name, version, json.dumps(entry.to_plain()), arrived, now))


def _entry(text: str) -> BotEntry:
    """A stored entry, read back as the tournament config reads a stored bot."""
    plain = json.loads(text)
    config = config_from_plain({"name": "entry", "game": "x", "table_size": 1,
                                "time_control": "1s", "bots": [plain]})
    return config.bots[0]
