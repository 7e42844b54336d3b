"""Compare tournament formats on synthetic fields: how well each ranks, and how tight its intervals.

For 16, 64 and 200 entrants with known strengths (normal, sd 0.8 in θ units, about 140 Elo) and
seat advantages (+30, +10, −10, −30 Elo at four-player tables), each format plays the same number
of four-player tables per bot, every table one deal under its four rotations; places are drawn by
Plackett–Luce (Gumbel noise) with per-deal seat luck that the rotations cancel. Formats:

* round-robin: every table of four (only where that is the budget: 16 entrants, 455 tables each);
* sampled: :func:`arena.tournament.sampled.sampled_tables`, as ``format = "sampled"`` draws it;
* swiss: :func:`arena.tournament.swiss.round_tables`, one table per bot per round, the first round
  random, each next from the standings, as ``format = "swiss"`` forms it.

Each field is rated by the leaderboard (Plackett–Luce with seat terms, bootstrap intervals over
duplicate blocks); printed: games, Spearman rank correlation with the true strengths, and the
mean width of the 95% intervals (Elo).
Last, the time of the whole leaderboard for 200 entrants × 40 sampled tables with the default
1000 bootstrap samples.

Usage: python benchmarks/formats.py [--samples 200] [--sizes 16,64,200] [--budgets 10,40]
"""

from __future__ import annotations

import argparse
import itertools
import time
from collections.abc import Callable, Sequence

import numpy as np
from scipy.stats import spearmanr

from arena.tournament.sampled import sampled_tables
from arena.tournament.swiss import Result, round_tables
from leaderboards.build import build_leaderboard
from leaderboards.model import Leaderboard, RatingSettings
from leaderboards.results import RatedGame
from leaderboards.scale import ELO_PER_THETA

SEATS = 4
SEAT_ELO = np.array([30.0, 10.0, -10.0, -30.0])
LUCK_ELO = 100.0

Tables = Callable[[list[str], int, np.random.Generator], list[RatedGame]]


class Field:
    """Entrants with true strengths, and a way to play a table."""

    def __init__(self, size: int, seed: int) -> None:
        self.rng = np.random.default_rng(seed)
        self.names = [f"b{i:03d}" for i in range(size)]
        self.theta = dict(zip(self.names, self.rng.normal(0.0, 0.8, size)))
        self.deals = 0

    def play(self, table: Sequence[str]) -> list[RatedGame]:
        """One deal of ``table`` under its four rotations."""
        self.deals += 1
        seat = (SEAT_ELO + self.rng.normal(0.0, LUCK_ELO, SEATS)) / ELO_PER_THETA
        games = []
        for rotation in range(SEATS):
            seated = tuple(table[(s + rotation) % SEATS] for s in range(SEATS))
            utility = np.array([self.theta[b] for b in seated]) + seat
            utility += self.rng.gumbel(size=SEATS)
            ranks = tuple(int(r) + 1 for r in np.argsort(np.argsort(-utility)))
            games.append(RatedGame("wongar", "basic", self.deals, seated, ranks))
        return games


def round_robin(field: Field, per_bot: int) -> list[RatedGame]:
    return [g for t in itertools.combinations(field.names, SEATS) for g in field.play(t)]


def sampled(field: Field, per_bot: int) -> list[RatedGame]:
    tables = sampled_tables(field.names, SEATS, per_bot, seed=int(field.rng.integers(2**32)))
    return [g for t in tables for g in field.play(t)]


def swiss(field: Field, per_bot: int) -> list[RatedGame]:
    games: list[RatedGame] = []
    byes: dict[str, int] = {}
    for number in range(per_bot):
        results = [Result(g.bots, g.ranks) for g in games]
        tables, bye = round_tables(field.names, SEATS, results, byes, seed=number)
        for bot in bye:
            byes[bot] = byes.get(bot, 0) + 1
        games += [g for t in tables for g in field.play(t)]
    return games


def measure(field: Field, board: Leaderboard) -> tuple[float, float]:
    """Spearman ρ with the true strengths, and the mean width of the 95% intervals (Elo)."""
    truth = [field.theta[s.bot] for s in board.standings]
    rho = float(spearmanr(truth, [s.elo for s in board.standings]).statistic)
    widths = [s.ci_high - s.ci_low for s in board.standings
              if s.ci_low is not None and s.ci_high is not None]
    return rho, float(np.mean(widths))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=200, help="Bootstrap samples per board.")
    parser.add_argument("--sizes", default="16,64,200")
    parser.add_argument("--budgets", default="10,40", help="Tables per bot.")
    parser.add_argument("--skip-timing", action="store_true")
    args = parser.parse_args()
    settings = RatingSettings(bootstrap_samples=args.samples)
    print(f"{'entrants':>8} {'tables/bot':>10} {'format':<12} {'games':>7} {'spearman':>9} "
          f"{'CI width':>9} {'seconds':>8}")
    for size in (int(s) for s in args.sizes.split(",")):
        budgets = [int(b) for b in args.budgets.split(",")]
        if size == 16:
            budgets.append(455)  # every table of four from 16: the round-robin's own budget
        for per_bot in budgets:
            formats: list[tuple[str, Callable[[Field, int], list[RatedGame]]]] = [
                ("sampled", sampled), ("swiss", swiss)
            ]
            if per_bot == 455 and size == 16:
                formats.insert(0, ("round-robin", round_robin))
            for label, play in formats:
                field = Field(size, seed=size)
                started = time.perf_counter()
                games = play(field, per_bot)
                board = build_leaderboard(games, settings=settings)
                rho, width = measure(field, board)
                print(f"{size:>8} {per_bot:>10} {label:<12} {len(games):>7} {rho:>9.3f} "
                      f"{width:>9.1f} {time.perf_counter() - started:>8.1f}",
                      flush=True)
    if not args.skip_timing:
        field = Field(200, seed=200)
        games = sampled(field, 40)
        started = time.perf_counter()
        build_leaderboard(games)
        print(f"leaderboard of 200 entrants x 40 sampled tables ({len(games)} games, default "
              f"{RatingSettings().bootstrap_samples} bootstrap samples): "
              f"{time.perf_counter() - started:.1f} s")


if __name__ == "__main__":
    main()
