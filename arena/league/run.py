"""The league's long-running loop: fit, choose a table, play it, store it, again.

Each table is decided (its seats stored in ``league_tables``) before it is played, then played as a
one-table round-robin tournament of its seated versions (:func:`arena.league.config.table_config`)
by the tournament runner (:func:`arena.tournament.runner.run_tournament`): the deal in every
rotation, each game stored whole, void games stored aside and played again, the table's own deal
secret committed before play and revealed once the table is whole.

A run killed at any moment loses nothing stored. A table decided but not played whole (the run was
stopped or killed during it) is **completed** when the league runs again, before any new table is
chosen: exactly its missing games are played, with the same seats and deal. A table one of whose
versions has since been retired is not completed (its stored games still count).

After every table the ratings are refitted exactly to every stored game (:mod:`arena.league.fit`)
and the fit stored in the rating history.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from arena.league.book import (
    EntrantRow,
    LeagueRow,
    TableRow,
    add_ratings,
    add_table,
    entrants,
    tables,
)
from arena.league.config import LeagueError, table_config, table_name, table_seed
from arena.league.fit import LeagueFit, fit_games, league_outcomes
from arena.league.matchmaking import Entrant, League, Ratings, next_table
from arena.league.submissions import intake
from arena.store.db import Store
from arena.tournament import TournamentError
from arena.tournament.config import TournamentConfig
from arena.tournament.executors import Executor
from arena.tournament.runner import run_tournament
from arena.tournament.schedule import build_schedule

ExecutorFactory = Callable[[TournamentConfig], Executor]


@dataclass
class LeagueRunSummary:
    """What a run did: new tables played whole, unfinished tables completed, games stored, void
    attempts stored (each played again)."""

    tables: int = 0
    completed: int = 0
    games: int = 0
    voided: int = 0


def league_state(row: LeagueRow, versions: list[EntrantRow], decided: list[TableRow],
                 fit: LeagueFit | None) -> League:
    """What the matchmaker reads: every version, its tables, the fit and the tables played."""
    played = Counter(key for table in decided for key in table.seats)
    return League(
        entrants=tuple(Entrant(v.bot, v.version, v.active, v.arrived, played[v.key])
                       for v in versions),
        ratings=fit.ratings if fit is not None else Ratings.none(),
        table_size=row.table_size,
        played=len(decided),
        recent=tuple(table.seats for table in decided),
    )


def unfinished(store: Store, decided: list[TableRow], versions: list[EntrantRow],
               table_size: int) -> list[TableRow]:
    """The decided tables still missing games whose versions are all active (to complete)."""
    active = {v.key for v in versions if v.active}
    return [t for t in decided
            if len(store.stored_ids(t.tournament)) < table_size and set(t.seats) <= active]


def play_league(
    store: Store,
    row: LeagueRow,
    executor_for: ExecutorFactory,
    *,
    concurrency: int,
    limit: int | None,
    guard: Callable[[], None],
    say: Callable[[str], None],
) -> LeagueRunSummary:
    """Complete unfinished tables, then play new ones until ``limit`` new tables (forever when
    ``None``). ``executor_for`` makes the executor of a table (the run closes it); ``guard`` (the
    runner lock's check) is called before every write. Raises :class:`LeagueError` when fewer
    versions are active than a table seats or a table's games could not be played; any exception
    (``KeyboardInterrupt`` included) leaves what is stored as it is."""
    summary = LeagueRunSummary()
    versions = entrants(store, row.name)
    for table in unfinished(store, tables(store, row.name), versions, row.table_size):
        _play(store, row, table, versions, executor_for, concurrency, guard, summary)
        summary.completed += 1
        say(f"table {table.number} completed: {_seats(table)}")
    while limit is None or summary.tables < limit:
        intake(store, row, guard, say)
        versions = entrants(store, row.name)
        decided = tables(store, row.name)
        fit = refit(store, row, decided, guard)
        number = len(decided)
        chosen = next_table(league_state(row, versions, decided, fit),
                            random.Random(table_seed(int(row.template["seed"]), number)),
                            row.policy)
        if chosen is None:
            active = sum(v.active for v in versions)
            raise LeagueError(f"league {row.name!r} has {active} active bots and a table seats "
                              f"{row.table_size}; add bots with: arena league add NAME BOT")
        table = TableRow(number, table_name(row.name, number), chosen.seats, chosen.reason.value)
        guard()
        add_table(store, row.name, table)
        _play(store, row, table, versions, executor_for, concurrency, guard, summary)
        summary.tables += 1
        say(f"table {number} ({table.reason}): {_seats(table)}")
    refit(store, row, tables(store, row.name), guard)
    return summary


def refit(store: Store, row: LeagueRow, decided: list[TableRow],
          guard: Callable[[], None]) -> LeagueFit | None:
    """The exact fit to every stored game, stored in the history under the table count (once)."""
    fit = fit_games(league_outcomes(store, row.name), row.table_size)
    if fit is not None:
        guard()
        add_ratings(store, row.name, fit.rows(len(decided)))
    return fit


def _play(
    store: Store, row: LeagueRow, table: TableRow, versions: list[EntrantRow],
    executor_for: ExecutorFactory, concurrency: int, guard: Callable[[], None],
    summary: LeagueRunSummary,
) -> None:
    """Play ``table``'s missing games; :class:`LeagueError` if some could not be played."""
    entries = {v.key: v.entry for v in versions}
    config = table_config(row.template, row.name, table.number,
                          [(key, entries[key]) for key in table.seats], concurrency)
    try:
        result = run_tournament(config, store, executor_for(config), guard=guard)
    except TournamentError as exc:  # it says how to go on as for a tournament: go on as a league
        raise LeagueError(f"table {table.number} of league {row.name!r}: " + str(exc).replace(
            "arena tournament resume", "arena league run")) from None
    summary.games += result.played
    summary.voided += result.voided
    if result.missing:
        raise LeagueError(
            f"table {table.number} of league {row.name!r}: {result.missing} of "
            f"{len(build_schedule(config))} games could not be played; the next run plays them")


def _seats(table: TableRow) -> str:
    return ", ".join(f"{bot}@{version}" for bot, version in table.seats)
