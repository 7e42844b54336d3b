"""Observations built from kept parts: exactly the observations built from nothing, at every step of
random games of every game, variant and player count; unchanged parts handed out as the same
objects, changed ones as new objects; nothing handed out ever changed afterwards; copies of a state
keeping parts of their own.

"Cold" observations come from a fresh :meth:`State.clone` (which keeps no parts) and, at some steps,
from a state rebuilt by :func:`engine.core.replay`.
"""

from __future__ import annotations

import random

import msgpack
import pytest
from game_setups import Setup, every_setup
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.core import Decision, State, Wire, WireMap, replay

SETUPS = every_setup()
IDS = [setup.id for setup in SETUPS]
SEEDS = st.integers(min_value=0, max_value=2**63 - 1)
#: Seeds of the random players' choices.
PLAYS = st.integers(min_value=0, max_value=2**32 - 1)
#: Every how many decisions the played state is checked against a replay of the match so far.
REPLAY_EVERY = st.integers(min_value=15, max_value=60)


def identical(a: Wire, b: Wire) -> bool:
    """Equal, with the same types all the way down and maps' keys in the same order (the ``repr``
    of plain data shows both: ``[`` or ``(``, ``1`` or ``True``, ``1`` or ``1.0``, key order)."""
    return a == b and repr(a) == repr(b)


def check_parts_kept_exactly(before: WireMap, after: WireMap) -> None:
    """Each list or map part of ``after`` is the very object in ``before`` exactly when it is equal
    to it (at most one decision between the two observations)."""
    for key, part in after.items():
        if isinstance(part, (list, dict)) and key in before:
            assert (part is before[key]) == (part == before[key]), key


def check_cold(state: State, seat: int, warm: WireMap) -> None:
    """``warm`` is exactly what a copy of ``state`` that kept nothing observes."""
    cold = state.clone().observation(seat)
    assert identical(warm, cold), (seat, [k for k in cold if not identical(warm.get(k), cold[k])], list(warm))


def play_checked(setup: Setup, seed: int, play: int, replay_every: int) -> None:
    """A random game observed by every seat at every step, every observation checked."""
    game, config = setup.game, setup.config
    rng = random.Random(play)
    seats = range(config.players)
    state = game.start(config, seed)
    decisions: list[Decision] = []
    previous: list[WireMap | None] = [None] * config.players
    handed_out: list[tuple[WireMap, bytes]] = []
    while True:
        for seat in seats:
            warm = state.observation(seat)
            check_cold(state, seat, warm)
            before = previous[seat]
            if before is not None:
                check_parts_kept_exactly(before, warm)
            previous[seat] = warm
            handed_out.append((warm, msgpack.packb(warm)))
        if len(decisions) % replay_every == 0 or state.is_over():
            rebuilt = replay(game, config, seed, decisions)
            for seat in seats:
                assert identical(rebuilt.observation(seat), state.observation(seat))
        if state.is_over():
            break
        seat = rng.choice(state.to_move())
        action = rng.choice(state.legal_actions(seat))
        decisions.append((seat, action))
        state.apply(seat, action)
    assert all(msgpack.packb(seen) == packed for seen, packed in handed_out), "a part handed out was changed"


_QUICK = settings(max_examples=1, deadline=None, suppress_health_check=[HealthCheck.too_slow])
_LONG = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.parametrize("setup", SETUPS, ids=IDS)
@_QUICK
@given(seed=SEEDS, play=PLAYS, replay_every=REPLAY_EVERY)
def test_observations_equal_cold_ones_at_every_step(setup: Setup, seed: int, play: int, replay_every: int) -> None:
    """Warm observations equal cold ones exactly; parts are kept exactly while unchanged."""
    play_checked(setup, seed, play, replay_every)


@pytest.mark.slow
@pytest.mark.parametrize("setup", SETUPS, ids=IDS)
@_LONG
@given(seed=SEEDS, play=PLAYS, replay_every=REPLAY_EVERY)
def test_observations_equal_cold_ones_at_every_step_long(
    setup: Setup, seed: int, play: int, replay_every: int
) -> None:
    """The same over many more games."""
    play_checked(setup, seed, play, replay_every)


@pytest.mark.parametrize("setup", SETUPS, ids=IDS)
@_QUICK
@given(seed=SEEDS, play=PLAYS)
def test_copies_keep_parts_of_their_own(setup: Setup, seed: int, play: int) -> None:
    """A clone played on (or a determinized copy) observes what it should, and the state it was
    copied from still hands out the very parts it did before."""
    game, config = setup.game, setup.config
    rng = random.Random(play)
    seats = range(config.players)
    state = game.start(config, seed)
    while not state.is_over():
        if rng.random() < 0.15:
            before = [state.observation(seat) for seat in seats]
            for copy in (state.clone(), state.determinize(rng.choice(seats), rng)):
                for _ in range(rng.randint(1, 4)):
                    for seat in seats:
                        check_cold(copy, seat, copy.observation(seat))
                    if copy.is_over():
                        break
                    mover = rng.choice(copy.to_move())
                    copy.apply(mover, rng.choice(copy.legal_actions(mover)))
                for seat in seats:
                    check_cold(copy, seat, copy.observation(seat))
            for seat in seats:
                again = state.observation(seat)
                assert identical(again, before[seat])
                assert all(
                    again[key] is part for key, part in before[seat].items() if isinstance(part, (list, dict))
                ), seat
        mover = rng.choice(state.to_move())
        state.apply(mover, rng.choice(state.legal_actions(mover)))
    for seat in seats:
        check_cold(state, seat, state.observation(seat))
