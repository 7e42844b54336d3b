"""Measure the rating fit: 20 bots, 100,000 four-player games (25,000 deals, each under 4 rotations).

Prints the time to compile the games, the Plackett–Luce fit, the bootstrap (per replicate and in
total), and the whole ``build_leaderboard`` (fit, bootstrap, pairwise cross-check and every table)
against the goal of 10 s for the published default of bootstrap samples.

Usage: python benchmarks/ratings_speed.py [--games 100000] [--bots 20] [--samples 1000]
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from threadpoolctl import threadpool_limits

from leaderboards.bootstrap import bootstrap_thetas
from leaderboards.build import build_leaderboard, deal_block
from leaderboards.model import DEFAULT_BOOTSTRAP_SAMPLES, RatingSettings
from leaderboards.plackett_luce import Finish, PlackettLuceModel
from leaderboards.results import RatedGame
from leaderboards.scale import ELO_PER_THETA


GOAL_SECONDS = 10.0
"""The whole leaderboard of 20 bots and 100,000 games with the default samples should take less."""


def tournament(bots: int, games: int, seed: int) -> tuple[list[RatedGame], np.ndarray]:
    """Random 4-bot tables, each deal under its 4 seat rotations; places drawn by Plackett–Luce."""
    rng = np.random.default_rng(seed)
    strengths = rng.normal(0.0, 0.8, bots)
    seat_edge = np.array([0.15, 0.05, -0.05, -0.15])
    names = [f"bot{i:02d}" for i in range(bots)]
    records: list[RatedGame] = []
    for deal in range(games // 4):
        table = rng.choice(bots, 4, replace=False)
        for shift in range(4):
            seated = np.roll(table, shift)
            noisy = strengths[seated] + seat_edge + rng.gumbel(size=4)
            ranks = tuple(int(r) for r in np.argsort(np.argsort(-noisy)) + 1)
            records.append(
                RatedGame(
                    game="wongar", variant="basic", seed=deal,
                    bots=tuple(names[i] for i in seated), ranks=ranks,
                )
            )
    return records, strengths


def timed(label: str, started: float) -> float:
    elapsed = time.perf_counter() - started
    print(f"{label:<44} {elapsed:8.3f} s")
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--bots", type=int, default=20)
    parser.add_argument("--samples", type=int, default=DEFAULT_BOOTSTRAP_SAMPLES)
    args = parser.parse_args()
    records, strengths = tournament(args.bots, args.games, seed=1)
    print(f"{args.bots} bots, {len(records)} four-player games, {args.samples} bootstrap samples")

    started = time.perf_counter()
    index = {bot: i for i, bot in enumerate(sorted({b for r in records for b in r.bots}))}
    finishes = [Finish(tuple(index[b] for b in r.bots), r.ranks, 0) for r in records]
    model = PlackettLuceModel(len(index), finishes, [4])
    timed("compile games", started)

    prior = RatingSettings().prior_sd / ELO_PER_THETA
    blocks = {deal_block(r): 0 for r in records}
    block_of = {key: i for i, key in enumerate(blocks)}
    block_ids = np.array([block_of[deal_block(r)] for r in records], dtype=np.intp)
    with threadpool_limits(limits=1, user_api="blas"):  # as build_leaderboard runs them
        started = time.perf_counter()
        fit = model.fit(prior_sd=prior)
        fit_time = timed(f"Plackett–Luce fit ({fit.iterations} Newton steps)", started)
        started = time.perf_counter()
        samples = bootstrap_thetas(model, fit, block_ids, prior, args.samples, seed=0)
        boot_time = timed(f"bootstrap, {len(block_of)} blocks", started)
    print(f"{'  per replicate':<44} {1000 * boot_time / args.samples:8.1f} ms")
    print(f"{'  bootstrap / fit':<44} {boot_time / fit_time:8.1f} x")
    rng = np.random.default_rng(0)  # the draws of the first replicates, fitted from scratch
    worst = 0.0
    for replicate in samples[:3]:
        drawn = np.bincount(rng.integers(0, len(block_of), len(block_of)), minlength=len(block_of))
        exact = model.fit(drawn[block_ids].astype(np.float64), prior, tolerance=1e-12)
        worst = max(worst, float(np.abs(replicate - exact.theta).max()))
    print(f"{'  replicates against exact fits (3 of them)':<44} {worst * ELO_PER_THETA:8.5f} Elo")

    started = time.perf_counter()
    board = build_leaderboard(records, settings=RatingSettings(bootstrap_samples=args.samples))
    total = timed("build_leaderboard (everything)", started)
    verdict = "within" if total < GOAL_SECONDS else "OVER"
    print(f"{'  against the goal':<44} {total / GOAL_SECONDS:8.2f} x {GOAL_SECONDS:.0f} s ({verdict})")

    truth = (strengths - strengths.mean()) * ELO_PER_THETA
    order = [index[f"bot{i:02d}"] for i in range(args.bots)]
    error = fit.theta[order] * ELO_PER_THETA - truth
    width = np.percentile(samples, 97.5, axis=0) - np.percentile(samples, 2.5, axis=0)
    print(f"{'largest error against the true strengths':<44} {np.abs(error).max():8.1f} Elo")
    print(f"{'mean 95% interval width':<44} {width.mean() * ELO_PER_THETA:8.1f} Elo")
    print(f"{'seat terms (Elo)':<44} {np.round(fit.seat_terms[0] * ELO_PER_THETA, 1)}")
    print(f"{'top of the board':<44} {board.standings[0].bot} {board.standings[0].elo:.1f}")


if __name__ == "__main__":
    main()
