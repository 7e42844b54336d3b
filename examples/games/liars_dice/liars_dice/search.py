"""Determinized Monte Carlo for Liar's Dice: a bandit over a few candidate actions at the root.

Each iteration rolls the other seats' dice anew (``determinize``), plays one candidate action,
plays the round out (unless that action was the challenge that ends it) with the quick policy
(:func:`liars_dice.heuristics.play_round`), in which
every seat sees only its own dice, and scores the position with the estimate, as a reward in
(0, 1) (:func:`bots.heuristics.rewards`). Candidates are chosen by UCB1; the answer is the most
tried. A deeper tree that shares its nodes across rolls lets the other seats' replies fit the
searcher's own dice, which never change between rolls (they would always catch its bluffs), so
the search stays at the root and the playout keeps every seat to what it can see.

Candidates: the challenge when legal, and on every face the cheapest raise and the
:data:`STEPS` - 1 raises just above it; bids further up only ever lose more dice.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable

from bots.heuristics import rewards
from bots.shared.tree_search import EXPLORATION, Verdict

from .heuristics import estimate, play_round
from .rules import CHALLENGE
from .state import LiarsDiceState

#: Raises considered on each face: the cheapest and the ones just above it.
STEPS = 3


def candidates(state: LiarsDiceState, legal: tuple[int, ...]) -> list[int]:
    """The actions worth trying among ``legal`` (ascending): see the module docstring."""
    rules = state.rules
    allowed = set(legal)
    chosen = [CHALLENGE] if CHALLENGE in allowed else []
    for face in rules.faces:
        raises = [a for a in legal if a != CHALLENGE and rules.bid_of(a)[1] == face]
        chosen += raises[:STEPS]
    return sorted(chosen)


def search(
    root: LiarsDiceState,
    seat: int,
    legal: tuple[int, ...],
    more: Callable[[int], bool],
    rng: random.Random,
) -> Verdict:
    """The most tried candidate after iterating while ``more(iterations)`` (at least once)."""
    arms = candidates(root, legal)
    visits = dict.fromkeys(arms, 0)
    totals = dict.fromkeys(arms, 0.0)
    iterations = 0
    while iterations == 0 or more(iterations):
        untried = [a for a in arms if visits[a] == 0]
        if untried:
            arm = rng.choice(untried)
        else:
            log_total = math.log(iterations)
            arm = max(arms, key=lambda a: totals[a] / visits[a] + EXPLORATION * math.sqrt(log_total / visits[a]))
        deal = root.determinize(seat, rng)
        deal.apply(seat, arm)
        if deal.round == root.round:  # a challenge ends the round itself
            play_round(deal, rng)
        visits[arm] += 1
        totals[arm] += rewards(estimate(deal))[seat]
        iterations += 1
    best = max(arms, key=lambda a: (visits[a], totals[a] / visits[a] if visits[a] else 0.0))
    return Verdict(best, iterations, totals[best] / visits[best] if visits[best] else 0.0)
