"""Tuning the Wongar estimate's weights by play, and comparing one set of weights with another.

Every seat is ``greedy`` at a node budget of one (one sampled state a decision, its turn finished)
scoring by the estimate (``bots/heuristics/wongar.py``) under weights of its own; games are played
in this process, tables of 3 to 5 seats, both variants. With node budgets the games, and so the
figures, are the same on any machine; only the time depends on it.

Usage:
  python benchmarks/estimate_tuning.py tune [--iterations N] [--seed S] [-j J]
  python benchmarks/estimate_tuning.py compare WEIGHTS [--against WEIGHTS] [--deals N] [-j J]

``tune`` runs SPSA (simultaneous perturbation stochastic approximation), J chains at once from
seeds S, S+1, ...: each iteration perturbs every weight at once by ±PERTURBATION at random, plays
one game with the weights so raised and so lowered in two seats and the chain's current weights in
the others, and moves the weights along the perturbation by the step times the two seats' score
difference (points / 10, at most 3). It prints each chain's weights as it goes and its result: their
mean over its second half.

``compare`` seats WEIGHTS once against seats with ``--against`` (by default the weights the bots
play with), in every rotation of each deal, deals cycling through 3, 4 and 5 seats and both
variants, and prints WEIGHTS's share of the comparisons won (one seat against one other, by final
score; a tie counts half), its standard error and the mean margin over the best other seat.

WEIGHTS are comma-separated ``name=value`` pairs of :class:`bots.heuristics.wongar.Weights`
(``ritual_card=0.4,base_share=0.6``); the others keep the bots' values.
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import random
import statistics
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import cast

from strength_for_time import UNTIMED

from arena_bot.sdk import Choice, Clock, clock_reading
from bots.greedy import greedy_policy
from bots.heuristics import Estimator
from bots.heuristics.wongar import WEIGHTS, Weights, estimate
from bots.shared.match import Match
from engine.core import State
from engine.registry import get_game
from engine.wongar.state import WongarState

#: The table sizes and variants games are drawn from (``compare`` cycles through them).
PLAYERS = (3, 4, 5)
VARIANTS = ("basic", "initiated")
#: SPSA: how far each weight is moved either way to measure, the first step's scale, how the step
#: shrinks (scale / (1 + k / STEP_DECAY) ** 0.602), and the range every weight is kept within.
PERTURBATION = 0.2
STEP = 0.004
STEP_DECAY = 600
LOWEST, HIGHEST = 0.0, 3.0
#: Score difference (points) that counts as one unit of a game's verdict, and the largest counted.
POINTS_UNIT = 10.0
MOST_UNITS = 3.0


def scorer(weights: Weights) -> Estimator:
    """The Wongar estimate under ``weights``."""
    return lambda state: estimate(cast(WongarState, state), weights)


def play(weights: Sequence[Weights], variant: str, seed: int) -> list[int]:
    """One game of greedy seats, seat ``s`` scoring by ``weights[s]``: the final scores."""
    game = get_game("wongar")
    config = game.configure(len(weights), variant)
    state = game.start(config, seed)
    choosers = [greedy_policy(Match(game, config, seat, random.Random(seed * 31 + seat), nodes=1),
                              scorer(w)) for seat, w in enumerate(weights)]
    while not state.is_over():
        seat = state.to_move()[0]
        legal = tuple(state.legal_actions(seat))
        action = legal[0]
        if len(legal) > 1:
            picked = choosers[seat](state.observation(seat), legal,
                                    Clock(UNTIMED, 0.0, 0.0, "cpu", clock_reading("cpu")))
            action = picked.action if isinstance(picked, Choice) else picked
        state.apply(seat, action)
    return list(state.result().scores)


def _vector(weights: Weights) -> list[float]:
    return [getattr(weights, f.name) for f in dataclasses.fields(Weights)]


def _weights(vector: Sequence[float]) -> Weights:
    return Weights(*(min(HIGHEST, max(LOWEST, x)) for x in vector))


def tune(seed: int, iterations: int) -> Weights:
    """One SPSA chain from the bots' weights (see the module's docstring); its second half's mean."""
    rng = random.Random(seed)
    theta = _vector(WEIGHTS)
    total, counted = [0.0] * len(theta), 0
    started = time.time()
    for k in range(iterations):
        step = STEP / (1 + k / STEP_DECAY) ** 0.602
        signs = [rng.choice((-1, 1)) for _ in theta]
        raised = _weights([t + PERTURBATION * d for t, d in zip(theta, signs)])
        lowered = _weights([t - PERTURBATION * d for t, d in zip(theta, signs)])
        players = rng.choice(PLAYERS)
        seats = [raised, lowered, *[_weights(theta)] * (players - 2)]
        order = rng.sample(range(players), players)
        scores = play([seats[i] for i in order], rng.choice(VARIANTS), rng.randrange(1 << 30))
        difference = scores[order.index(0)] - scores[order.index(1)]
        units = max(-MOST_UNITS, min(MOST_UNITS, difference / POINTS_UNIT))
        theta = _vector(_weights([t + step * units / (2 * PERTURBATION) * d for t, d in zip(theta, signs)]))
        if k >= iterations // 2:
            total, counted = [a + t for a, t in zip(total, theta)], counted + 1
        if k % 100 == 0:
            print(f"chain {seed} iteration {k} ({time.time() - started:.0f} s): {_show(_weights(theta))}",
                  flush=True)
    return _weights([a / max(counted, 1) for a in total])


