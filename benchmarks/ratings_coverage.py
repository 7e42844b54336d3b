"""Measure how often the published 95% intervals hold the true rating (their coverage).

Simulates duplicate tournaments whose true strengths are known (Plackett-Luce places from Gumbel
noise, a seat-0 edge), rates each with ``build_leaderboard`` at several ``bootstrap_samples``, and
prints, per sample count, the share of (tournament, bot) intervals that contain the true Elo, with
its standard error, and the time per leaderboard.

Usage: python benchmarks/ratings_coverage.py [--tournaments 300] [--bots 6] [--deals 40]
       [--samples 200 1000 2000]
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from leaderboards.build import build_leaderboard
from leaderboards.model import RatingSettings
from leaderboards.results import RatedGame
from leaderboards.scale import ELO_MEAN, ELO_PER_THETA


def tournament(rng: np.random.Generator, bots: int, deals: int) -> tuple[list[RatedGame], dict[str, float]]:
    """Four-bot tables, each deal under its four rotations, places drawn exactly as Plackett-Luce
    with seat terms assumes; returns the records and the true Elo of every bot."""
    strengths = rng.normal(0.0, 0.5, bots)
    names = [f"b{i}" for i in range(bots)]
    seat_edge = np.array([0.3, 0.1, -0.1, -0.3])
    records: list[RatedGame] = []
    for deal in range(deals):
        table = rng.choice(bots, 4, replace=False)
        for shift in range(4):
            seated = np.roll(table, shift)
            noisy = strengths[seated] + seat_edge + rng.gumbel(size=4)
            ranks = tuple(int(r) for r in np.argsort(np.argsort(-noisy)) + 1)
            records.append(RatedGame(
                game="wongar", variant="basic", seed=deal, bots=tuple(names[i] for i in seated), ranks=ranks,
            ))
    centred = strengths - strengths.mean()
    return records, {names[i]: ELO_MEAN + ELO_PER_THETA * float(centred[i]) for i in range(bots)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tournaments", type=int, default=300)
    parser.add_argument("--bots", type=int, default=6)
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--samples", type=int, nargs="+", default=[200, 1000, 2000])
    args = parser.parse_args()
    rng = np.random.default_rng(2026)
    hits = {b: 0 for b in args.samples}
    seconds = {b: 0.0 for b in args.samples}
    total = 0
    for number in range(args.tournaments):
        records, truth = tournament(rng, args.bots, args.deals)
        total += len(truth)
        for samples in args.samples:
            started = time.perf_counter()
            board = build_leaderboard(records, settings=RatingSettings(bootstrap_samples=samples, seed=number))
            seconds[samples] += time.perf_counter() - started
            hits[samples] += sum(
                (s.ci_low is None or s.ci_low <= truth[s.bot]) and (s.ci_high is None or truth[s.bot] <= s.ci_high)
                for s in board.standings
            )  # an end only the prior bounds (None) is unbounded
    print(f"{args.tournaments} tournaments of {args.bots} bots, {args.deals} deals x 4 rotations each")
    for samples in args.samples:
        share = hits[samples] / total
        error = (share * (1 - share) / total) ** 0.5
        print(f"bootstrap_samples {samples:>5}: coverage {100 * share:5.1f}% ± {100 * error:.1f}  "
              f"{1000 * seconds[samples] / args.tournaments:7.1f} ms per leaderboard")


if __name__ == "__main__":
    main()
