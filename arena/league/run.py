"""The league's long-running loop: choose a table, play it, store it, update the ratings, again,
with several tables in play at once on one pool of match slots.

Each table is decided (its seats stored in ``league_tables``) before it is played, then played as a
one-table round-robin tournament of its seated versions (:func:`arena.league.config.table_config`)
by the tournament runner (:func:`arena.tournament.runner.run_tournament`), in a thread of its own:
the deal in every rotation, each game stored whole, void games stored aside and played again, the
table's own deal secret committed before play and revealed once the table is whole. All tables
share one executor through a :class:`~arena.tournament.shared.SharedPool`: ``capacity`` games are
in play in all, and a new table is chosen whenever the open tables' games left to play would not
fill it. The matchmaker sees the tables decided and not yet whole as already coming (their
expected information applied), so it does not choose the same table again.

A run killed at any moment loses nothing stored. A table decided but not played whole (the run was
stopped or killed during it) is **completed** when the league runs again, before any new table is
chosen: with the same seats and deal, playing exactly its missing games (all such tables at once).
A table one of whose versions has since been retired is not completed (its stored games still
count).

After every table the ratings move on by one cheap step from the fit before
(:func:`arena.league.fit.fit_games` with ``previous``); every ``exact_every`` tables, at the start
and at the end of a run, they are refitted exactly. Each fit is stored in the rating history.
"""

from __future__ import annotations

import random
import threading
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from arena.errors import ArenaError
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
from arena.league.matchmaking import Entrant, EntrantKey, League, Ratings, next_table
from arena.league.submissions import intake
from arena.store.db import Store
from arena.tournament import TournamentError
from arena.tournament.cluster import ClusterLost
from arena.tournament.config import TournamentConfig
from arena.tournament.executors import Executor
from arena.tournament.runner import RunSummary, run_tournament
from arena.tournament.shared import Lane, PoolStopped, SharedPool


@dataclass
class LeagueRunSummary:
    """What a run did: new tables played whole, unfinished tables completed, games stored, void
    attempts stored (each played again)."""

    tables: int = 0
    completed: int = 0
    games: int = 0
    voided: int = 0


def league_state(row: LeagueRow, versions: list[EntrantRow], decided: list[TableRow],
                 fit: LeagueFit | None,
                 pending: tuple[tuple[EntrantKey, ...], ...] = ()) -> League:
    """What the matchmaker reads: every version, its tables, the fit, the tables decided and,
    among them, those still being played."""
    played = Counter(key for table in decided for key in table.seats)
    return League(
        entrants=tuple(Entrant(v.bot, v.version, v.active, v.arrived, played[v.key])
                       for v in versions),
        ratings=fit.ratings if fit is not None else Ratings.none(),
        table_size=row.table_size,
        played=len(decided),
        recent=tuple(table.seats for table in decided),
        pending=pending,
    )


def unfinished(store: Store, decided: list[TableRow], versions: list[EntrantRow],
               table_size: int) -> list[TableRow]:
    """The decided tables still missing games whose versions are all active (to complete)."""
    active = {v.key for v in versions if v.active}
    return [t for t in decided if _left(store, table_size, t) and set(t.seats) <= active]


#: Seconds the league waits for a game to finish before looking at its tables again.
TICK = 0.25


@dataclass
class _TableRun:
    """A table being played in a thread of its own, through ``lane``."""

    table: TableRow
    lane: Lane
    left: int
    thread: threading.Thread
    result: RunSummary | None = None
    error: BaseException | None = None
    #: A table cut short by an earlier run (no new table is chosen until these are whole).
    completing: bool = False


def play_league(
    store: Store,
    row: LeagueRow,
    executor: Executor,
    *,
    limit: int | None,
    guard: Callable[[], None],
    say: Callable[[str], None],
    admit: Callable[[TournamentConfig], None] = lambda config: None,
    exact_every: int = 10,
) -> LeagueRunSummary:
    """Complete unfinished tables, then play new ones until ``limit`` new tables (forever when
    ``None``), ``executor.capacity`` games at a time across tables (the run closes ``executor``).
    ``admit`` is called with each table's config before it starts (it raises to refuse it);
    ``guard`` (the runner lock's check) is called before every write. Raises
    :class:`LeagueError` when fewer versions are active than a table seats or a table's games could
    not be played; any exception (``KeyboardInterrupt`` included) stops every table, leaving what is
    stored as it is."""
    summary = LeagueRunSummary()
    pool = SharedPool(executor)
    open_tables: list[_TableRun] = []
    decided = tables(store, row.name)
    whole = sum(_left(store, row.table_size, t) == 0 for t in decided)
    fit: LeagueFit | None = None
    steps = 0
    abandon = True
    try:
        fit = refit(store, row, whole, guard)
        versions = entrants(store, row.name)
        for table in unfinished(store, decided, versions, row.table_size):
            open_tables.append(_start(store, row, table, versions, pool, admit, guard))
            open_tables[-1].completing = True
        new = 0
        while True:
            while ((limit is None or new < limit) and _room(pool, open_tables)
                   and not any(run.completing for run in open_tables)):
                intake(store, row, guard, say)  # submitted bots join before the entrants are read
                versions = entrants(store, row.name)
                decided = tables(store, row.name)
                table = _choose(row, versions, decided, fit, open_tables)
                guard()
                add_table(store, row.name, table)
                open_tables.append(_start(store, row, table, versions, pool, admit, guard))
                new += 1
            if not open_tables:
                break
            try:
                pool.pump(TICK)
            except TournamentError as exc:  # a lost worker or cluster: go on as a league
                raise _as_league(exc) from None
            for run in [r for r in open_tables if not r.thread.is_alive()]:
                open_tables.remove(run)
                completed = _finish(row, run, summary)
                whole += 1
                steps += 1
                exact = steps % exact_every == 0 or (not open_tables and new == limit)
                fit = refit(store, row, whole, guard, None if exact else fit)
                say(_done(run.table, completed))
        abandon = False
    finally:
        pool.stop()
        executor.close(abandon)
        for run in open_tables:
            run.thread.join()
        if fit is not None and not fit.exact:  # however the run ends, its last fit is exact
            refit(store, row, whole, guard)
    return summary


