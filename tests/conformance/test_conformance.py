"""The engine contract, checked over every registered game, variant and player count.

A new game folder joins these checks by registering itself; nothing here names a game.
"""

from __future__ import annotations

import random
from typing import Any

import msgpack
import pytest
from conformance_playout import play_out, random_decision
from game_setups import Setup, every_setup

from engine.core import ConfigError, IllegalAction, State, replay
from engine.registry import games

SETUPS = every_setup()
IDS = [s.id for s in SETUPS]
SEEDS = (1, 2, 3)


def test_games_are_registered() -> None:
    keys = set(games())
    assert {k.split("@")[0] for k in keys} >= {"wongar", "waroong"}


def _packable(value: Any) -> bytes:
    """msgpack bytes of ``value``; fails the test if it is not msgpack-able."""
    packed: bytes = msgpack.packb(value, use_bin_type=True, strict_types=False)
    return packed


def _inventory(state: State) -> dict[str, int] | None:
    method = getattr(state, "inventory", None)
    return None if method is None else dict(method())


@pytest.mark.parametrize("setup", SETUPS, ids=IDS)
def test_action_table_is_well_formed(setup: Setup) -> None:
    table = setup.game.action_table(setup.config)
    assert len(table) > 0
    for position, spec in enumerate(table):
        assert spec.id == position
        assert spec.label.strip()
        assert table.id_of(*spec.form) == spec.id
        _packable([spec.id, list(spec.form), spec.label])
    assert _packable(table.to_wire())


@pytest.mark.parametrize("setup", SETUPS, ids=IDS)
@pytest.mark.parametrize("seed", SEEDS)
def test_random_playout_keeps_every_invariant(setup: Setup, seed: int) -> None:
    """Every step: who moves, ascending non-empty legal ids, packable views, conservation."""
    state = setup.game.start(setup.config, seed)
    table_size = len(setup.game.action_table(setup.config))
    players = setup.config.players
    start_inventory = _inventory(state)
    rng = random.Random(seed * 7919)
    cursors = [0] * players
    steps = 0
    while not state.is_over():
        movers = state.to_move()
        assert movers, "a live game must have a seat to move"
        assert list(movers) == sorted(set(movers))
        for seat in range(players):
            legal = state.legal_actions(seat)
            if seat in movers:
                assert legal, f"seat {seat} to move with no legal action"
                assert legal == sorted(set(legal)), "legal actions must ascend without repeats"
                assert 0 <= legal[0] and legal[-1] < table_size
            else:
                assert legal == [], f"seat {seat} not to move but offered {legal}"
        if steps % 7 == 0:
            for seat in range(players):
                _packable(state.observation(seat))
                events, cursors[seat] = state.events(seat, cursors[seat])
                _packable(events)
            assert _inventory(state) == start_inventory, "pieces or cards appeared or vanished"
        seat, action = random_decision(state, rng)
        state.apply(seat, action)
        steps += 1
    assert state.to_move() == ()
    assert _inventory(state) == start_inventory
    result = state.result()
    assert len(result.scores) == len(result.ranks) == players
    assert min(result.ranks) == 1 and max(result.ranks) <= players
    for a in range(players):
        for b in range(players):
            if result.scores[a] > result.scores[b]:
                assert result.ranks[a] < result.ranks[b], "a higher score must place better"
    assert isinstance(result.detail.get("rounds"), int) and result.detail["rounds"] > 0
    assert isinstance(result.detail.get("end"), str)
    _packable(result.detail)
    for seat in (None, *range(players)):
        assert state.render(seat).strip()


@pytest.mark.parametrize("setup", SETUPS, ids=IDS)
def test_same_seed_and_decisions_give_the_same_game(setup: Setup) -> None:
    first, decisions = play_out(setup, seed=11, policy_seed=5)
    second, again = play_out(setup, seed=11, policy_seed=5)
    assert decisions == again
    assert first.result() == second.result()
    for seat in range(setup.config.players):
        assert first.observation(seat) == second.observation(seat)


@pytest.mark.parametrize("setup", SETUPS, ids=IDS)
def test_the_deal_depends_only_on_the_seed(setup: Setup) -> None:
    a = setup.game.start(setup.config, 21)
    b = setup.game.start(setup.config, 21)
    c = setup.game.start(setup.config, 22)
    views = [[s.observation(p) for p in range(setup.config.players)] for s in (a, b, c)]
    assert views[0] == views[1]
    assert views[0] != views[2], "two seeds dealt the same opening for every seat"


@pytest.mark.parametrize("setup", SETUPS, ids=IDS)
def test_replay_rebuilds_the_match(setup: Setup) -> None:
    final, decisions = play_out(setup, seed=31, policy_seed=8)
    rebuilt = replay(setup.game, setup.config, 31, decisions)
    assert rebuilt.is_over()
    assert rebuilt.result() == final.result()
    for seat in range(setup.config.players):
        assert rebuilt.observation(seat) == final.observation(seat)
        assert rebuilt.events(seat) == final.events(seat)


