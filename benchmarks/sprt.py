"""Simulate the early-stopping test of a gauntlet: error rates and blocks to a verdict.

A candidate plays four-player tables against a pool of three equal bots, each deal under its four
seat rotations (one duplicate block). Places are drawn by Plackett–Luce (Gumbel noise) from the
bots' strengths plus fixed seat advantages plus deal luck: a random per-seat bonus shared by the
rotations of a deal (so it cancels within a block, as real deals do). The candidate's strength is
set so that its expected block score is exactly that of elo0, then of elo1 (the test's hypotheses
are about that score; found by quadrature over the deal luck and bisection). Each run plays blocks
until the LLR (:func:`leaderboards.sprt.llr_batch`, checked after every block) crosses a bound.

Prints, for runs at elo0 and at elo1: how many accepted H1 (at elo0: false positives, to compare
with alpha) or H0 (at elo1: false negatives, to compare with beta), and the mean and percentiles
of the blocks (and games) to a verdict.

Usage: python benchmarks/sprt.py [--runs 1000] [--elo0 0] [--elo1 10] [--alpha 0.05] [--beta 0.05]
"""

from __future__ import annotations

import argparse
import math
import time

import numpy as np
from numpy.typing import NDArray

from leaderboards.scale import ELO_PER_THETA
from leaderboards.sprt import SprtSettings, elo_to_score, llr_batch

SEATS = 4
#: Seat advantages in Elo (first seat best), and the spread of a deal's luck per seat.
SEAT_ELO = np.array([30.0, 10.0, -10.0, -30.0])
DEAL_LUCK_ELO = 150.0


def expected_score(theta: float) -> float:
    """The candidate's expected block score at strength ``theta`` (pool at 0): the pairwise
    chance of finishing above an opponent is the logistic of the utility gap, averaged over
    rotations, opponents and the deal luck (Gauss–Hermite quadrature)."""
    seat = SEAT_ELO / ELO_PER_THETA
    luck_sd = math.sqrt(2) * DEAL_LUCK_ELO / ELO_PER_THETA
    nodes, weights = np.polynomial.hermite_e.hermegauss(80)
    weights = weights / weights.sum()
    total = 0.0
    for mine in range(SEATS):
        for theirs in range(SEATS):
            if mine != theirs:
                gap = theta + seat[mine] - seat[theirs] + luck_sd * nodes
                total += float((weights / (1 + np.exp(-gap))).sum())
    return total / (SEATS * (SEATS - 1))


def strength_for(score: float) -> float:
    """The candidate strength (θ) whose expected block score is ``score``."""
    low, high = -3.0, 3.0
    for _ in range(80):
        mid = (low + high) / 2
        low, high = (mid, high) if expected_score(mid) < score else (low, mid)
    return (low + high) / 2


def block_wins(theta: float, runs: int, rng: np.random.Generator) -> NDArray[np.intp]:
    """One block per run: the candidate's pairwise wins (0..12) over its four rotations."""
    seat = SEAT_ELO / ELO_PER_THETA
    luck = rng.normal(0, DEAL_LUCK_ELO / ELO_PER_THETA, (runs, 1, SEATS))
    strengths = np.zeros((runs, SEATS, SEATS))  # run, rotation, seat
    for rotation in range(SEATS):
        strengths[:, rotation, rotation] = theta  # the candidate sits in seat `rotation`
    utility = strengths + seat + luck + rng.gumbel(size=(runs, SEATS, SEATS))
    mine = utility[:, np.arange(SEATS), np.arange(SEATS)][:, :, None]
    beaten = (utility < mine).sum(axis=(1, 2))
    wins: NDArray[np.intp] = beaten.astype(np.intp)
    return wins


def simulate(
    theta: float, settings: SprtSettings, runs: int, cap: int, seed: int
) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """Per run: the verdict (1: H1, -1: H0, 0: none within ``cap`` blocks) and the blocks played."""
    rng = np.random.default_rng(seed)
    values = np.arange(SEATS * (SEATS - 1) + 1) / (SEATS * (SEATS - 1))
    counts = np.zeros((runs, values.size))
    verdict = np.zeros(runs, dtype=np.int64)
    blocks = np.zeros(runs, dtype=np.int64)
    active = np.arange(runs)
    for played in range(1, cap + 1):
        wins = block_wins(theta, active.size, rng)
        counts[active, wins] += 1
        llr = llr_batch(values, counts[active], settings)
        upper, lower = llr >= settings.upper, llr <= settings.lower
        verdict[active[upper]] = 1
        verdict[active[lower]] = -1
        blocks[active[upper | lower]] = played
        active = active[~(upper | lower)]
        if active.size == 0:
            break
    blocks[active] = cap
    return verdict, blocks


def report(label: str, verdict: NDArray[np.int64], blocks: NDArray[np.int64], wrong: int,
           nominal: float) -> None:
    runs = verdict.size
    rate = float((verdict == wrong).mean())
    margin = 1.96 * math.sqrt(rate * (1 - rate) / runs)
    undecided = int((verdict == 0).sum())
    p50, p90 = np.percentile(blocks, [50, 90])
    name = "false H1 (alpha)" if wrong == 1 else "false H0 (beta)"
    print(f"{label}: {name} {100 * rate:.2f}% ± {100 * margin:.2f} (nominal {100 * nominal:.1f}%, "
          f"off by {100 * abs(rate - nominal):.2f} points); undecided {undecided}; blocks to a "
          f"verdict mean {blocks.mean():.0f}, median {p50:.0f}, 90th percentile {p90:.0f} "
          f"(games: mean {SEATS * blocks.mean():.0f})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=1000)
    parser.add_argument("--elo0", type=float, default=0.0)
    parser.add_argument("--elo1", type=float, default=10.0)
    parser.add_argument("--alpha", type=float, default=0.05)
    parser.add_argument("--beta", type=float, default=0.05)
    parser.add_argument("--cap", type=int, default=50_000, help="Blocks at most per run.")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    settings = SprtSettings(args.elo0, args.elo1, args.alpha, args.beta)
    print(f"SPRT [{args.elo0:g}, {args.elo1:g}] alpha {args.alpha:g} beta {args.beta:g}, bounds "
          f"({settings.lower:.3f}, {settings.upper:.3f}); {args.runs} runs per hypothesis; "
          f"four-player blocks, seat advantages {SEAT_ELO.tolist()} Elo, deal luck sd "
          f"{DEAL_LUCK_ELO:g} Elo per seat")
    for label, elo, wrong, nominal, seed in (
        ("at elo0", args.elo0, 1, args.alpha, args.seed),
        ("at elo1", args.elo1, -1, args.beta, args.seed + 1),
    ):
        theta = strength_for(elo_to_score(elo))
        started = time.perf_counter()
        verdict, blocks = simulate(theta, settings, args.runs, args.cap, seed)
        report(label, verdict, blocks, wrong, nominal)
        print(f"  (candidate θ {theta:+.4f} = {theta * ELO_PER_THETA:+.1f} Elo raw for an expected "
              f"block score of {elo_to_score(elo):.5f}; simulated in {time.perf_counter() - started:.1f} s)")


if __name__ == "__main__":
    main()