def _room(pool: SharedPool, open_tables: list[_TableRun]) -> bool:
    """Whether the open tables' games would leave a slot of the pool idle: games in play, and all
    the games left of tables that have not submitted any yet."""
    waiting = sum(run.left for run in open_tables if not run.lane.started)
    return pool.in_play + waiting < pool.capacity


def _choose(row: LeagueRow, versions: list[EntrantRow], decided: list[TableRow],
            fit: LeagueFit | None, open_tables: list[_TableRun]) -> TableRow:
    """The next table (seeded by its number), the open tables taken as coming."""
    number = len(decided)
    pending = tuple(run.table.seats for run in open_tables)
    chosen = next_table(league_state(row, versions, decided, fit, pending),
                        random.Random(table_seed(int(row.template["seed"]), number)), row.policy)
    if chosen is None:
        active = sum(v.active for v in versions)
        raise LeagueError(f"league {row.name!r} has {active} active bots and a table seats "
                          f"{row.table_size}; add bots with: arena league add NAME BOT")
    return TableRow(number, table_name(row.name, number), chosen.seats, chosen.reason.value)


def refit(store: Store, row: LeagueRow, whole: int, guard: Callable[[], None],
          previous: LeagueFit | None = None) -> LeagueFit | None:
    """The exact fit to every stored game (with ``previous``, one step from it instead), stored
    in the history under ``whole``, the count of tables played whole (once per kind)."""
    fit = fit_games(league_outcomes(store, row.name), row.table_size, previous)
    if fit is not None:
        guard()
        add_ratings(store, row.name, fit.rows(whole))
    return fit


def _start(store: Store, row: LeagueRow, table: TableRow, versions: list[EntrantRow],
           pool: SharedPool, admit: Callable[[TournamentConfig], None],
           guard: Callable[[], None]) -> _TableRun:
    """Start playing ``table``'s missing games in a thread of its own, on a store connection of
    its own."""
    entries = {v.key: v.entry for v in versions}
    config = table_config(row.template, row.name, table.number,
                          [(key, entries[key]) for key in table.seats], 0)
    admit(config)
    lane = pool.lane()
    run = _TableRun(table, lane, _left(store, row.table_size, table), threading.Thread())

    def play() -> None:
        try:
            with Store(store.path) as own:
                run.result = run_tournament(config, own, lane, guard=guard)
        except PoolStopped:
            pass
        except BaseException as exc:  # the league's thread reports it
            run.error = exc

    run.thread = threading.Thread(target=play, name=f"arena-table-{table.number}", daemon=True)
    run.thread.start()
    return run


def _finish(row: LeagueRow, run: _TableRun, summary: LeagueRunSummary) -> bool:
    """Count a table whose thread ended: whether it was one cut short before (completed);
    :class:`LeagueError` if it could not be played whole."""
    number = run.table.number
    if isinstance(run.error, TournamentError):
        raise _as_league(run.error, f"table {number} of league {row.name!r}: ") from None
    if run.error is not None:
        raise run.error
    result = run.result
    assert result is not None
    summary.games += result.played
    summary.voided += result.voided
    if result.missing:
        raise LeagueError(
            f"table {number} of league {row.name!r}: {result.missing} of {result.total} games "
            "could not be played; the next run plays them")
    if run.completing:
        summary.completed += 1
    else:
        summary.tables += 1
    return run.completing


def _as_league(error: TournamentError, where: str = "") -> ArenaError:
    """``error``, which says how to go on as for a tournament, saying how to go on as a league
    (a lost cluster keeps its class, which names the scheduler)."""
    message = where + str(error).replace("arena tournament resume", "arena league run")
    if isinstance(error, ClusterLost):
        return ClusterLost(message, error.address)
    return LeagueError(message)


def _left(store: Store, table_size: int, table: TableRow) -> int:
    """Games of ``table`` not stored yet (a table plays its one deal in each of its
    ``table_size`` rotations)."""
    return max(0, table_size - len(store.stored_ids(table.tournament)))


def _done(table: TableRow, completed: bool) -> str:
    what = "completed" if completed else f"({table.reason})"
    return f"table {table.number} {what}: {_seats(table)}"


def _seats(table: TableRow) -> str:
    return ", ".join(f"{bot}@{version}" for bot, version in table.seats)
