"""What the Liar's Dice search bot knows of the game: a quick policy, a playout and an estimate.

The quick policy (:func:`quick_action`) plays as a seat that sees only its own dice would: it
expects each face to show on ``own matching dice + hidden dice x chance`` dice (chance 1/6, or 1/3
when ones are wild), calls a bid that exceeds that expectation by more than :data:`DOUBT`, and
otherwise raises to the cheapest bid on its best face, which it calls in turn when even that
is out of reach. The search (:mod:`liars_dice.bot`) plays every round on with it from where its
tree ends, and scores the position with :func:`estimate`.
"""

from __future__ import annotations

import random

from .rules import CHALLENGE, FACES
from .state import LiarsDiceState

#: Dice above the expectation at which a bid is called.
DOUBT = 0.5
#: Share of quick raises that go one die further than the cheapest (so playouts vary).
BOLD = 0.2
#: Estimate units per die held; a seat outlasted is worth a full hand of dice more.
DIE_VALUE = 3.0


def expected(state: LiarsDiceState, seat: int, face: int) -> float:
    """How many dice ``seat`` expects to count as ``face``, from its own dice and the hidden count."""
    own = state.dice[seat]
    hidden = state.dice_in_play() - len(own)
    chance = (2 if state.rules.wild else 1) / FACES
    return state.rules.matching(own, face) + hidden * chance


def quick_action(state: LiarsDiceState, seat: int, rng: random.Random) -> int:
    """The quick policy's action for ``seat`` (which must be to act); see the module docstring.

    An opening bid is a die below the expectation of the best face (at least 1)."""
    rules = state.rules
    best = max(rules.faces, key=lambda f: (expected(state, seat, f), rng.random()))
    reach = expected(state, seat, best) + DOUBT
    on_table = state.dice_in_play()
    if state.bid == CHALLENGE:
        quantity = max(1, min(on_table, int(reach) - 1))
        return rules.bid_id(quantity, best)
    standing, face = rules.bid_of(state.bid)
    if standing > expected(state, seat, face) + DOUBT:
        return CHALLENGE
    quantity = standing if best > face else standing + 1
    if quantity < on_table and rng.random() < BOLD:
        quantity += 1
    if quantity > reach or quantity > on_table:
        return CHALLENGE
    return rules.bid_id(quantity, best)


def play_round(state: LiarsDiceState, rng: random.Random) -> None:
    """Play ``state`` on with the quick policy until the round ends (a challenge) or the game does."""
    round_ = state.round
    while not state.is_over() and state.round == round_:
        seat = state.turn
        state.apply(seat, quick_action(state, seat, rng))


def estimate(state: LiarsDiceState) -> list[float]:
    """Each seat's worth: its dice, plus a hand of dice for every seat it has outlasted."""
    hand = state.rules.dice + 1
    outlasted = len(state.out)
    return [
        DIE_VALUE * (len(held) + hand * (state.out.index(s) if s in state.out else outlasted))
        for s, held in enumerate(state.dice)
    ]
