"""The sampled format's tables: every bot at ``tables_per_bot`` tables, pairs of bots as even as the
numbers allow; a pure function of the field, the table size, the count and a seed.

Construction: rounds, each a seeded shuffle of the field dealt into tables one seat at a time, every
seat going to the waiting bot that has shared fewest tables with the bots already seated (bots left
over at the end of a round open the next one). Then a seeded local search swaps bots between tables
while a swap lowers ``Σ pair_count²`` (which, the total being fixed, is the spread of the pair counts
about their mean). A small design whose pair counts still differ by more than one is drawn again
(a few times at most) and the most even draw kept; a large one is kept as it is, and ``plan`` shows
its spread. Swaps keep every bot's table count, and duplicate rotations seat every bot in every
seat of each of its tables, so seat counts are exact. When ``bots × tables_per_bot`` is not a multiple
of the table size, the last table is completed by bots that then play one table more.

Late entrants (:func:`late_tables`) get their tables after the design, against the bots that have met
them least and played the fewest late tables.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

#: Most passes of the local search (each visits the tables holding an extreme pair count).
IMPROVEMENT_PASSES = 20
#: The search ends after this many passes in a row without an improving swap.
STALLED_PASSES = 3
#: Small designs are drawn again (from the same seeded stream) while their pair counts differ by
#: more than one: up to MAX_ATTEMPTS draws, as many as fit in ATTEMPT_SEATS seats all told; the
#: most even one is kept.
MAX_ATTEMPTS = 8
ATTEMPT_SEATS = 1000


@dataclass(frozen=True, slots=True)
class Balance:
    """How even a set of tables is: per bot, tables played; per seat of the table, how often each
    bot takes it (over every rotation); per pair of bots, tables shared (over every pair, met or
    not), as ``(min, max)``; and the pair count a perfectly balanced design would have (the mean)."""

    bots: int
    tables: int
    tables_per_bot: tuple[int, int]
    seat_count: tuple[int, int]
    pair_count: tuple[int, int]
    pair_mean: float

    @property
    def pair_spread(self) -> int:
        """Largest minus smallest pair count (at most 1 when the design is as even as can be)."""
        return self.pair_count[1] - self.pair_count[0]

    def describe(self) -> str:
        """Two lines for ``plan``."""
        low, high = self.tables_per_bot
        per_bot = f"{low}" if low == high else f"{low} to {high}"
        return (
            f"balance: {self.bots} bots at {per_bot} tables each, every bot in every seat "
            f"{self.seat_count[0]}" + ("" if self.seat_count[0] == self.seat_count[1]
                                       else f" to {self.seat_count[1]}") + " times per deal\n"
            f"pairs: each pair of bots shares {self.pair_count[0]} to {self.pair_count[1]} tables "
            f"(mean {self.pair_mean:.2f}, spread {self.pair_spread})"
        )


def balance(tables: Sequence[Sequence[str]], names: Sequence[str]) -> Balance:
    """The balance figures of ``tables`` over the field ``names``."""
    index = {name: i for i, name in enumerate(names)}
    n = len(names)
    per_bot = np.zeros(n, dtype=np.int64)
    pairs = np.zeros((n, n), dtype=np.int64)
    for table in tables:
        members = np.array([index[b] for b in table], dtype=np.intp)
        per_bot[members] += 1
        pairs[np.ix_(members, members)] += 1
    upper = pairs[np.triu_indices(n, 1)]
    played = _span(per_bot)
    return Balance(
        bots=n,
        tables=len(tables),
        tables_per_bot=played,
        # Every rotation seats each bot of a table once in each of its k seats.
        seat_count=played,
        pair_count=_span(upper),
        pair_mean=float(upper.mean()) if upper.size else 0.0,
    )


def _span(counts: NDArray[np.int64]) -> tuple[int, int]:
    return (int(counts.min()), int(counts.max())) if counts.size else (0, 0)


def sampled_tables(
    names: Sequence[str], table_size: int, tables_per_bot: int, seed: int
) -> list[tuple[str, ...]]:
    """The design: tables of ``table_size`` distinct bots, each bot in ``tables_per_bot`` of them
    (a few in one more, see the module text), bots of a table in field order."""
    n, k = len(names), table_size
    rng = random.Random(seed)
    seats = -(-n * tables_per_bot // k) * k
    best: tuple[tuple[int, int], NDArray[np.intp]] | None = None
    for _ in range(max(1, min(MAX_ATTEMPTS, ATTEMPT_SEATS // seats))):
        pairs = np.zeros((n, n), dtype=np.int64)
        members = _deal_rounds(n, k, tables_per_bot, rng, pairs)
        _improve(members, pairs, rng)
        upper = pairs[np.triu_indices(n, 1)]
        score = (int(upper.max() - upper.min()) if upper.size else 0, int((upper**2).sum()))
        if best is None or score < best[0]:
            best = (score, members)
        if score[0] <= 1:
            break
    assert best is not None
    return [tuple(names[i] for i in sorted(row)) for row in best[1].tolist()]


def _deal_rounds(
    n: int, k: int, rounds: int, rng: random.Random, pairs: NDArray[np.int64]
) -> NDArray[np.intp]:
    """Tables (rows of bot indices) dealt round by round; ``pairs`` counts what they share."""
    tables: list[list[int]] = []
    waiting: list[int] = []
    for _ in range(rounds):
        fresh = list(range(n))
        rng.shuffle(fresh)
        waiting += fresh
        while len(waiting) >= k:
            tables.append(_seat_one(waiting, k, pairs))
    if waiting:  # complete the last table with the bots that have shared least with the waiting
        table = waiting[:]
        while len(table) < k:
            shared = pairs[table].sum(axis=0)
            shared[table] = np.iinfo(np.int64).max
            table.append(int(np.argmin(shared)))
        _count(table, pairs, 1)
        tables.append(table)
    return np.array(tables, dtype=np.intp).reshape(len(tables), k)


def _seat_one(waiting: list[int], k: int, pairs: NDArray[np.int64]) -> list[int]:
    """Take one table from ``waiting``: its first bot, then each time the waiting bot (not yet at the
    table) that has shared fewest tables with those seated, earliest in line on ties."""
    table = [waiting.pop(0)]
    while len(table) < k:
        line = np.array(waiting, dtype=np.intp)
        shared = pairs[np.ix_(np.array(table), line)].sum(axis=0)
        clash = np.isin(line, table)
        shared[clash] = np.iinfo(np.int64).max
        pick = int(np.argmin(shared))
        table.append(waiting.pop(pick))
    _count(table, pairs, 1)
    return table


def _count(table: Sequence[int], pairs: NDArray[np.int64], step: int) -> None:
    idx = np.array(table, dtype=np.intp)
    pairs[np.ix_(idx, idx)] += step
    pairs[idx, idx] -= step


def _improve(tables: NDArray[np.intp], pairs: NDArray[np.int64], rng: random.Random) -> None:
    """Swap bots between tables while a swap lowers ``Σ pairs²`` (or, when none does, keeps it),
    until pair counts differ by at most one or passes stop improving. Each pass visits, in a seeded
    order, the seats that can mend an outlying pair: where a bot sits with a table-mate it shares
    the highest count with (above the mean's ceiling), and every seat of a bot in a pair of the
    lowest count (below the mean's floor)."""
    m, k = tables.shape
    n = pairs.shape[0]
    if m < 2 or n <= k:
        return
    upper = np.triu_indices(n, 1)
    mean = float(pairs[upper].mean())
    stalled = 0
    for _ in range(IMPROVEMENT_PASSES):
        top, bottom = int(pairs[upper].max()), int(pairs[upper].min())
        if top - bottom <= 1:
            return
        targets = np.zeros(tables.shape, dtype=bool)
        if top > math.ceil(mean):
            targets |= (pairs[tables[:, :, None], tables[:, None, :]] == top).any(axis=2)
        if bottom < math.floor(mean):
            lonely = pairs == bottom
            np.fill_diagonal(lonely, False)
            targets |= lonely.any(axis=1)[tables]
        visit = [int(t) for t in np.nonzero(targets.any(axis=1))[0]]
        rng.shuffle(visit)
        swaps = _Swaps(tables, pairs, rng)
        for a in visit:
            for pos in np.nonzero(targets[a])[0]:
                swaps.best(a, int(pos))
        stalled = 0 if swaps.made else stalled + 1
        if stalled >= STALLED_PASSES or not swaps.sideways and not swaps.made:
            return


class _Swaps:
    """Improving swaps on ``tables``, keeping ``pairs`` and each seated bot's summed pair count with
    its table-mates up to date."""

    def __init__(
        self, tables: NDArray[np.intp], pairs: NDArray[np.int64], rng: random.Random
    ) -> None:
        self.tables = tables
        self.pairs = pairs
        self.rng = rng
        self.at_table = self._at_table(tables)
        self.made = 0
        self.sideways = 0

    def _at_table(self, rows: NDArray[np.intp]) -> NDArray[np.int64]:
        summed: NDArray[np.int64] = self.pairs[rows[:, :, None], rows[:, None, :]].sum(axis=2)
        return summed

    def best(self, a: int, pos: int) -> None:
        """Swap the bot at ``tables[a, pos]`` with the bot of another table that lowers
        ``Σ pairs²`` most, or keeps it as it is if none lowers it."""
        tables, pairs = self.tables, self.pairs
        k = tables.shape[1]
        x = int(tables[a, pos])
        rest_a = np.delete(tables[a], pos)
        # x leaves a for table b, y leaves b for a. Each pair count c that drops changes Σ pairs²
        # by 1 - 2c, each that rises by 1 + 2c: 4(k-1) + 2(Σ_A' y - Σ_A' x + Σ_B' x - Σ_B' y).
        with_rest_a = pairs[:, rest_a].sum(axis=1)
        px = pairs[x][tables]
        x_at_b = px.sum(axis=1, keepdims=True) - px
        delta = 4 * (k - 1) + 2 * (with_rest_a[tables] - with_rest_a[x] + x_at_b - self.at_table)
        bad = (tables == x).any(axis=1, keepdims=True) | np.isin(tables, rest_a)
        delta = np.where(bad, np.iinfo(np.int64).max, delta)
        low = int(delta.min())
        if low > 0:
            return
        # The best swap, a seeded choice among equals; one that leaves Σ pairs² as it is moves
        # along a plateau of equal designs, out of a local minimum.
        choices = np.flatnonzero(delta == low)
        best = int(choices[self.rng.randrange(len(choices))])
        b, seat = divmod(best, k)
        moved = np.concatenate([tables[a], tables[b]])
        _count(tables[a], pairs, -1)
        _count(tables[b], pairs, -1)
        tables[a, pos], tables[b, seat] = tables[b, seat], x
        _count(tables[a], pairs, 1)
        _count(tables[b], pairs, 1)
        touched = np.nonzero(np.isin(tables, moved).sum(axis=1) >= 2)[0]
        self.at_table[touched] = self._at_table(tables[touched])
        if low < 0:
            self.made += 1
        else:
            self.sideways += 1


def late_tables(
    names: Sequence[str],
    tables: Sequence[Sequence[str]],
    entrant: str,
    table_size: int,
    count: int,
    seed: int,
) -> list[tuple[str, ...]]:
    """``count`` tables for ``entrant`` (not among ``names``, the field before it) after ``tables``:
    each time the ``table_size - 1`` bots that have shared fewest tables with the entrant, then
    played fewest tables in all, seeded order on ties; bots of a table in field order."""
    rng = random.Random(seed)
    order = list(names)
    rng.shuffle(order)
    played = {name: 0 for name in names}
    for table in tables:
        for bot in table:
            if bot in played:
                played[bot] += 1
    met = {name: 0 for name in names}
    position = {name: i for i, name in enumerate([*names, entrant])}
    result: list[tuple[str, ...]] = []
    for _ in range(count):
        chosen = sorted(order, key=lambda b: (met[b], played[b]))[: table_size - 1]
        for bot in chosen:
            met[bot] += 1
            played[bot] += 1
        result.append(tuple(sorted([*chosen, entrant], key=position.__getitem__)))
    return result
