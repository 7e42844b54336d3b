"""The PettingZoo AEC environment: PettingZoo's own API and seed tests for every game (the full
matrix of variants and player counts in the slow tier), rewards, seeding and seat order."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from arena.gamekit.setups import Setup
from arena.rl.common import rank_rewards
from arena.rl.pettingzoo_env import ArenaAECEnv
from engine.core import Result
from game_setups import every_setup
from test_encoding import representative


def make(setup: Setup) -> ArenaAECEnv:
    return ArenaAECEnv(setup.game, players=setup.config.players, variant=setup.config.variant)


def conforms(setup: Setup) -> None:
    with warnings.catch_warnings():  # PettingZoo advises a Box observation; a dict with a mask is its documented form
        warnings.simplefilter("ignore", UserWarning)
        api_test(make(setup), num_cycles=1000)
        seed_test(lambda: make(setup), num_cycles=500)


@pytest.mark.parametrize("setup", representative(), ids=lambda s: s.id)
def test_pettingzoo_api_and_seed_tests_pass(setup: Setup) -> None:
    conforms(setup)


@pytest.mark.slow
@pytest.mark.parametrize("setup", every_setup(), ids=lambda s: s.id)
def test_pettingzoo_api_and_seed_tests_pass_in_every_setup(setup: Setup) -> None:
    conforms(setup)


def test_rank_rewards() -> None:
    assert rank_rewards(Result((5, 3), (1, 2))) == [1.0, -1.0]
    assert rank_rewards(Result((5, 5), (1, 1))) == [0.0, 0.0]
    assert rank_rewards(Result((9, 4, 4), (1, 2, 2))) == [1.0, -0.5, -0.5]
    assert rank_rewards(Result((1, 2, 3, 4), (4, 3, 2, 1))) == [-1.0, -1 / 3, 1 / 3, 1.0]


def play(env: ArenaAECEnv, seed: int) -> tuple[list[tuple[str, int]], dict[str, float]]:
    """A seeded masked-random game: the (agent, action) pairs in order and the total rewards."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    moves: list[tuple[str, int]] = []
    totals = dict.fromkeys(env.agents, 0.0)
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, info = env.last()
        totals[agent] += float(reward)
        if terminated or truncated:
            env.step(None)
            continue
        assert list(np.flatnonzero(observation["action_mask"])) == info["legal"]
        action = int(rng.choice(info["legal"]))
        moves.append((agent, action))
        env.step(action)
    return moves, totals


def test_a_game_ends_with_the_rank_rewards_and_replays_from_its_seed() -> None:
    env = ArenaAECEnv("liars_dice", players=3)
    moves, totals = play(env, seed=5)
    assert list(totals.values()) == rank_rewards(env.state.result())
    assert sum(totals.values()) == pytest.approx(0.0)
    assert play(ArenaAECEnv("liars_dice", players=3), seed=5)[0] == moves
    dealt = set()
    for seed in range(5, 12):
        env.reset(seed=seed)
        dealt.add(tuple(env.infos["seat_0"]["raw"]["dice"]))
    assert len(dealt) > 1


def test_seats_deciding_together_are_asked_in_seat_order_each_choice_applied() -> None:
    env = ArenaAECEnv("waroong", players=3)
    env.reset(seed=1)
    assert env.state.to_move() == (0, 1, 2)
    for seat in range(3):
        assert env.agent_selection == f"seat_{seat}"
        legal = env.infos[env.agent_selection]["legal"]
        env.step(legal[0])
        if seat < 2:
            assert env.state.to_move() == tuple(range(seat + 1, 3))
    assert env.agent_selection == f"seat_{env.state.to_move()[0]}"


def test_an_illegal_action_is_refused() -> None:
    env = ArenaAECEnv("liars_dice", players=2)
    env.reset(seed=0)
    illegal = next(a for a in range(env.actions) if a not in env.infos["seat_0"]["legal"])
    with pytest.raises(ValueError, match="not legal"):
        env.step(illegal)
