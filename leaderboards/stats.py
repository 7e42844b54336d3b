"""Counting tables from match records: results per bot, head-to-head, seats, faults, latency.

Places are fractional: tied seats share the mean of the places they span (two seats tied for first
both place 1.5). A win shared by ``m`` seats counts ``1/m`` to each. Against each other seat of a game a
bot scores 1 for finishing above it, 1/2 for a tie, 0 below; seats of the same bot are not compared.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from numpy.typing import NDArray

from leaderboards.model import FaultCounts, Latency, Meeting
from leaderboards.results import RatedGame

LATENCY_PERCENTILES = (50.0, 90.0, 99.0)


@dataclass(frozen=True, slots=True)
class TableResults:
    """Every game of one table size as arrays: rows are games, columns seats."""

    players: int
    game: NDArray[np.str_]
    """(games,): the game's name."""
    bots: NDArray[np.intp]
    """(games, seats): bot index in each seat."""
    ranks: NDArray[np.int64]
    """(games, seats): competition ranks (1 best, ties share)."""

    @property
    def places(self) -> NDArray[np.float64]:
        """(games, seats): fractional places."""
        same = (self.ranks[:, :, None] == self.ranks[:, None, :]).sum(axis=2)
        return np.asarray(self.ranks + (same - 1) / 2, dtype=np.float64)

    @property
    def win_shares(self) -> NDArray[np.float64]:
        """(games, seats): share of the win (``1/m`` for each of ``m`` seats placed first)."""
        first = self.ranks == 1
        return np.asarray(first / first.sum(axis=1, keepdims=True), dtype=np.float64)


def table_results(records: Sequence[RatedGame], index: dict[str, int]) -> list[TableResults]:
    """The records as arrays, one :class:`TableResults` per table size (ascending)."""
    by_size: defaultdict[int, list[RatedGame]] = defaultdict(list)
    for record in records:
        by_size[record.players].append(record)
    return [
        TableResults(
            players=size,
            game=np.array([r.game for r in group], dtype=np.str_),
            bots=np.array([[index[b] for b in r.bots] for r in group], dtype=np.intp),
            ranks=np.array([r.ranks for r in group], dtype=np.int64),
        )
        for size, group in sorted(by_size.items())
    ]


@dataclass(frozen=True, slots=True)
class PairCounts:
    """Over every pair of seats of different bots in every game, ``[i, j]`` for bot ``i`` vs ``j``:
    ``points`` scored by ``i``, ``meetings`` (seat pairs compared: one per shared game unless a
    bot held several seats), and ``beat`` (``i`` finished at or above ``j`` at least once)."""

    points: NDArray[np.float64]
    meetings: NDArray[np.int64]
    beat: NDArray[np.bool_]


def pair_counts(tables: Sequence[TableResults], n_bots: int) -> PairCounts:
    """Count every comparison of two seats held by different bots."""
    cells = n_bots * n_bots
    points = np.zeros(cells)
    meetings = np.zeros(cells, dtype=np.int64)
    at_or_above = np.zeros(cells, dtype=np.int64)
    for table in tables:
        for a in range(table.players):
            for b in range(table.players):
                if a == b:
                    continue
                mine, theirs = table.ranks[:, a], table.ranks[:, b]
                other = table.bots[:, a] != table.bots[:, b]
                cell = (table.bots[:, a] * n_bots + table.bots[:, b])[other]
                score = np.where(mine < theirs, 1.0, np.where(mine == theirs, 0.5, 0.0))[other]
                points += np.bincount(cell, score, cells)
                meetings += np.bincount(cell, minlength=cells)
                at_or_above += np.bincount(cell, (mine <= theirs)[other], cells).astype(np.int64)
    shape = (n_bots, n_bots)
    return PairCounts(points.reshape(shape), meetings.reshape(shape), at_or_above.reshape(shape) > 0)


@dataclass(frozen=True, slots=True)
class BotTotals:
    """Sums over one bot's seats: games, seats, points of comparisons, places and win shares."""

    games: int
    seats: int
    points: float
    comparisons: int
    place_sum: float
    win_sum: float

    @property
    def score(self) -> float:
        """Share of points against the opponents met (0 if it met none)."""
        return self.points / self.comparisons if self.comparisons else 0.0

    @property
    def average_place(self) -> float:
        """Mean fractional place over its seats."""
        return self.place_sum / self.seats

    @property
    def win_share(self) -> float:
        """Mean share of the win over its seats."""
        return self.win_sum / self.seats


