"""Games for leaderboard tests: match records built the way the referee leaves them, handed to the
leaderboard the way the arena does (:func:`arena.rating_input.rated_game`)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from arena.rating_input import rated_game
from arena.record import DecisionRecord, Fault, MatchRecord
from leaderboards.results import RatedGame


def record(
    bots: Sequence[str],
    ranks: Sequence[int],
    seed: int = 0,
    game: str = "wongar",
    decisions: Sequence[DecisionRecord] = (),
    faults: Sequence[Fault] = (),
    forfeited: Sequence[int] = (),
) -> RatedGame:
    """A finished match with these seats and places (scores mirror the places)."""
    return rated_game(MatchRecord(
        game=game,
        version=1,
        variant="basic",
        knobs={},
        seed=seed,
        bots=tuple(bots),
        decisions=tuple(decisions),
        faults=tuple(faults),
        scores=tuple(10 - r for r in ranks),
        ranks=tuple(ranks),
        forfeited=tuple(forfeited),
    ))


def ordered(order: Sequence[str], seed: int = 0) -> RatedGame:
    """A game whose seats, in the order given, finished in that order (best first)."""
    return record(order, range(1, len(order) + 1), seed=seed)


MEEPLE_PENTATHLON = [
    ordered(["A", "B", "C"], 1),
    ordered(["A", "C", "B"], 2),
    ordered(["C", "A", "B"], 3),
    ordered(["C", "A", "B"], 4),
    ordered(["B", "C", "A"], 5),
]


def duplicate_tournament(
    strengths: dict[str, float], deals: int, players: int, seed: int
) -> list[RatedGame]:
    """Random tables of ``players`` bots; each deal played under every rotation of its seats.

    Places come from Gumbel noise on the strengths (a Plackett–Luce draw); seat 0 has a small edge.
    """
    rng = np.random.default_rng(seed)
    names = sorted(strengths)
    records: list[RatedGame] = []
    for deal in range(deals):
        table = [names[i] for i in rng.choice(len(names), players, replace=False)]
        for shift in range(players):
            seated = table[shift:] + table[:shift]
            noisy = [strengths[b] + rng.gumbel() + (0.2 if s == 0 else 0.0) for s, b in enumerate(seated)]
            ranks = [1 + sum(1 for other in noisy if other > mine) for mine in noisy]
            records.append(record(seated, ranks, seed=deal))
    return records
