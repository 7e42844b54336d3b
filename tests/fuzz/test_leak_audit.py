"""Leak audit: for many random states of every game, perturb everything one seat cannot see
(``State.determinize`` resamples exactly that) and check that every frame the referee would send
that seat is byte-identical: each ``act`` (observation, legal ids, the events since its previous
``act``) and the final ``end``. The frames are built with the referee's message types and codec.

Default: ``ARENA_LEAK_PLAYOUTS`` (1) playout per setup, every decision audited for each seat to
move, three perturbations each; ``pytest -m slow``: ``ARENA_LEAK_PLAYOUTS_LONG`` (12) playouts per setup.
"""

from __future__ import annotations

import os
import random

import pytest
from game_setups import every_setup

from arena.clock import SeatClock, TimeControl
from engine.core import Game, MatchConfig, State
from protocols.codec import encode
from protocols.messages import Act, End

SHORT = int(os.environ.get("ARENA_LEAK_PLAYOUTS", "1"))
LONG = int(os.environ.get("ARENA_LEAK_PLAYOUTS_LONG", "12"))
PERTURBATIONS = 3
SETUPS = [(setup.game, setup.config) for setup in every_setup()]
IDS = [setup.id for setup in every_setup()]
CLOCK = SeatClock(TimeControl(1.0, bank=10.0, increment=0.1)).wire()


def act_frame(state: State, seat: int, since: int, seq: int, ply: int) -> bytes:
    """The ``act`` the referee sends ``seat`` in ``state`` after ``ply`` decisions, its previous
    request at log position ``since``."""
    events, _ = state.events(seat, since)
    act = Act(seq, seat, ply, state.observation(seat), tuple(state.legal_actions(seat)), list(events), CLOCK)
    return encode(act)


def end_frame(state: State, seat: int, since: int, scores: tuple[int, ...], ranks: tuple[int, ...]) -> bytes:
    """The ``end`` the referee sends ``seat`` (with the match's real result)."""
    events, _ = state.events(seat, since)
    return encode(End("audit", seat, scores, ranks, (), list(events)))


def audit(game: Game, config: MatchConfig, seed: int) -> tuple[int, int]:
    """Play one random game auditing every frame; (frames compared, perturbations that changed
    what some other seat sees)."""
    state = game.start(config, seed)
    rng = random.Random(seed * 31 + 7)
    since = [0] * config.players
    compared = changed = 0
    seq = ply = 0
    while not state.is_over():
        movers = state.to_move()
        for seat in movers:
            seq += 1
            frame = act_frame(state, seat, since[seat], seq, ply)
            for _ in range(PERTURBATIONS):
                other = state.determinize(seat, random.Random(rng.getrandbits(64)))
                assert act_frame(other, seat, since[seat], seq, ply) == frame, (
                    f"seat {seat} can tell hidden information apart at ply {ply}"
                )
                compared += 1
                changed += any(
                    other.observation(o) != state.observation(o) for o in range(config.players) if o != seat
                )
            since[seat] = state.events(seat, since[seat])[1]
        seat = rng.choice(movers)
        state.apply(seat, rng.choice(state.legal_actions(seat)))
        ply += 1
    result = state.result()
    for seat in range(config.players):
        frame = end_frame(state, seat, since[seat], result.scores, result.ranks)
        other = state.determinize(seat, random.Random(rng.getrandbits(64)))
        assert end_frame(other, seat, since[seat], result.scores, result.ranks) == frame
        compared += 1
    return compared, changed


def _run(game: Game, config: MatchConfig, playouts: int, base: int) -> None:
    totals = [audit(game, config, base + i) for i in range(playouts)]
    compared = sum(c for c, _ in totals)
    changed = sum(c for _, c in totals)
    assert compared > 0
    # The audit means something only if the perturbations really change hidden information.
    assert changed > compared // 10, f"only {changed} of {compared} perturbations changed anything"


@pytest.mark.parametrize(("game", "config"), SETUPS, ids=IDS)
def test_a_seat_is_sent_the_same_bytes_whatever_it_cannot_see(game: Game, config: MatchConfig) -> None:
    _run(game, config, SHORT, 500)


@pytest.mark.slow
@pytest.mark.parametrize(("game", "config"), SETUPS, ids=IDS)
def test_a_seat_is_sent_the_same_bytes_whatever_it_cannot_see_long(game: Game, config: MatchConfig) -> None:
    _run(game, config, LONG, 5000)
