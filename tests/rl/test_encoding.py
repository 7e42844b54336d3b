"""Encoders: the generic layout's known answers, fixed sizes, determinism, and the leak audit on
the vectors (states that differ only in what a seat cannot see encode the same for that seat)."""

from __future__ import annotations

import random

import msgpack
import pytest

from arena.gamekit.setups import Setup, game_setups, random_decision
from engine.encoding import Encoder, GenericEncoder, sample_observations
from engine.registry import games, get_game
from game_setups import every_setup


def test_the_generic_layout_of_known_samples() -> None:
    encoder = GenericEncoder([{"n": 1, "b": None, "s": "x", "l": [1, 2]}, {"n": 2, "b": 3, "s": "y", "l": []}])
    assert [(f.name, f.length) for f in encoder.fields()] == [
        ("b?null", 1), ("b", 1), ("l.length", 1), ("l[0]", 1), ("l[1]", 1), ("n", 1), ("s", 2),
    ]
    assert encoder.size == 8
    assert encoder.encode({"n": 5, "b": None, "s": "y", "l": [7]}) == [1, 0, 1, 7, 0, 5, 0, 1]
    # A string never sampled is all zeros; a key never sampled is left out; True is 1.
    assert encoder.encode({"n": True, "b": 4, "s": "z", "l": [], "new": 9}) == [0, 4, 0, 0, 0, 1, 0, 0]


def test_a_long_list_keeps_its_last_items() -> None:
    encoder = GenericEncoder([{"h": list(range(40))}])
    vector = encoder.encode({"h": list(range(40))})
    assert vector[0] == 40 and vector[1:] == [float(i) for i in range(24, 40)]


def representative() -> list[Setup]:
    """Each game's first variant with its fewest players (the slow tier takes every setup)."""
    return [game_setups(game)[0] for game in games().values()]


def check_vectors(setup: Setup, seed: int, encoder: Encoder | None = None) -> None:
    """Along a random playout of ``seed``, every seat's vector has the encoder's size, and a state
    resampled in what the seat cannot see (``determinize``, or ``sample_state`` from its observation
    after a msgpack round trip) gives it the same vector."""
    game, config = setup.game, setup.config
    encoder = encoder or game.encoder(config)
    assert sum(f.length for f in encoder.fields()) == encoder.size
    state = game.start(config, seed)
    rng = random.Random(seed)
    audits = 0
    while True:
        if rng.random() < 0.15 or state.is_over():
            audits += 1
            for seat in range(config.players):
                vector = encoder.encode(state.observation(seat))
                assert len(vector) == encoder.size
                other = state.determinize(seat, random.Random(rng.getrandbits(32)))
                assert encoder.encode(other.observation(seat)) == vector, f"{setup.id} seat {seat}"
                wire = msgpack.unpackb(msgpack.packb(state.observation(seat)), raw=False)
                sample = game.sample_state(config, seat, wire, random.Random(rng.getrandbits(32)))
                assert encoder.encode(sample.observation(seat)) == vector, f"{setup.id} seat {seat}"
        if state.is_over():
            break
        state.apply(*random_decision(state, rng))
    assert audits > 1


@pytest.mark.parametrize("setup", representative(), ids=lambda s: s.id)
def test_vectors_hide_what_a_seat_cannot_see(setup: Setup) -> None:
    check_vectors(setup, seed=11)


@pytest.mark.parametrize("setup", representative(), ids=lambda s: s.id)
def test_generic_vectors_hide_what_a_seat_cannot_see(setup: Setup) -> None:
    check_vectors(setup, seed=12, encoder=GenericEncoder(sample_observations(setup.game, setup.config)))


@pytest.mark.slow
@pytest.mark.parametrize("setup", every_setup(), ids=lambda s: s.id)
def test_vectors_hide_what_a_seat_cannot_see_in_every_setup(setup: Setup) -> None:
    for seed in (3, 4, 5):
        check_vectors(setup, seed)


@pytest.mark.parametrize("name", sorted(games()))
def test_a_configuration_always_gets_the_same_layout(name: str) -> None:
    game = games()[name]
    config = game.configure(game.min_players)
    first, second = (GenericEncoder(sample_observations(game, config)) for _ in range(2))
    assert first.fields() == second.fields()
    observation = game.start(config, 77).observation(0)
    assert first.encode(observation) == second.encode(observation)


def test_liars_dice_encodes_from_the_seat_s_own_place() -> None:
    game = get_game("liars_dice")
    config = game.configure(3, "wild-ones")
    encoder = game.encoder(config)
    state = game.start(config, 1)
    state.apply(0, state.legal_actions(0)[3])  # seat 0 bids one 5
    observation = state.observation(1)
    assert observation["dice"] == [3, 3, 4, 4, 4] and observation["bid"] == [1, 5]
    assert encoder.size == 24 == sum(f.length for f in encoder.fields())
    assert encoder.encode(observation) == [
        0, 0, 2, 3, 0, 0,  # my faces
        5,  # my dice
        5, 5, 5,  # dice left, from seat 1 on
        15,  # in play
        1, 0, 0, 0, 0, 1, 0,  # bid: one 5
        0, 0, 1,  # by seat 0, two places on from seat 1
        1, 1, 1,  # one bid this round, round 1, ones wild
    ]


def test_wongar_encodes_the_board_from_the_seat_s_own_place() -> None:
    game = get_game("wongar")
    config = game.configure(4, "initiated")
    encoder = game.encoder(config)
    observation = game.start(config, 3).observation(2)
    vector = encoder.encode(observation)
    assert len(vector) == encoder.size == sum(f.length for f in encoder.fields())
    start = 0
    for f in encoder.fields():
        if f.name == "pieces[0]":
            break
        start += f.length
    territory = observation["pieces"][0]
    assert vector[start : start + 12] == [float(k) for s in (2, 3, 0, 1) for k in territory[s]]
    names = [f.name for f in encoder.fields()]
    assert names[:2] == ["pieces[0]", "pieces[1]"] and names[-1] == "pending.mode"


def test_waroong_encodes_the_dish_under_construction() -> None:
    game = get_game("waroong")
    config = game.configure(3)
    encoder = game.encoder(config)
    state = game.start(config, 2)
    rng = random.Random(2)
    while not (state.observation(state.to_move()[0])["dish"] or {}).get("boss"):
        state.apply(*random_decision(state, rng))
    seat = state.to_move()[0]
    observation = state.observation(seat)
    vector = encoder.encode(observation)
    at = {f.name: sum(g.length for g in encoder.fields()[:i]) for i, f in enumerate(encoder.fields())}
    boss = observation["dish"]["boss"]
    assert vector[at["dish.boss"] : at["dish.boss"] + 5] == [
        float(boss.count(name)) for name in ("boss-beras", "boss-daging", "boss-sayur", "boss-tahu", "boss-petis")
    ]
    assert vector[at["dish.position"] + observation["dish"]["position"]] == 1.0
    assert vector[at["turn"]] == 1.0  # the cooking seat is the observer, place 0
