"""The engine contract, checked over every registered game, variant and player count.

The checks are ``arena game check``'s (:mod:`arena.gamekit.checks`), one test per check and setup; a
new game joins them by registering itself. Nothing here names a game, beyond the two that ship.
"""

from __future__ import annotations

import random

import pytest
from game_setups import Setup, every_setup

from arena.gamekit.checks import CHECKS, Check, Sizes
from arena.gamekit.setups import random_decision
from engine.core import State
from engine.registry import games

SETUPS = every_setup()
IDS = [s.id for s in SETUPS]
#: Two seeds a setup by default; three more in the ``slow`` tier.
SEEDS = [pytest.param((1, 2), id="seeds-1-2"), pytest.param((3, 4, 5), id="seeds-3-5", marks=pytest.mark.slow)]


def test_games_are_registered() -> None:
    keys = set(games())
    assert {k.split("@")[0] for k in keys} >= {"wongar", "waroong"}


@pytest.mark.parametrize("seeds", SEEDS)
@pytest.mark.parametrize("check", CHECKS, ids=[c.name.replace(" ", "-") for c in CHECKS])
@pytest.mark.parametrize("setup", SETUPS, ids=IDS)
def test_the_contract_holds(setup: Setup, check: Check, seeds: tuple[int, ...]) -> None:
    check.run(setup, seeds, Sizes())


def _inventory(state: State) -> dict[str, int] | None:
    method = getattr(state, "inventory", None)
    return None if method is None else dict(method())


@pytest.mark.parametrize("setup", SETUPS, ids=IDS)
def test_pieces_and_cards_are_conserved(setup: Setup) -> None:
    """A game that counts its pieces and cards (``inventory``) neither makes nor loses any, and a
    state resampled for a seat holds the same; its result names the rounds played and the end."""
    state = setup.game.start(setup.config, 61)
    start = _inventory(state)
    rng = random.Random(13)
    while not state.is_over():
        assert _inventory(state) == start, "pieces or cards appeared or vanished"
        if rng.random() < 0.1:
            seat = state.to_move()[0]
            assert _inventory(state.determinize(seat, random.Random(rng.getrandbits(32)))) == start
        state.apply(*random_decision(state, rng))
    assert _inventory(state) == start
    detail = state.result().detail
    assert isinstance(detail.get("rounds"), int) and detail["rounds"] > 0
    assert isinstance(detail.get("end"), str)
