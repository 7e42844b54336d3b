"""The sampled format's tables: every bot at ``tables_per_bot`` tables, pairs of bots as even as the
numbers allow; a pure function of the field, the table size, the count and a seed.

Construction: rounds, each a seeded shuffle of the field dealt into tables one seat at a time, every
seat going to the waiting bot that has shared fewest tables with the bots already seated (bots left
over at the end of a round open the next one). Then a seeded local search swaps bots between tables
while a swap lowers ``Σ pair_count²`` (which, the total being fixed, is the spread of the pair counts
about their mean). A small design whose pair counts still differ by more than one is drawn again
(a few times at most) and the most even draw kept. If its pair counts still differ by more than one
and the numbers allow a spread of one (:func:`even_possible`), a seeded tabu search over the same
swaps, worsening ones included, goes on from it (a bounded number of steps) and the most even design
it meets is kept; ``plan`` shows the spread. Swaps keep every bot's table count, and duplicate rotations seat every bot in every
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
#: The tabu search that follows, while pair counts still differ by more than one, takes at most
#: TABU_STEPS steps, and at most TABU_WORK in all of steps times tables, and ends after
#: TABU_STALL steps in a row without a new most even design.
TABU_STEPS = 20000
TABU_WORK = 4_000_000
TABU_STALL = 2000
#: A bot swapped out of a table may not go back to it for this many steps, up to twice as many.
TABU_TENURE = 8
#: Small designs are drawn again (from the same seeded stream) while their pair counts differ by
#: more than one: up to MAX_ATTEMPTS draws, as many as fit in ATTEMPT_SEATS seats all told; the
#: most even one is kept.
MAX_ATTEMPTS = 8
ATTEMPT_SEATS = 1000


@dataclass(frozen=True, slots=True)
class Balance:
    """How even a set of tables is: per bot, tables played; per seat of the table, how often each
    bot takes it (over every rotation); per pair of bots, tables shared (over every pair, met or
    not), as ``(min, max)``; the pair count a perfectly balanced design would have (the mean); and
    whether bots playing as many tables as these could have a pair spread of one
    (:func:`even_possible`)."""

    bots: int
    tables: int
    tables_per_bot: tuple[int, int]
    seat_count: tuple[int, int]
    pair_count: tuple[int, int]
    pair_mean: float
    even_possible: bool

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
            f"(mean {self.pair_mean:.2f}, spread {self.pair_spread}"
            + ("" if self.pair_spread <= 1
               else "; a spread of 1 may exist but the draw did not find one" if self.even_possible
               else "; a spread of 1 is impossible with these numbers")
            + ")"
        )


def even_possible(per_bot: NDArray[np.int64], table_size: int) -> bool:
    """Whether bots playing ``per_bot`` tables each of ``table_size`` could share them with pair
    counts differing by at most one. A bot at ``r`` tables has ``r(k-1)`` table-mates in all: with
    every pair count at the floor ``c`` of the mean or one above it, that is ``c(n-1)`` plus one per
    partner above the floor, so it must lie between ``c(n-1)`` and ``(c+1)(n-1)``; when the mean is
    a whole number it must equal ``c(n-1)``. (Necessary, not always sufficient.)"""
    n = int(per_bot.size)
    if n < 2:
        return True
    mates = per_bot * (table_size - 1)
    low, rest = divmod(int(mates.sum()) // 2, n * (n - 1) // 2)
    above = mates - low * (n - 1)
    return bool((above >= 0).all() and (above <= (n - 1 if rest else 0)).all())


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
        even_possible=even_possible(per_bot, len(tables[0]) if tables else 2),
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
    best: tuple[tuple[int, int], NDArray[np.intp], NDArray[np.int64]] | None = None
    for _ in range(max(1, min(MAX_ATTEMPTS, ATTEMPT_SEATS // seats))):
        pairs = np.zeros((n, n), dtype=np.int64)
        members = _deal_rounds(n, k, tables_per_bot, rng, pairs)
        _improve(members, pairs, rng)
        upper = pairs[np.triu_indices(n, 1)]
        score = (int(upper.max() - upper.min()) if upper.size else 0, int((upper**2).sum()))
        if best is None or score < best[0]:
            best = (score, members, pairs)
        if score[0] <= 1:
            break
    assert best is not None
    members = _tabu(best[1], best[2], rng)
    return [tuple(names[i] for i in sorted(row)) for row in members.tolist()]


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
    with_table = pairs[table[0]].copy()  # per bot, tables shared with the bots seated
    seated = np.zeros(pairs.shape[0], dtype=bool)
    seated[table[0]] = True
    while len(table) < k:
        line = np.array(waiting, dtype=np.intp)
        shared = np.where(seated[line], np.iinfo(np.int64).max, with_table[line])
        bot = waiting.pop(int(np.argmin(shared)))
        table.append(bot)
        with_table += pairs[bot]
        seated[bot] = True
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
        self.at_table = _summed(tables, pairs)
        self.made = 0
        self.sideways = 0

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
        in_a = np.zeros(pairs.shape[0], dtype=bool)
        in_a[rest_a] = True
        bad = (tables == x).any(axis=1, keepdims=True) | in_a[tables]
        delta = np.where(bad, np.iinfo(np.int64).max, delta)
        low = int(delta.min())
        if low > 0:
            return
        # The best swap, a seeded choice among equals; one that leaves Σ pairs² as it is moves
        # along a plateau of equal designs, out of a local minimum.
        choices = np.flatnonzero(delta == low)
        best = int(choices[self.rng.randrange(len(choices))])
        b, seat = divmod(best, k)
        _swap(tables, pairs, self.at_table, (a, pos, b, seat))
        if low < 0:
            self.made += 1
        else:
            self.sideways += 1


def _tabu(
    tables: NDArray[np.intp], pairs: NDArray[np.int64], rng: random.Random
) -> NDArray[np.intp]:
    """Tabu search from ``tables`` while pair counts differ by more than one: each step takes a pair
    whose count lies outside the mean's floor and ceiling, and makes the best swap (even a worsening
    one) of one of its bots out of a table it holds, except swaps that would undo a recent one
    unless they give the lowest ``Σ pairs²`` yet. Ends at a spread of one (the least ``Σ pairs²``
    the total allows) or after TABU_STEPS steps; returns the most even tables met, and leaves
    ``pairs`` counting them."""
    m, k = tables.shape
    n = pairs.shape[0]
    upper = np.triu_indices(n, 1)
    counts = pairs[upper]
    if (m < 2 or n <= k or int(counts.max() - counts.min()) <= 1
            or not even_possible(np.bincount(tables.ravel(), minlength=n), k)):
        return tables
    total, size = int(counts.sum()), int(counts.size)
    low, rest = divmod(total, size)
    least = (size - rest) * low * low + rest * (low + 1) ** 2
    high = low + (rest > 0)
    score = int((counts**2).sum())
    best_score, best = score, tables.copy()
    banned = np.zeros((n, m), dtype=np.int64)  # step until which a bot may not go back to a table
    big = np.iinfo(np.int64).max // 4
    at_table = _summed(tables, pairs)
    last_best = 0
    for step in range(1, min(TABU_STEPS, TABU_WORK // m) + 1):
        if score == least or step - last_best > TABU_STALL:
            break
        off = (pairs > high) | (pairs < low)
        np.fill_diagonal(off, False)
        outside = np.flatnonzero(off)
        u, v = divmod(int(outside[rng.randrange(len(outside))]), n)
        holds_u, holds_v = (tables == u).any(axis=1), (tables == v).any(axis=1)
        if pairs[u, v] > high:  # u or v leaves a table they share
            rows = np.flatnonzero(holds_u & holds_v)
            a = int(rows[rng.randrange(len(rows))])
            seats = [(a, u), (a, v)]
        else:  # u or v leaves one of its tables, for one with the other
            rows_u, rows_v = np.flatnonzero(holds_u), np.flatnonzero(holds_v)
            seats = [(int(rows_u[rng.randrange(len(rows_u))]), u),
                     (int(rows_v[rng.randrange(len(rows_v))]), v)]
        move: tuple[int, int, int, int] | None = None
        lowest = big
        for a, x in seats:
            pos = int(np.flatnonzero(tables[a] == x)[0])
            delta = _swap_deltas(tables, pairs, at_table, a, pos)
            undo = (banned[x][None, :, None] > step) | (banned[tables, a] > step)
            delta = np.where(undo & (score + delta >= best_score), big, delta)
            low_here = int(delta.min())
            if low_here < lowest:
                choices = np.flatnonzero(delta == low_here)
                b, seat = divmod(int(choices[rng.randrange(len(choices))]), k)
                lowest, move = low_here, (a, pos, b, seat)
        if move is None:
            continue
        a, pos, b, seat = move
        x, y = int(tables[a, pos]), int(tables[b, seat])
        _swap(tables, pairs, at_table, move)
        score += lowest
        tenure = rng.randint(TABU_TENURE, 2 * TABU_TENURE)
        banned[x, a] = banned[y, b] = step + tenure
        if score < best_score:
            best_score, best, last_best = score, tables.copy(), step
    pairs[:] = 0
    for row in best:
        _count(row, pairs, 1)
    return best


def _summed(tables: NDArray[np.intp], pairs: NDArray[np.int64]) -> NDArray[np.int64]:
    """Per seat, the seated bot's pair counts with its table-mates, summed."""
    summed: NDArray[np.int64] = pairs[tables[:, :, None], tables[:, None, :]].sum(axis=2)
    return summed


