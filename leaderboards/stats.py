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

from arena.record import FaultKind, MatchRecord
from leaderboards.model import FaultCounts, Latency, Meeting

LATENCY_PERCENTILES = (50.0, 90.0, 99.0)


def places(ranks: Sequence[int]) -> tuple[float, ...]:
    """Fractional places from competition ranks (1, 1, 3 → 1.5, 1.5, 3)."""
    counts = Counter(ranks)
    return tuple(rank + (counts[rank] - 1) / 2 for rank in ranks)


def win_shares(ranks: Sequence[int]) -> tuple[float, ...]:
    """Each seat's share of the win: ``1/m`` for each of ``m`` seats placed first, else 0."""
    winners = sum(1 for rank in ranks if rank == 1)
    return tuple(1.0 / winners if rank == 1 else 0.0 for rank in ranks)


def pair_points(mine: int, theirs: int) -> float:
    """Points for finishing at rank ``mine`` against a seat at rank ``theirs``."""
    return 1.0 if mine < theirs else 0.5 if mine == theirs else 0.0


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


def bot_totals(records: Sequence[MatchRecord], bots: Sequence[str]) -> tuple[BotTotals, ...]:
    """Totals for every bot in ``bots`` (each must appear in ``records``)."""
    games: Counter[str] = Counter()
    seats: Counter[str] = Counter()
    points: defaultdict[str, float] = defaultdict(float)
    comparisons: Counter[str] = Counter()
    place_sum: defaultdict[str, float] = defaultdict(float)
    win_sum: defaultdict[str, float] = defaultdict(float)
    for record in records:
        games.update(set(record.bots))
        for seat, (place, win) in enumerate(
            zip(places(record.ranks), win_shares(record.ranks), strict=True)
        ):
            bot = record.bots[seat]
            seats[bot] += 1
            place_sum[bot] += place
            win_sum[bot] += win
            for other, other_bot in enumerate(record.bots):
                if other_bot != bot:
                    comparisons[bot] += 1
                    points[bot] += pair_points(record.ranks[seat], record.ranks[other])
    return tuple(
        BotTotals(games[b], seats[b], points[b], comparisons[b], place_sum[b], win_sum[b])
        for b in bots
    )


def pair_matrix(records: Sequence[MatchRecord], index: dict[str, int]) -> np.ndarray:
    """``points[i, j]``: the points bot ``i`` scored against bot ``j`` over every shared game."""
    points = np.zeros((len(index), len(index)))
    for record in records:
        for seat, bot in enumerate(record.bots):
            for other, other_bot in enumerate(record.bots):
                if other_bot != bot:
                    points[index[bot], index[other_bot]] += pair_points(
                        record.ranks[seat], record.ranks[other]
                    )
    return points


def head_to_head(records: Sequence[MatchRecord], bots: Sequence[str]) -> tuple[Meeting, ...]:
    """Every ordered pair of bots that met: meetings (shared games) and points, in ``bots`` order."""
    meetings: Counter[tuple[str, str]] = Counter()
    points: defaultdict[tuple[str, str], float] = defaultdict(float)
    for record in records:
        met: set[tuple[str, str]] = set()
        for seat, bot in enumerate(record.bots):
            for other, other_bot in enumerate(record.bots):
                if other_bot != bot:
                    met.add((bot, other_bot))
                    points[bot, other_bot] += pair_points(record.ranks[seat], record.ranks[other])
        meetings.update(met)
    return tuple(
        Meeting(bot, opponent, meetings[bot, opponent], points[bot, opponent])
        for bot in bots
        for opponent in bots
        if meetings[bot, opponent]
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


def seat_totals(records: Sequence[MatchRecord]) -> tuple[SeatTotals, ...]:
    """Per game, table size and seat, sorted by those keys."""
    count: Counter[tuple[str, int, int]] = Counter()
    place_sum: defaultdict[tuple[str, int, int], float] = defaultdict(float)
    win_sum: defaultdict[tuple[str, int, int], float] = defaultdict(float)
    for record in records:
        for seat, (place, win) in enumerate(
            zip(places(record.ranks), win_shares(record.ranks), strict=True)
        ):
            key = (record.game, record.players, seat)
            count[key] += 1
            place_sum[key] += place
            win_sum[key] += win
    return tuple(
        SeatTotals(key[0], key[1], key[2], n, place_sum[key] / n, win_sum[key] / n)
        for key, n in sorted(count.items())
    )


def fault_counts(records: Sequence[MatchRecord], bots: Sequence[str]) -> tuple[FaultCounts, ...]:
    """Every bot's faults by kind and forfeits, in ``bots`` order."""
    kinds: dict[str, Counter[FaultKind]] = {bot: Counter() for bot in bots}
    forfeits: Counter[str] = Counter()
    for record in records:
        for fault in record.faults:
            kinds[record.bots[fault.seat]][fault.kind] += 1
        forfeits.update(record.bots[seat] for seat in record.forfeited)
    return tuple(
        FaultCounts(
            bot=bot,
            timeout=kinds[bot][FaultKind.TIMEOUT],
            illegal=kinds[bot][FaultKind.ILLEGAL],
            crash=kinds[bot][FaultKind.CRASH],
            malformed=kinds[bot][FaultKind.MALFORMED],
            start=kinds[bot][FaultKind.START],
            forfeits=forfeits[bot],
        )
        for bot in bots
    )


def latencies(records: Sequence[MatchRecord], bots: Sequence[str]) -> tuple[Latency, ...]:
    """Every bot's reply-time percentiles (p50, p90, p99, linear interpolation), fallbacks excluded."""
    elapsed: dict[str, list[float]] = {bot: [] for bot in bots}
    for record in records:
        for decision in record.decisions:
            if not decision.fallback:
                elapsed[record.bots[decision.seat]].append(decision.elapsed)
    result: list[Latency] = []
    for bot in bots:
        times = elapsed[bot]
        if times:
            p50, p90, p99 = (float(v) for v in np.percentile(times, LATENCY_PERCENTILES))
            result.append(Latency(bot, len(times), p50, p90, p99))
        else:
            result.append(Latency(bot, 0, None, None, None))
    return tuple(result)
