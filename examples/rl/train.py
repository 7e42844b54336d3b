"""REINFORCE with a learned baseline, numpy only: train a policy file for ``python -m bots.learned``.

The learner plays every seat in turn (the encoders count seats from the observing one, so one
policy serves them all) against the uniform random bot, in the Gymnasium environment
(:class:`arena.rl.gym_env.ArenaGymEnv`). The policy is :class:`bots.learned.network.Network`, a
``tanh`` network (``--hidden 0``: linear) with a masked softmax over the action table, the very
code the bot plays with. After each batch of games, every decision's log-probability is pushed up
by its advantage: the game's final reward (the rank reward, in [-1, 1]) less a linear baseline
fitted to the rewards, plus a small entropy bonus; Adam does the steps. Inputs are standardised
with the mean and spread of the observations of a few seeded random playouts, folded into the
first layer when the file is saved, so the file reads the encoder's raw vector.

Everything is drawn from ``--seed``: the same command writes the same file on the same machine.

    python examples/rl/train.py --out liars_dice-3p.npz
    python examples/rl/train.py --game waroong --players 3 --episodes 3000 --out waroong.npz
"""

from __future__ import annotations

import argparse
import random
import sys
import time
import warnings
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from arena.rl.gym_env import ArenaGymEnv
from bots.learned.network import Network, Setup, masked_softmax, save_network
from bots.learned.play import draw
from engine.core import Game, MatchConfig, derive_seed
from engine.encoding import sample_observations
from engine.registry import get_game

Array = NDArray[np.float64]


@dataclass
class Adam:
    """Adam's moment estimates for a list of parameter arrays, stepping them in place."""

    params: list[Array]
    rate: float
    moments: list[tuple[Array, Array]] = field(default_factory=list)
    steps: int = 0

    def ascend(self, grads: list[Array]) -> None:
        """One step up ``grads`` (one per parameter)."""
        if not self.moments:
            self.moments = [(np.zeros_like(p), np.zeros_like(p)) for p in self.params]
        self.steps += 1
        for param, grad, (first, second) in zip(self.params, grads, self.moments, strict=True):
            first *= 0.9
            first += 0.1 * grad
            second *= 0.999
            second += 0.001 * grad * grad
            param += self.rate * (first / (1 - 0.9**self.steps)) / (np.sqrt(second / (1 - 0.999**self.steps)) + 1e-8)


@dataclass
class Batch:
    """The decisions of a batch of games: vectors, masks, actions and each game's final reward."""

    vectors: list[NDArray[np.float32]] = field(default_factory=list)
    masks: list[NDArray[np.int8]] = field(default_factory=list)
    actions: list[int] = field(default_factory=list)
    returns: list[float] = field(default_factory=list)


class Learner:
    """The policy and baseline being trained for one configuration."""

    def __init__(self, game: Game, config: MatchConfig, hidden: int, rate: float, rng: np.random.Generator) -> None:
        self.setup = Setup.of(config)
        samples = np.array([game.encoder(config).encode(o) for o in sample_observations(game, config)])
        self.shift = samples.mean(axis=0)
        spread = samples.std(axis=0)
        self.scale = np.where(spread > 1e-6, 1 / np.maximum(spread, 1e-6), 1.0)
        sizes = [samples.shape[1], *([hidden] if hidden else []), len(game.action_table(config))]
        self.weights = [rng.normal(0, 1 / np.sqrt(n), (n, m)) for n, m in zip(sizes, sizes[1:], strict=False)]
        self.weights[-1] *= 0.01  # start near the uniform policy
        self.biases = [np.zeros(m) for m in sizes[1:]]
        self.value = [np.zeros(sizes[0]), np.zeros(1)]
        self.policy_steps = Adam([*self.weights, *self.biases], rate)
        self.value_steps = Adam(self.value, rate)

    def network(self) -> Network:
        """The policy on raw encoder vectors: the standardisation folded into the first layer."""
        weights = [self.weights[0] * self.scale[:, None], *self.weights[1:]]
        biases = [self.biases[0] - (self.shift * self.scale) @ self.weights[0], *self.biases[1:]]
        return Network(self.setup, tuple(weights), tuple(biases))

    def update(self, batch: Batch, entropy: float) -> None:
        """One REINFORCE step on ``batch`` (the baseline fitted by one step too)."""
        inputs = (np.array(batch.vectors, np.float64) - self.shift) * self.scale
        masks = np.array(batch.masks)
        returns = np.array(batch.returns)
        outputs = Network(self.setup, tuple(self.weights), tuple(self.biases)).layer_outputs(inputs)
        probabilities = masked_softmax(outputs[-1], masks)
        baseline = inputs @ self.value[0] + self.value[1]
        advantage = returns - baseline
        chosen = np.zeros_like(probabilities)
        chosen[np.arange(len(batch.actions)), batch.actions] = 1.0
        logs = np.log(np.where(probabilities > 0, probabilities, 1.0))
        spread = -(probabilities * logs).sum(axis=1, keepdims=True)
        # d/dscores of advantage * log p(action) + entropy * H, per decision
        up = (chosen - probabilities) * advantage[:, None] - entropy * probabilities * (logs + spread)
        grads_w: list[Array] = []
        grads_b: list[Array] = []
        for i in reversed(range(len(self.weights))):
            grads_w.insert(0, outputs[i].T @ up / len(up))
            grads_b.insert(0, up.mean(axis=0))
            if i:
                up = (up @ self.weights[i].T) * (1 - outputs[i] ** 2)
        self.policy_steps.ascend([*grads_w, *grads_b])
        self.value_steps.ascend([inputs.T @ advantage / len(advantage), np.array([advantage.mean()])])


