"""Tuning a game's estimate weights by play, and comparing one set of weights with another.

Every seat is ``greedy`` at a node budget of one (one sampled state a decision, its turn finished),
or with ``--seats ismcts:N`` the ISMCTS search at N iterations, scoring by the game's estimate
(``bots/heuristics/GAME.py``) under weights of its own; games are played in this process, tables
of 3 to 5 seats, every variant. With node budgets the games, and so the figures, are the same on
any machine; only the time depends on it.

Usage:
  python benchmarks/estimate_tuning.py tune [--game G] [--seats S] [--iterations N] [--seed S] [-j J]
  python benchmarks/estimate_tuning.py compare WEIGHTS [--game G] [--seats S] [--against WEIGHTS]
                                               [--deals N] [-j J]

``tune`` runs SPSA (simultaneous perturbation stochastic approximation), J chains at once from
seeds S, S+1, ...: each iteration perturbs every weight at once by ±PERTURBATION at random, plays
one game with the weights so raised and so lowered in two seats and the chain's current weights in
the others, and moves the weights along the perturbation by the step times the two seats' score
difference (in the game's points unit, at most 3). It prints each chain's weights as it goes and
its result: their mean over its second half.

``compare`` seats WEIGHTS once against seats with ``--against`` (by default the weights the bots
play with), in every rotation of each deal, deals cycling through 3, 4 and 5 seats and the
variants, and prints WEIGHTS's share of the comparisons won (one seat against one other, by final
score; a tie counts half), its standard error and the mean margin over the best other seat.

WEIGHTS are comma-separated ``name=value`` pairs of the game's ``Weights``
(``ritual_card=0.4,base_share=0.6`` in Wongar); the others keep the bots' values.
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import random
import statistics
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING, cast

from strength_for_time import untimed_action

from bots.greedy import greedy_policy
from bots.heuristics import Estimator, waroong, wongar
from bots.ismcts import ismcts_policy
from bots.shared.match import Match, Policy
from engine.registry import get_game
from engine.waroong.state import WaroongState
from engine.wongar.state import WongarState

#: The table sizes games are drawn from (``compare`` cycles through them and the variants).
PLAYERS = (3, 4, 5)
#: SPSA: how far each weight is moved either way to measure, the first step's scale, how the step
#: shrinks (scale / (1 + k / STEP_DECAY) ** 0.602), and the range every weight is kept within.
PERTURBATION = 0.2
STEP = 0.004
STEP_DECAY = 600
LOWEST, HIGHEST = 0.0, 3.0
#: The most units a game's verdict counts (a unit: the game's ``points_unit`` of score difference).
MOST_UNITS = 3.0

if TYPE_CHECKING:
    from _typeshed import DataclassInstance as Weights  # a game's weights: its estimate's ``Weights``


@dataclass(frozen=True, slots=True)
class Tunable:
    """A game whose estimate takes weights: the bots' weights, the estimate under given weights,
    its variants, and the score difference that counts as one unit of a game's verdict (about a
    tenth of a winning score)."""

    weights: Weights
    scorer: Callable[[Weights], Estimator]
    variants: tuple[str, ...]
    points_unit: float


TUNABLE: dict[str, Tunable] = {
    "wongar": Tunable(wongar.WEIGHTS,
                      lambda w: lambda state: wongar.estimate(cast(WongarState, state), cast(wongar.Weights, w)),
                      ("basic", "initiated"), 10.0),
    "waroong": Tunable(waroong.WEIGHTS,
                       lambda w: lambda state: waroong.estimate(cast(WaroongState, state), cast(waroong.Weights, w)),
                       ("five-stars", "street-vendor"), 3.0),
}


def seat_policy(match: Match, seats: str, estimate: Estimator) -> Policy:
    """``greedy`` at one sampled state, or ``ismcts:N`` at N iterations, scoring by ``estimate``."""
    if seats == "greedy":
        return greedy_policy(dataclasses.replace(match, nodes=1), estimate)
    return ismcts_policy(dataclasses.replace(match, nodes=int(seats.partition(":")[2])), estimate=estimate)


def play(game_name: str, seats: str, weights: Sequence[Weights], variant: str, seed: int) -> list[int]:
    """One game of ``seats`` bots, seat ``s`` scoring by ``weights[s]``: the final scores."""
    game = get_game(game_name)
    config = game.configure(len(weights), variant)
    state = game.start(config, seed)
    scorer = TUNABLE[game_name].scorer
    choosers = [seat_policy(Match(game, config, seat, random.Random(seed * 31 + seat)), seats, scorer(w))
                for seat, w in enumerate(weights)]
    while not state.is_over():
        for seat in state.to_move():
            legal = tuple(state.legal_actions(seat))
            action = legal[0]
            if len(legal) > 1:
                action = untimed_action(choosers[seat], state.observation(seat), legal)
            state.apply(seat, action)
    return list(state.result().scores)


def _vector(weights: Weights) -> list[float]:
    return [getattr(weights, f.name) for f in dataclasses.fields(weights)]


def _weights(like: Weights, vector: Sequence[float]) -> Weights:
    """Weights of ``like``'s kind from ``vector``, each kept within the range."""
    return type(like)(*(min(HIGHEST, max(LOWEST, x)) for x in vector))


