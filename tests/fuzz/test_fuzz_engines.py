"""Engine fuzzing: many random playouts of every game, variant and player count, with the contract's
invariants checked at every step, and the checked path fed arbitrary seats and action ids (only
IllegalAction may escape, and a refused action changes nothing).

The default run plays ``ARENA_ENGINE_PLAYOUTS`` (8) playouts per setup; ``pytest -m slow`` plays
``ARENA_ENGINE_PLAYOUTS_LONG`` (250) per setup (750 per game and variant: three player counts).
"""

from __future__ import annotations

import os
import random

import msgpack
import pytest
from game_setups import every_setup

from engine.core import Game, IllegalAction, MatchConfig, State

SHORT = int(os.environ.get("ARENA_ENGINE_PLAYOUTS", "8"))
LONG = int(os.environ.get("ARENA_ENGINE_PLAYOUTS_LONG", "250"))
SETUPS = [(setup.game, setup.config) for setup in every_setup()]
IDS = [setup.id for setup in every_setup()]


def _snapshot(state: State, players: int) -> bytes:
    """Everything every seat can see, packed: equal snapshots mean nothing visible changed."""
    view = [state.to_move(), state.is_over()]
    view += [[state.observation(s), state.legal_actions(s), state.events(s)[0]] for s in range(players)]
    packed: bytes = msgpack.packb(view, use_bin_type=True)
    return packed


def _probe_checked_path(state: State, players: int, table_size: int, rng: random.Random) -> None:
    """Arbitrary (seat, action) pairs through ``apply_checked``: legal ones are legal, others refused."""
    before = _snapshot(state, players)
    for _ in range(3):
        seat = rng.choice([rng.randrange(players), rng.randrange(-2, players + 2)])
        action = rng.choice([rng.randrange(table_size), rng.randrange(-5, table_size + 5), 2**70])
        legal = state.legal_actions(seat) if 0 <= seat < players else []
        if seat in state.to_move() and action in legal:
            continue
        trial = state.clone()
        with pytest.raises(IllegalAction):
            trial.apply_checked(seat, action)
        assert _snapshot(trial, players) == before, f"refused ({seat}, {action}) changed the state"


def _playout(game: Game, config: MatchConfig, seed: int) -> int:
    """One random playout with every invariant checked at every step; the number of steps."""
    players = config.players
    table_size = len(game.action_table(config))
    state = game.start(config, seed)
    rng = random.Random(seed ^ 0x5EED)
    cursors = [0] * players
    steps = 0
    while not state.is_over():
        movers = state.to_move()
        assert movers and list(movers) == sorted(set(movers)) and all(0 <= s < players for s in movers)
        for seat in range(players):
            legal = state.legal_actions(seat)
            if seat in movers:
                assert legal and legal == sorted(set(legal)) and 0 <= legal[0] and legal[-1] < table_size
            else:
                assert legal == []
            events, cursor = state.events(seat, cursors[seat])
            assert cursor >= cursors[seat] and all(isinstance(e, dict) for e in events)
            cursors[seat] = cursor
        if rng.random() < 0.05:
            _probe_checked_path(state, players, table_size, rng)
        seat = rng.choice(movers)
        state.apply_checked(seat, rng.choice(state.legal_actions(seat)))
        steps += 1
        assert steps < 100_000, "no end"
    assert state.to_move() == () and all(state.legal_actions(s) == [] for s in range(players))
    result = state.result()
    assert len(result.scores) == len(result.ranks) == players
    assert sorted(result.ranks)[0] == 1
    for a in range(players):
        for b in range(players):
            assert (result.scores[a] > result.scores[b]) <= (result.ranks[a] < result.ranks[b])
    return steps


def _fuzz(game: Game, config: MatchConfig, playouts: int, base: int) -> None:
    steps = [_playout(game, config, base + i) for i in range(playouts)]
    assert min(steps) > 0


@pytest.mark.parametrize(("game", "config"), SETUPS, ids=IDS)
def test_random_playouts_keep_every_invariant(game: Game, config: MatchConfig) -> None:
    _fuzz(game, config, SHORT, 10_000)


@pytest.mark.slow
@pytest.mark.parametrize(("game", "config"), SETUPS, ids=IDS)
def test_random_playouts_keep_every_invariant_long(game: Game, config: MatchConfig) -> None:
    _fuzz(game, config, LONG, 20_000)