def play(env: ArenaGymEnv, network: Network, deal: int, rng: random.Random, batch: Batch | None, best: bool = False) -> float:
    """One game of the learner's seat from ``deal``; its final reward. Its decisions go to ``batch``."""
    observation, _ = env.reset(seed=deal)
    steps = 0
    while True:
        vector, mask = observation["observation"], observation["action_mask"]
        probabilities = network.probabilities(vector, mask)
        action = int(np.argmax(np.where(mask == 1, probabilities, -1.0))) if best else draw(probabilities, rng)
        if batch is not None:
            batch.vectors.append(vector)
            batch.masks.append(mask)
            batch.actions.append(action)
        steps += 1
        observation, reward, over, _, _ = env.step(action)
        if over:
            if batch is not None:
                batch.returns.extend([float(reward)] * steps)
            return float(reward)


def evaluate(envs: list[ArenaGymEnv], network: Network, games: int, seed: int, best: bool) -> tuple[float, float]:
    """Mean reward and share of games won outright (reward 1) over ``games`` fresh deals, seats in turn."""
    rng = random.Random(derive_seed(seed, "evaluate"))
    rewards = [play(envs[g % len(envs)], network, derive_seed(seed, "evaluate", g), rng, None, best) for g in range(games)]
    return float(np.mean(rewards)), float(np.mean([r == 1.0 for r in rewards]))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--game", default="liars_dice")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--variant", default=None)
    parser.add_argument("--hidden", type=int, default=32, help="units of the hidden layer; 0: a linear policy")
    parser.add_argument("--episodes", type=int, default=6000, help="games to train on")
    parser.add_argument("--batch", type=int, default=30, help="games per update")
    parser.add_argument("--rate", type=float, default=0.003, help="Adam's step size")
    parser.add_argument("--entropy", type=float, default=0.01, help="weight of the entropy bonus")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--evaluate", type=int, default=600, help="games against random after training (0: none)")
    parser.add_argument("--out", type=Path, required=True, help="the policy file to write (.npz)")
    args = parser.parse_args(argv)
    warnings.simplefilter("ignore")  # the environments' own checks
    game = get_game(args.game)
    config = game.configure(args.players, args.variant, None)
    envs = [ArenaGymEnv(game, config.players, config.variant, seat=seat) for seat in range(config.players)]
    learner = Learner(game, config, args.hidden, args.rate, np.random.default_rng(args.seed))
    rng = random.Random(derive_seed(args.seed, "draws"))
    started, cpu = time.monotonic(), time.process_time()
    recent: list[float] = []
    for first in range(0, args.episodes, args.batch):
        network, batch = learner.network(), Batch()
        for episode in range(first, min(first + args.batch, args.episodes)):
            env = envs[episode % config.players]
            recent.append(play(env, network, derive_seed(args.seed, "deal", episode), rng, batch))
        learner.update(batch, args.entropy)
        if len(recent) >= 1000 or first + args.batch >= args.episodes:
            print(f"games {min(first + args.batch, args.episodes):6d}  mean reward {np.mean(recent):+.3f}  "
                  f"{time.process_time() - cpu:6.1f} CPU s", flush=True)
            recent.clear()
    save_network(args.out, learner.network())
    print(f"wrote {args.out} ({args.out.stat().st_size:,} bytes) after {time.process_time() - cpu:.1f} CPU s "
          f"({time.monotonic() - started:.1f} s elapsed)")
    if args.evaluate:
        for best in (False, True):
            mean, won = evaluate(envs, learner.network(), args.evaluate, args.seed, best)
            print(f"against random, {'most probable action' if best else 'drawn actions':20}: "
                  f"mean reward {mean:+.3f}, won {won:.1%} of {args.evaluate} games")
    return 0


if __name__ == "__main__":
    sys.exit(main())