@pytest.mark.parametrize("setup", SETUPS, ids=IDS)
def test_clone_is_independent(setup: Setup) -> None:
    state = setup.game.start(setup.config, 41)
    rng = random.Random(3)
    for _ in range(40):
        if state.is_over():
            break
        state.apply(*random_decision(state, rng))
    views = [state.observation(p) for p in range(setup.config.players)]
    log_length = len(state.log)
    copy = state.clone()
    assert [copy.observation(p) for p in range(setup.config.players)] == views
    for _ in range(60):
        if copy.is_over():
            break
        copy.apply(*random_decision(copy, rng))
    assert [state.observation(p) for p in range(setup.config.players)] == views
    assert len(state.log) == log_length


@pytest.mark.parametrize("setup", SETUPS, ids=IDS)
def test_illegal_actions_are_rejected(setup: Setup) -> None:
    state = setup.game.start(setup.config, 51)
    table_size = len(setup.game.action_table(setup.config))
    rng = random.Random(9)
    for _ in range(30):
        if state.is_over():
            break
        movers = state.to_move()
        seat = movers[0]
        legal = set(state.legal_actions(seat))
        illegal = next((a for a in range(table_size) if a not in legal), None)
        before = state.observation(seat)
        if illegal is not None:
            with pytest.raises(IllegalAction):
                state.apply_checked(seat, illegal)
        with pytest.raises(IllegalAction):
            state.apply_checked(seat, table_size)
        idle = [s for s in range(setup.config.players) if s not in movers]
        if idle:
            with pytest.raises(IllegalAction):
                state.apply_checked(idle[0], min(legal))
        assert state.observation(seat) == before, "a rejected action changed the state"
        state.apply_checked(*random_decision(state, rng))


@pytest.mark.parametrize("setup", SETUPS, ids=IDS)
def test_observation_does_not_leak_hidden_information(setup: Setup) -> None:
    """A state resampled in everything a seat cannot see looks the same to that seat."""
    state = setup.game.start(setup.config, 61)
    rng = random.Random(13)
    checked = 0
    while not state.is_over():
        if rng.random() < 0.08:
            for seat in range(setup.config.players):
                other = state.determinize(seat, random.Random(rng.getrandbits(32)))
                assert other.observation(seat) == state.observation(seat)
                assert other.legal_actions(seat) == state.legal_actions(seat)
                assert other.to_move() == state.to_move()
                assert _inventory(other) == _inventory(state)
                checked += 1
        state.apply(*random_decision(state, rng))
    assert checked > 0


@pytest.mark.parametrize("setup", SETUPS, ids=IDS)
def test_determinized_states_play_to_the_end(setup: Setup) -> None:
    state = setup.game.start(setup.config, 71)
    rng = random.Random(17)
    for _ in range(25):
        if state.is_over():
            break
        state.apply(*random_decision(state, rng))
    sample = state.determinize(state.to_move()[0], random.Random(5))
    while not sample.is_over():
        sample.apply(*random_decision(sample, rng))
    assert len(sample.result().scores) == setup.config.players


@pytest.mark.parametrize("game_key", list(games()))
def test_bad_setups_name_what_is_allowed(game_key: str) -> None:
    game = games()[game_key]
    with pytest.raises(ConfigError, match=f"{game.min_players}-{game.max_players} players"):
        game.new_state(game.max_players + 1, seed=1)
    with pytest.raises(ConfigError, match=game.variants[0].name):
        game.new_state(game.min_players, seed=1, variant="no-such-variant")
    with pytest.raises(ConfigError, match="no knob 'no_such_knob'"):
        game.new_state(game.min_players, seed=1, no_such_knob=1)
    for knob in game.knobs:
        with pytest.raises(ConfigError, match=knob.name):
            game.new_state(game.min_players, seed=1, **{knob.name: "?? not a value ??"})


@pytest.mark.parametrize("setup", SETUPS, ids=IDS)
def test_sampled_states_match_the_observation_and_play_on(setup: Setup) -> None:
    """``sample_state`` from a msgpack round-tripped observation: the same view, and a playable game.

    The seat's view is reproduced exactly, and so are the legal actions of a seat to move. Who else
    decides is reproduced where the seat can know it: another seat's pick in a simultaneous step is
    secret (the sample may still await it), and a seat not to move may not know who is (a secret
    offer). An observation of another seat or of nothing is rejected.
    """
    game, config = setup.game, setup.config
    rng = random.Random(29)
    with pytest.raises(ValueError):
        game.sample_state(config, 1, game.start(config, 80).observation(0), rng)
    with pytest.raises(ValueError):
        game.sample_state(config, 0, {"seat": 0}, rng)
    sampled_points = decisions = 0
    for seed in (81, 82):
        state = game.start(config, seed)
        while True:
            if rng.random() < 0.1 or state.is_over():
                sampled_points += 1
                for seat in range(config.players):
                    seen = msgpack.unpackb(_packable(state.observation(seat)), raw=False)
                    sample = game.sample_state(config, seat, seen, random.Random(rng.getrandbits(32)))
                    assert sample.observation(seat) == state.observation(seat)
                    if seat in state.to_move():
                        assert seat in sample.to_move()
                        assert set(state.to_move()) <= set(sample.to_move())
                        assert sample.legal_actions(seat) == state.legal_actions(seat)
                    assert sample.is_over() == state.is_over()
                    while not sample.is_over():
                        sample.apply(*random_decision(sample, rng))
                    assert len(sample.result().ranks) == config.players
            if state.is_over():
                break
            state.apply(*random_decision(state, rng))
            decisions += 1
    assert sampled_points > 2 + decisions // 20, "about one state in ten is sampled, and both ends"

