"""Whole games of Liar's Dice: seeded random playouts for 2-6 players, replay, clones, the leak
audit, msgpack, and states sampled from observations."""

from __future__ import annotations

import random

import msgpack
import pytest

from engine.core import MatchConfig, State, Wire, replay
from liars_dice import GAME
from liars_dice.rules import CHALLENGE
from liars_dice.state import LiarsDiceState

SETUPS = [(players, variant) for variant in ("standard", "wild-ones") for players in range(2, 7)]
IDS = [f"{variant}-{players}p" for players, variant in SETUPS]


def packed(value: Wire) -> Wire:
    """``value`` after a msgpack round trip (fails the test if it cannot be packed)."""
    result: Wire = msgpack.unpackb(msgpack.packb(value, use_bin_type=True), raw=False)
    return result


def random_game(config: MatchConfig, seed: int, policy_seed: int) -> tuple[LiarsDiceState, list[tuple[int, int]]]:
    state = GAME.start(config, seed)
    assert isinstance(state, LiarsDiceState)
    rng = random.Random(policy_seed)
    decisions = []
    while not state.is_over():
        seat = state.to_move()[0]
        action = rng.choice(state.legal_actions(seat))
        state.apply_checked(seat, action)
        decisions.append((seat, action))
    return state, decisions


@pytest.mark.parametrize(("players", "variant"), SETUPS, ids=IDS)
def test_random_games_keep_the_rules_and_end_with_elimination_ranks(players: int, variant: str) -> None:
    config = GAME.configure(players, variant)
    state = GAME.start(config, 7)
    assert isinstance(state, LiarsDiceState)
    rng = random.Random(players)
    total = players * 5
    while not state.is_over():
        (seat,) = state.to_move()
        legal = state.legal_actions(seat)
        assert legal == sorted(set(legal)) and legal
        assert (CHALLENGE in legal) == (state.bid != CHALLENGE)
        assert all(a > state.bid for a in legal if a != CHALLENGE)
        assert all(state.legal_actions(o) == [] for o in range(players) if o != seat)
        assert sum(len(d) for d in state.dice) + len(state.out) <= total
        before = state.dice_in_play()
        action = rng.choice(legal)
        state.apply(seat, action)
        assert state.dice_in_play() == before - (action == CHALLENGE)
    result = state.result()
    assert sorted(result.ranks) == list(range(1, players + 1)), "no ties: elimination order"
    winner = result.ranks.index(1)
    assert state.alive() == [winner] and len(state.out) == players - 1
    assert [result.ranks[s] for s in reversed(state.out)] == list(range(2, players + 1))
    assert packed(result.detail) == result.detail
    for seat in (None, *range(players)):
        assert state.render(seat).strip()


@pytest.mark.parametrize(("players", "variant"), SETUPS, ids=IDS)
def test_same_seed_and_decisions_replay_the_same_game(players: int, variant: str) -> None:
    config = GAME.configure(players, variant)
    first, decisions = random_game(config, seed=11, policy_seed=3)
    again, same = random_game(config, seed=11, policy_seed=3)
    assert decisions == same and first.result() == again.result()
    rebuilt = replay(GAME, config, 11, decisions)
    for seat in range(players):
        assert rebuilt.observation(seat) == first.observation(seat)
        assert rebuilt.events(seat) == first.events(seat)
    other = GAME.start(config, 12)
    assert [other.observation(s)["dice"] for s in range(players)] != [
        GAME.start(config, 11).observation(s)["dice"] for s in range(players)
    ]


def test_clones_are_independent() -> None:
    state, _ = random_game(GAME.configure(4), seed=5, policy_seed=1)
    start = GAME.start(GAME.configure(4), 5)
    rng = random.Random(2)
    for _ in range(6):
        seat = start.to_move()[0]
        start.apply(seat, rng.choice(start.legal_actions(seat)))
    views = [start.observation(s) for s in range(4)]
    copy = start.clone()
    while not copy.is_over():
        seat = copy.to_move()[0]
        copy.apply(seat, rng.choice(copy.legal_actions(seat)))
    assert [start.observation(s) for s in range(4)] == views
    assert not start.is_over()