def tune(game: str, seats: str, seed: int, iterations: int) -> Weights:
    """One SPSA chain from the bots' weights (see the module's docstring); its second half's mean."""
    tunable = TUNABLE[game]
    rng = random.Random(seed)
    theta = _vector(tunable.weights)
    total, counted = [0.0] * len(theta), 0
    started = time.time()
    for k in range(iterations):
        step = STEP / (1 + k / STEP_DECAY) ** 0.602
        signs = [rng.choice((-1, 1)) for _ in theta]
        raised = _weights(tunable.weights, [t + PERTURBATION * d for t, d in zip(theta, signs)])
        lowered = _weights(tunable.weights, [t - PERTURBATION * d for t, d in zip(theta, signs)])
        players = rng.choice(PLAYERS)
        table = [raised, lowered, *[_weights(tunable.weights, theta)] * (players - 2)]
        order = rng.sample(range(players), players)
        scores = play(game, seats, [table[i] for i in order], rng.choice(tunable.variants), rng.randrange(1 << 30))
        difference = scores[order.index(0)] - scores[order.index(1)]
        units = max(-MOST_UNITS, min(MOST_UNITS, difference / tunable.points_unit))
        theta = _vector(_weights(tunable.weights,
                                 [t + step * units / (2 * PERTURBATION) * d for t, d in zip(theta, signs)]))
        if k >= iterations // 2:
            total, counted = [a + t for a, t in zip(total, theta)], counted + 1
        if k % 100 == 0:
            print(f"chain {seed} iteration {k} ({time.time() - started:.0f} s): "
                  f"{_show(_weights(tunable.weights, theta))}", flush=True)
    return _weights(tunable.weights, [a / max(counted, 1) for a in total])


def _tune_chain(job: tuple[str, str, int, int]) -> Weights:
    return tune(*job)


def _compare_game(job: tuple[str, str, Weights, Weights, int, str, int, int]) -> tuple[float, float]:
    """(share of comparisons won, margin over the best other seat) of the seat with the first
    weights at ``seat``."""
    game, seats, mine, theirs, players, variant, seed, seat = job
    table = [theirs] * players
    table[seat] = mine
    scores = play(game, seats, table, variant, seed)
    others = [s for i, s in enumerate(scores) if i != seat]
    won = sum(1.0 if scores[seat] > s else 0.5 if scores[seat] == s else 0.0 for s in others)
    return won / len(others), scores[seat] - max(others)