def bot_totals(
    tables: Sequence[TableResults], pairs: PairCounts, n_bots: int
) -> tuple[BotTotals, ...]:
    """Totals for every bot index ``0 .. n_bots-1``."""
    games = np.zeros(n_bots, dtype=np.int64)
    seats = np.zeros(n_bots, dtype=np.int64)
    place_sum = np.zeros(n_bots)
    win_sum = np.zeros(n_bots)
    for table in tables:
        ordered = np.sort(table.bots, axis=1)
        first = np.ones_like(ordered, dtype=np.bool_)
        first[:, 1:] = ordered[:, 1:] != ordered[:, :-1]
        games += np.bincount(ordered[first], minlength=n_bots)
        seats += np.bincount(table.bots.ravel(), minlength=n_bots)
        place_sum += np.bincount(table.bots.ravel(), table.places.ravel(), n_bots)
        win_sum += np.bincount(table.bots.ravel(), table.win_shares.ravel(), n_bots)
    points = pairs.points.sum(axis=1)
    comparisons = pairs.meetings.sum(axis=1)
    return tuple(
        BotTotals(
            int(games[i]), int(seats[i]), float(points[i]), int(comparisons[i]),
            float(place_sum[i]), float(win_sum[i]),
        )
        for i in range(n_bots)
    )


def head_to_head(
    pairs: PairCounts, bots: Sequence[str], order: Sequence[int]
) -> tuple[Meeting, ...]:
    """Every ordered pair of bots that met, rows and columns in ``order`` (bot indices)."""
    return tuple(
        Meeting(bots[i], bots[j], int(pairs.meetings[i, j]), float(pairs.points[i, j]))
        for i in order
        for j in order
        if pairs.meetings[i, j]
    )


@dataclass(frozen=True, slots=True)
class SeatTotals:
    """How one seat fared at one kind of table: games, mean place, mean win share."""

    game: str
    players: int
    seat: int
    games: int
    average_place: float
    win_share: float


def seat_totals(tables: Sequence[TableResults]) -> tuple[SeatTotals, ...]:
    """Per game, table size and seat, sorted by those keys."""
    rows: list[SeatTotals] = []
    for table in tables:
        places, wins = table.places, table.win_shares
        for game in np.unique(table.game):
            mine = table.game == game
            count = int(mine.sum())
            for seat in range(table.players):
                rows.append(
                    SeatTotals(
                        str(game), table.players, seat, count,
                        float(places[mine, seat].mean()), float(wins[mine, seat].mean()),
                    )
                )
    return tuple(sorted(rows, key=lambda r: (r.game, r.players, r.seat)))


def fault_counts(records: Sequence[RatedGame], bots: Sequence[str]) -> tuple[FaultCounts, ...]:
    """Every bot's faults by kind and forfeits, in ``bots`` order."""
    kinds: dict[str, Counter[str]] = {bot: Counter() for bot in bots}
    forfeits: Counter[str] = Counter()
    for record in records:
        for seat, kind in record.faults:
            kinds[record.bots[seat]][kind] += 1
        forfeits.update(record.bots[seat] for seat in record.forfeited)
    return tuple(
        FaultCounts(
            bot=bot,
            timeout=kinds[bot]["timeout"],
            illegal=kinds[bot]["illegal"],
            crash=kinds[bot]["crash"],
            malformed=kinds[bot]["malformed"],
            start=kinds[bot]["start"],
            forfeits=forfeits[bot],
        )
        for bot in bots
    )


def latencies(records: Sequence[RatedGame], bots: Sequence[str]) -> tuple[Latency, ...]:
    """Every bot's reply-time percentiles (p50, p90, p99, linear interpolation), fallbacks excluded."""
    elapsed: dict[str, list[float]] = {bot: [] for bot in bots}
    for record in records:
        for seat, seconds in record.replies:
            elapsed[record.bots[seat]].append(seconds)
    result: list[Latency] = []
    for bot in bots:
        times = elapsed[bot]
        if times:
            p50, p90, p99 = (float(v) for v in np.percentile(times, LATENCY_PERCENTILES))
            result.append(Latency(bot, len(times), p50, p90, p99))
        else:
            result.append(Latency(bot, 0, None, None, None))
    return tuple(result)
