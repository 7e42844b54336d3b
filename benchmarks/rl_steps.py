"""Environment speed: steps per second of the rl environments against the engine's own random playouts.

For each game (its fewest players and first variant, or every setup with ``--all``), over ``--games``
seeded games each: the engine's plain random playout (``legal_actions`` + ``apply``, decisions per
second), the PettingZoo AEC environment (``step`` + ``last``: encoded observation and mask of the next
agent, decisions per second), and the Gymnasium environment (the learning seat's ``step``s per second, each including
the opponents' uniform random decisions up to its next turn). A masked uniform random
policy everywhere. Rates are per second of this process's CPU time (``time.process_time``), which
other load on a shared machine does not distort; the encoder is learned before timing starts.

With ``--policy FILE`` (a policy file, :mod:`bots.learned.network`), one more line for the file's
setup: the Gymnasium learner's steps per CPU second with that policy choosing (its masked softmax
drawn at every step, as training and the learned bot do), instead of a random choice.

    python benchmarks/rl_steps.py
    python benchmarks/rl_steps.py --all --games 5
    python benchmarks/rl_steps.py --policy tests/rl/fixtures/liars_dice-3p.npz
"""

from __future__ import annotations

import argparse
import json
import random
import time
import warnings
from pathlib import Path

import numpy as np

from arena.gamekit.setups import Setup, game_setups, play_out
from arena.rl.gym_env import ArenaGymEnv
from arena.rl.pettingzoo_env import ArenaAECEnv
from bots.learned.network import Network, load_network
from bots.learned.play import VectorPolicy, softmax_policy
from engine.registry import games, get_game


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


def gym_rate(setup: Setup, seeds: range, network: Network | None = None) -> float:
    """Gymnasium learner steps per CPU second (each with the opponents' decisions up to the next),
    the learner choosing at random or, given ``network``, by its masked softmax."""
    env = ArenaGymEnv(setup.game, players=setup.config.players, variant=setup.config.variant,
                      knobs=dict(setup.config.knobs))
    started, steps = time.process_time(), 0
    for seed in seeds:
        observation, _ = env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        decide: VectorPolicy = (
            (lambda vector, mask: int(rng.choice(np.flatnonzero(mask)))) if network is None
            else softmax_policy(network, random.Random(seed))
        )
        terminated = False
        while not terminated:
            action = decide(observation["observation"], observation["action_mask"])
            observation, _, terminated, _, _ = env.step(action)
            steps += 1
    return steps / max(time.process_time() - started, 1e-9)


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="seeded games per setup and measure")
    parser.add_argument("--all", action="store_true", help="every variant and player count")
    parser.add_argument("--policy", type=Path, help="a policy file: also its setup's gym steps/s with it choosing")
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
    if args.policy is not None:
        network = load_network(args.policy)
        game = get_game(f"{network.setup.game}@{network.setup.version}")
        config = game.configure(network.setup.players, network.setup.variant, json.loads(network.setup.knobs))
        network.check(game, config)
        setup = Setup(game, config)
        print(f"{setup.id:32} {network.inputs:6d} {engine_rate(setup, seeds):13,.0f} {aec_rate(setup, seeds):10,.0f} "
              f"{gym_rate(setup, seeds):12,.0f}  random learner")
        print(f"{setup.id:32} {network.inputs:6d} {'':13} {'':10} {gym_rate(setup, seeds, network):12,.0f}  "
              f"learner: {args.policy.name}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