def compare(game: str, seats: str, mine: Weights, theirs: Weights, deals: int, seed: int, jobs: int) -> None:
    """Print ``mine``'s share of the comparisons won against ``theirs`` (see the docstring)."""
    variants = TUNABLE[game].variants
    games = []
    for deal in range(deals):
        players = PLAYERS[deal % len(PLAYERS)]
        variant = variants[deal // len(PLAYERS) % len(variants)]
        games += [(game, seats, mine, theirs, players, variant, seed + deal, seat) for seat in range(players)]
    started = time.time()
    with ProcessPoolExecutor(jobs) as pool:
        outcomes = list(pool.map(_compare_game, games))
    shares = [share for share, _ in outcomes]
    error = statistics.pstdev(shares) / math.sqrt(len(shares))
    print(f"{_show(mine)}\n  against {_show(theirs)}\n  {len(games)} games in {time.time() - started:.0f} s: "
          f"won {100 * statistics.mean(shares):.1f}% ± {100 * error:.1f} of its comparisons, "
          f"mean margin {statistics.mean(m for _, m in outcomes):+.2f} points")


def parse_weights(game: str, text: str) -> Weights:
    """``name=value,...`` as ``game``'s weights (the rest the bots'); argparse's error otherwise."""
    weights = TUNABLE[game].weights
    names = {f.name for f in dataclasses.fields(weights)}
    changes: dict[str, float] = {}
    for pair in filter(None, text.split(",")):
        name, _, value = pair.partition("=")
        if name.strip() not in names:
            raise argparse.ArgumentTypeError(f"{name!r}: the weights are {', '.join(sorted(names))}")
        try:
            changes[name.strip()] = float(value)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{pair!r}: not a number") from None
    return dataclasses.replace(weights, **changes)


def seats_spec(text: str) -> str:
    """``greedy`` or ``ismcts:N`` (N a positive whole number); argparse's error otherwise."""
    bot, _, nodes = text.partition(":")
    if text == "greedy" or (bot == "ismcts" and nodes.isdigit() and int(nodes) > 0):
        return text
    raise argparse.ArgumentTypeError(f"{text!r}: the seats are greedy or ismcts:N (N iterations)")


def _show(weights: Weights) -> str:
    return ",".join(f"{f.name}={getattr(weights, f.name):.3g}" for f in dataclasses.fields(weights))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--game", choices=sorted(TUNABLE), default="wongar")
    common.add_argument("--seats", type=seats_spec, default="greedy", help="greedy or ismcts:N")
    common.add_argument("-j", "--jobs", type=int, default=1, help="chains, or games, at once")
    commands = parser.add_subparsers(dest="command", required=True)
    tuning = commands.add_parser("tune", parents=[common], help="SPSA over the weights")
    tuning.add_argument("--iterations", type=int, default=1800, help="games a chain plays")
    tuning.add_argument("--seed", type=int, default=1, help="the first chain's seed")
    comparing = commands.add_parser("compare", parents=[common], help="one set of weights against another")
    comparing.add_argument("weights")
    comparing.add_argument("--against", default="", help="weights (by default the bots')")
    comparing.add_argument("--deals", type=int, default=60, help="deals, each in every rotation")
    comparing.add_argument("--seed", type=int, default=900000, help="the first deal's seed")
    args = parser.parse_args()
    if args.command == "tune":
        with ProcessPoolExecutor(args.jobs) as pool:
            chains = [(args.game, args.seats, args.seed + i, args.iterations) for i in range(args.jobs)]
            for (_, _, seed, _), result in zip(chains, pool.map(_tune_chain, chains)):
                print(f"chain {seed} result: {_show(result)}")
    else:
        try:
            mine, theirs = (parse_weights(args.game, text) for text in (args.weights, args.against))
        except argparse.ArgumentTypeError as exc:
            parser.error(str(exc))
        compare(args.game, args.seats, mine, theirs, args.deals, args.seed, args.jobs)


if __name__ == "__main__":
    main()