@pytest.mark.parametrize(("players", "variant"), SETUPS, ids=IDS)
def test_an_observation_never_shows_another_seats_hidden_dice(players: int, variant: str) -> None:
    """Rolling every other seat's dice anew, or turning each of them over, changes nothing a seat
    sees; its private events show its own dice only; every observation and event packs."""
    config = GAME.configure(players, variant)
    state = GAME.start(config, 21)
    rng = random.Random(4)
    cursors = [0] * players
    while not state.is_over():
        for seat in range(players):
            seen = state.observation(seat)
            assert packed(seen) == seen
            assert seen["dice"] == sorted(state.dice[seat])
            for _ in range(2):
                other = state.determinize(seat, random.Random(rng.getrandbits(32)))
                assert other.observation(seat) == seen
                assert other.legal_actions(seat) == state.legal_actions(seat)
                assert other.to_move() == state.to_move()
                assert other.dice[seat] == state.dice[seat]
            shown = state.clone()
            shown.dice = [held if o == seat else [7 - d for d in held] for o, held in enumerate(state.dice)]
            assert shown.observation(seat) == seen, "another seat's dice changed what this seat sees"
            events, cursors[seat] = state.events(seat, cursors[seat])
            assert packed(events) == events
            for event in events:
                if event["type"] == "rolled":
                    assert event["dice"] == sorted(state.dice[seat])
        seat = state.to_move()[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))


def test_determinize_rolls_others_anew_and_reseeds_the_future() -> None:
    state = GAME.start(GAME.configure(3), 8)
    assert isinstance(state, LiarsDiceState)
    rolls = {tuple(map(tuple, state.determinize(0, random.Random(k)).dice[1:])) for k in range(20)}
    assert len(rolls) > 15, "the other seats' dice are resampled"
    a = state.determinize(0, random.Random(1))
    b = state.determinize(0, random.Random(1))
    assert a.dice == b.dice and a.chance == b.chance != state.chance


@pytest.mark.parametrize(("players", "variant"), SETUPS, ids=IDS)
def test_states_sampled_from_observations_look_the_same_and_play_on(players: int, variant: str) -> None:
    config = GAME.configure(players, variant, {"dice": 3})
    state = GAME.start(config, 31)
    rng = random.Random(6)
    while True:
        for seat in range(players):
            seen = packed(state.observation(seat))
            assert isinstance(seen, dict)
            sample: State = GAME.sample_state(config, seat, seen, random.Random(rng.getrandbits(32)))
            assert sample.observation(seat) == state.observation(seat)
            assert sample.to_move() == state.to_move()
            assert sample.legal_actions(seat) == state.legal_actions(seat)
            while not sample.is_over():
                mover = sample.to_move()[0]
                sample.apply(mover, rng.choice(sample.legal_actions(mover)))
        if state.is_over():
            break
        seat = state.to_move()[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))


def test_sampling_refuses_what_this_game_could_not_have_shown() -> None:
    config = GAME.configure(3)
    seen = GAME.start(config, 1).observation(0)
    rng = random.Random(0)
    with pytest.raises(ValueError, match="another game, setup or seat"):
        GAME.sample_state(config, 1, seen, rng)
    with pytest.raises(ValueError, match="not a Liar's Dice observation"):
        GAME.sample_state(config, 0, {"seat": 0}, rng)
    with pytest.raises(ValueError, match="do not add up"):
        GAME.sample_state(config, 0, {**seen, "dice": [1, 2]}, rng)
    with pytest.raises(ValueError, match="no face"):
        GAME.sample_state(config, 0, {**seen, "dice": [0, 1, 2, 3, 4]}, rng)