def _tune_chain(job: tuple[int, int]) -> Weights:
    return tune(*job)


def _compare_game(job: tuple[Weights, Weights, int, str, int, int]) -> tuple[float, float]:
    """(share of comparisons won, margin over the best other seat) of the seat with the first
    weights at ``seat``."""
    mine, theirs, players, variant, seed, seat = job
    seats = [theirs] * players
    seats[seat] = mine
    scores = play(seats, variant, seed)
    others = [s for i, s in enumerate(scores) if i != seat]
    won = sum(1.0 if scores[seat] > s else 0.5 if scores[seat] == s else 0.0 for s in others)
    return won / len(others), scores[seat] - max(others)


def compare(mine: Weights, theirs: Weights, deals: int, seed: int, jobs: int) -> None:
    """Print ``mine``'s share of the comparisons won against ``theirs`` (see the docstring)."""
    games = []
    for deal in range(deals):
        players = PLAYERS[deal % len(PLAYERS)]
        variant = VARIANTS[deal // len(PLAYERS) % len(VARIANTS)]
        games += [(mine, theirs, players, variant, seed + deal, seat) for seat in range(players)]
    started = time.time()
    with ProcessPoolExecutor(jobs) as pool:
        outcomes = list(pool.map(_compare_game, games))
    shares = [share for share, _ in outcomes]
    error = statistics.pstdev(shares) / math.sqrt(len(shares))
    print(f"{_show(mine)}\n  against {_show(theirs)}\n  {len(games)} games in {time.time() - started:.0f} s: "
          f"won {100 * statistics.mean(shares):.1f}% ± {100 * error:.1f} of its comparisons, "
          f"mean margin {statistics.mean(m for _, m in outcomes):+.2f} points")


def parse_weights(text: str) -> Weights:
    """``name=value,...`` as :class:`Weights` (the rest the bots'); argparse's error otherwise."""
    names = {f.name for f in dataclasses.fields(Weights)}
    changes: dict[str, float] = {}
    for pair in filter(None, text.split(",")):
        name, _, value = pair.partition("=")
        if name.strip() not in names:
            raise argparse.ArgumentTypeError(f"{name!r}: the weights are {', '.join(sorted(names))}")
        try:
            changes[name.strip()] = float(value)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{pair!r}: not a number") from None
    return dataclasses.replace(WEIGHTS, **changes)


def _show(weights: Weights) -> str:
    return ",".join(f"{f.name}={getattr(weights, f.name):.3g}" for f in dataclasses.fields(Weights))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    tuning = commands.add_parser("tune", help="SPSA over the weights")
    tuning.add_argument("--iterations", type=int, default=1800, help="games a chain plays")
    tuning.add_argument("--seed", type=int, default=1, help="the first chain's seed")
    tuning.add_argument("-j", "--jobs", type=int, default=1, help="chains at once")
    comparing = commands.add_parser("compare", help="one set of weights against another")
    comparing.add_argument("weights", type=parse_weights)
    comparing.add_argument("--against", type=parse_weights, default=WEIGHTS)
    comparing.add_argument("--deals", type=int, default=60, help="deals, each in every rotation")
    comparing.add_argument("--seed", type=int, default=900000, help="the first deal's seed")
    comparing.add_argument("-j", "--jobs", type=int, default=1, help="processes playing at once")
    args = parser.parse_args()
    if args.command == "tune":
        with ProcessPoolExecutor(args.jobs) as pool:
            chains = [(args.seed + i, args.iterations) for i in range(args.jobs)]
            for (seed, _), result in zip(chains, pool.map(_tune_chain, chains)):
                print(f"chain {seed} result: {_show(result)}")
    else:
        compare(args.weights, args.against, args.deals, args.seed, args.jobs)


if __name__ == "__main__":
    main()
