"""The swiss format's rounds: tables of bots of similar standing, a pure function of the seed, the
round number and the results of the rounds before.

Standing: pairwise points over every game played so far, 2 for each opponent finished above and 1
for each tie, divided by the games played (integers, so the order is exact and never depends on
floating point or on the order games were stored). Round 0 has no results: its order is a seeded
shuffle, so its tables are drawn at random. Each round seats ``len(field) // table_size`` tables;
the ``len(field) % table_size`` bots left out (a bye) are those with the fewest byes so far, then
the lowest standing. The rest, best first (seeded order among equals), are cut into consecutive
pods of ``table_size``.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction


@dataclass(frozen=True, slots=True)
class Result:
    """A finished game: ``bots[s]`` finished at ``ranks[s]`` (1 best, ties share a rank)."""

    bots: tuple[str, ...]
    ranks: tuple[int, ...]


def points(results: Iterable[Result]) -> tuple[dict[str, int], dict[str, int]]:
    """Pairwise points (2 per opponent beaten, 1 per tie) and games, per bot."""
    scored: dict[str, int] = {}
    games: dict[str, int] = {}
    for result in results:
        for seat, bot in enumerate(result.bots):
            mine = result.ranks[seat]
            gained = sum(
                2 if mine < theirs else 1 if mine == theirs else 0
                for other, theirs in enumerate(result.ranks)
                if other != seat
            )
            scored[bot] = scored.get(bot, 0) + gained
            games[bot] = games.get(bot, 0) + 1
    return scored, games


def standing_order(
    names: Sequence[str], results: Iterable[Result], seed: int
) -> list[str]:
    """``names`` best first by points per game (none played: 0), seeded order among equals."""
    scored, games = points(results)
    rng = random.Random(seed)
    shuffled = list(names)
    rng.shuffle(shuffled)
    tiebreak = {name: i for i, name in enumerate(shuffled)}

    def average(name: str) -> Fraction:
        played = games.get(name, 0)
        return Fraction(scored.get(name, 0), played) if played else Fraction(0)

    return sorted(names, key=lambda name: (-average(name), tiebreak[name]))


def round_tables(
    names: Sequence[str],
    table_size: int,
    results: Iterable[Result],
    byes: dict[str, int],
    seed: int,
) -> tuple[list[tuple[str, ...]], list[str]]:
    """One round: its tables (bots of a table in field order) and the bots on a bye. ``byes``
    counts each bot's byes so far; ``seed`` is the round's own."""
    order = standing_order(names, results, seed)
    rank = {name: i for i, name in enumerate(order)}
    left_out = len(names) % table_size
    bye = sorted(order, key=lambda n: (byes.get(n, 0), -rank[n]))[:left_out]
    seated = [n for n in order if n not in bye]
    position = {name: i for i, name in enumerate(names)}
    tables = [
        tuple(sorted(seated[i : i + table_size], key=position.__getitem__))
        for i in range(0, len(seated), table_size)
    ]
    return tables, sorted(bye, key=position.__getitem__)
