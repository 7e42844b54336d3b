"""Environment speed: steps per second of the rl environments against the engine's own random playouts.

For each game (its fewest players and first variant, or every setup with ``--all``), over ``--games``
seeded games each: the engine's plain random playout (``legal_actions`` + ``apply``, decisions per
second), the PettingZoo AEC environment (``step`` + ``last``: encoded observation and mask of the next
agent, decisions per second), and the Gymnasium environment (the learning seat's ``step``s per second, each including
the opponents' uniform random decisions up to its next turn). A masked uniform random
policy everywhere. Rates are per second of this process's CPU time (``time.process_time``), which
other load on a shared machine does not distort; the encoder is learned before timing starts.

    python benchmarks/rl_steps.py
    python benchmarks/rl_steps.py --all --games 5
"""

from __future__ import annotations

import argparse
import time
import warnings

import numpy as np

from arena.gamekit.setups import Setup, game_setups, play_out
from arena.rl.gym_env import ArenaGymEnv
from arena.rl.pettingzoo_env import ArenaAECEnv
from engine.registry import games


def engine_rate(setup: Setup, seeds: range) -> float:
    """Random playout decisions per CPU second."""
    started, decisions = time.process_time(), 0
    for seed in seeds:
        decisions += len(play_out(setup, seed, seed)[1])
    return decisions / max(time.process_time() - started, 1e-9)


def aec_rate(setup: Setup, seeds: range) -> float:
    """AEC environment decisions (``step`` then ``last``) per CPU second."""
    env = ArenaAECEnv(setup.game, players=setup.config.players, variant=setup.config.variant)
    started, decisions = time.process_time(), 0
    for seed in seeds:
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        while not env.state.is_over():
            observation, *_ = env.last()
            env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
            decisions += 1
    return decisions / max(time.process_time() - started, 1e-9)


def gym_rate(setup: Setup, seeds: range) -> float:
    """Gymnasium learner steps per CPU second (each with the opponents' decisions up to the next)."""
    env = ArenaGymEnv(setup.game, players=setup.config.players, variant=setup.config.variant)
    started, steps = time.process_time(), 0
    for seed in seeds:
        observation, _ = env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        terminated = False
        while not terminated:
            observation, _, terminated, _, _ = env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
            steps += 1
    return steps / max(time.process_time() - started, 1e-9)


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="seeded games per setup and measure")
    parser.add_argument("--all", action="store_true", help="every variant and player count")
    args = parser.parse_args()
    warnings.simplefilter("ignore")
    seeds = range(args.games)
    print(f"{'setup':32} {'vector':>6} {'engine dec/s':>13} {'AEC dec/s':>10} {'gym steps/s':>12}")
    for game in games().values():
        for setup in game_setups(game)[: None if args.all else 1]:
            size = game.encoder(setup.config).size
            engine = engine_rate(setup, seeds)
            aec = aec_rate(setup, seeds)
            gym_steps = gym_rate(setup, seeds)
            print(f"{setup.id:32} {size:6d} {engine:13,.0f} {aec:10,.0f} {gym_steps:12,.0f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