def _swap_deltas(
    tables: NDArray[np.intp],
    pairs: NDArray[np.int64],
    at_table: NDArray[np.int64],
    a: int,
    pos: int,
) -> NDArray[np.int64]:
    """Per seat of ``tables``, how ``Σ pairs²`` changes when its bot and the bot at ``tables[a, pos]``
    swap tables; the largest int64 quarter where the swap is not allowed (a bot twice at a table)."""
    k = tables.shape[1]
    x = int(tables[a, pos])
    rest_a = np.delete(tables[a], pos)
    # x leaves a for table b, y leaves b for a. Each pair count c that drops changes Σ pairs² by
    # 1 - 2c, each that rises by 1 + 2c; a bot z at both tables keeps its counts with x and y,
    # where the sum would count 4 for it.
    with_rest_a = pairs[:, rest_a].sum(axis=1)
    px = pairs[x][tables]
    x_at_b = px.sum(axis=1, keepdims=True) - px
    mark = np.zeros(pairs.shape[0], dtype=bool)
    mark[rest_a] = True
    in_a = mark[tables]
    common = in_a.sum(axis=1, keepdims=True)
    delta = 4 * (k - 1 - common) + 2 * (
        with_rest_a[tables] - with_rest_a[x] + x_at_b - at_table
    )
    bad = (tables == x).any(axis=1, keepdims=True) | in_a
    result: NDArray[np.int64] = np.where(bad, np.iinfo(np.int64).max // 4, delta)
    return result


def _swap(
    tables: NDArray[np.intp],
    pairs: NDArray[np.int64],
    at_table: NDArray[np.int64],
    move: tuple[int, int, int, int],
) -> None:
    """Swap the bots at seats ``(a, pos)`` and ``(b, seat)``, keeping ``pairs`` and ``at_table``."""
    a, pos, b, seat = move
    moved = np.zeros(pairs.shape[0], dtype=bool)
    moved[tables[a]] = moved[tables[b]] = True
    _count(tables[a], pairs, -1)
    _count(tables[b], pairs, -1)
    tables[a, pos], tables[b, seat] = tables[b, seat], tables[a, pos]
    _count(tables[a], pairs, 1)
    _count(tables[b], pairs, 1)
    # A changed count is of two bots of a or b: only tables holding two of them see it.
    touched = np.flatnonzero(moved[tables].sum(axis=1) >= 2)
    at_table[touched] = _summed(tables[touched], pairs)


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
