"""The Gymnasium environment: Gymnasium's own checker, seeded episodes against a built-in bot
played in process, the learning seat's turn, and an action outside the mask."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from arena.gamekit.setups import Setup
from arena.rl.gym_env import ILLEGAL_REWARD, ArenaGymEnv
from arena.rl.opponents import builtin_opponent
from bots.greedy import greedy_policy
from game_setups import every_setup
from test_encoding import representative


def checked(setup: Setup, seat: int) -> None:
    env = ArenaGymEnv(setup.game, players=setup.config.players, variant=setup.config.variant, seat=seat)
    with warnings.catch_warnings():  # the checker advises finite bounds; counts have none
        warnings.simplefilter("ignore", UserWarning)
        check_env(env, skip_render_check=True)


@pytest.mark.parametrize("setup", representative(), ids=lambda s: s.id)
def test_gymnasium_checker_passes(setup: Setup) -> None:
    checked(setup, seat=setup.config.players - 1)


@pytest.mark.slow
@pytest.mark.parametrize("setup", every_setup(), ids=lambda s: s.id)
def test_gymnasium_checker_passes_in_every_setup(setup: Setup) -> None:
    for seat in range(setup.config.players):
        checked(setup, seat)


def episode(env: ArenaGymEnv, seed: int) -> tuple[list[int], float]:
    """A masked-random episode: the learner's actions and its final reward."""
    observation, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    actions: list[int] = []
    while True:
        assert env.seat in env.state.to_move()
        assert (info["action_mask"] == env.action_masks()).all()
        action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        actions.append(action)
        observation, reward, terminated, truncated, info = env.step(action)
        if terminated:
            assert env.state.is_over()
            return actions, float(reward)
        assert reward == 0.0 and not truncated


@pytest.mark.parametrize("name", ["wongar", "waroong", "liars_dice"])
def test_a_seeded_episode_against_a_built_in_bot_repeats(name: str) -> None:
    def make() -> ArenaGymEnv:
        return ArenaGymEnv(name, seat=1, opponents=builtin_opponent(greedy_policy, nodes=1))

    first = episode(make(), seed=8)
    assert episode(make(), seed=8) == first
    assert first[1] in {-1.0, -0.5, 0.0, 0.5, 1.0}


def test_an_action_outside_the_mask_ends_the_episode() -> None:
    env = ArenaGymEnv("liars_dice", players=2)
    observation, _ = env.reset(seed=0)
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    _, reward, terminated, _, info = env.step(illegal)
    assert (reward, terminated, info["illegal"]) == (ILLEGAL_REWARD, True, illegal)
    with pytest.raises(ValueError, match="reset"):
        env.step(int(np.flatnonzero(observation["action_mask"])[0]))
