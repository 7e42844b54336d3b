"""Simulate "is v2 better than v1?" for a known 20-Elo gap: games to a verdict of the paired
head-to-head SPRT (``arena test``) against those of the gauntlet SPRT (candidate against a pool).

The model is that of ``benchmarks/sprt.py``: four-player tables; places by Plackett–Luce (Gumbel
noise) from the bots' strengths, seat advantages, and deal luck (a per-seat bonus shared by the
rotations of a deal). What the gauntlet cannot use and the pairing can is that the two games of a
deal pair (same deal, same rotation, same fill bots in the same seats) share more than the deal's
seat luck: the cards each seat holds and, while the candidate and the baseline play alike, the
whole course of the game. A game's play noise is ``sqrt(shared) * S + sqrt(1 - shared) * O``, ``S``
common to the two games of a pair, ``O`` each game's own (both standard Gumbel); ``--shared`` is
that fraction (0: the twins share only the deal's seat luck; 1: they differ only by the gap in
strength, as deterministic bots that play alike would).

v1 has strength 0, v2 ``--gap`` Elo (20). Three tests of H0 "v2 is no better than v1" against H1
"v2 is as much better as it is", each run exactly at its H1 boundary (v2 as it is) and exactly at
its H0 boundary (v1 in v2's place):

* the gauntlet SPRT, v2 against a pool of bots 150 Elo below, equal to and 150 above v1 (a
  ladder's pool), given v1's standing against that pool exactly (its elo0 and elo1 are the Elo of
  the expected block score of v1, then v2, found from ``--calibration`` simulated blocks): the
  current way, at its best, since in practice v1's standing is itself an estimate;
* ``arena test`` without ``--fill``: v2 against three copies of v1 (elo0 exactly 0 by symmetry),
  the distribution-free GSPRT of :mod:`leaderboards.sprt`;
* ``arena test --fill``: paired, v2 and v1 each against the ladder's pool on the same deals in the
  same seats (elo0 exactly 0 by symmetry: the difference of twins of equal bots has mean 0), the
  normal GSPRT of :mod:`leaderboards.paired`.

Prints, for each value of ``--shared``: the correlation of the twin blocks of a deal pair (compare
with ``benchmarks/h2h_twins.py`` on real games), then for each test the rate of false H1 at H0 (to
hold to ``--alpha`` within the printed simulation error), the rate of H1 at H1, and the mean,
median and 90th percentile of games to a verdict at H1; then the ratios of games at H1, the
gauntlet's over each ``arena test`` (above 1: ``arena test`` needs fewer).

Usage: python benchmarks/h2h_power.py [--runs 1000] [--gap 20] [--shared 0 0.5 0.9 1] [--seed 1]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from leaderboards.scale import ELO_PER_THETA
from leaderboards.paired import paired_llr
from leaderboards.sprt import SprtSettings, llr_at_means, score_to_elo

SEATS = 4
#: Seat advantages in Elo (first seat best), and the spread of a deal's luck per seat.
SEAT_ELO = np.array([30.0, 10.0, -10.0, -30.0])
DEAL_LUCK_ELO = 150.0
PAIRS = SEATS * (SEATS - 1)
Rng = np.random.Generator
GAUNTLET = "gauntlet SPRT, ladder pool"
COPIES = "arena test (v1 copies)"
PAIRED = "arena test --fill (paired)"
#: Observations for ``runs`` runs: (values index per run) from strengths.
Draw = Callable[[int, Rng], NDArray[np.intp]]
#: The LLR of each row of counts of ``values``, for the means ``s0`` against ``s1``.
Llr = Callable[[NDArray[np.float64], NDArray[np.float64], float, float], NDArray[np.float64]]


@dataclass(frozen=True)
class Table:
    """The tested bot's strength and its three opponents' (θ), and the shared play noise."""

    mine: float
    others: tuple[float, float, float]
    shared: float


def block_wins(table: Table, luck: NDArray[np.float64], common: NDArray[np.float64],
               rng: Rng) -> NDArray[np.intp]:
    """Per run, the tested bot's pairwise wins (0..12) over a deal's four rotations: it sits in
    seat ``r`` in rotation ``r``, the opponents in the seats after it in order."""
    runs = luck.shape[0]
    seat = SEAT_ELO / ELO_PER_THETA
    strengths = np.zeros((SEATS, SEATS))  # rotation, seat
    for rotation in range(SEATS):
        for place, theta in enumerate((table.mine, *table.others)):
            strengths[rotation, (rotation + place) % SEATS] = theta
    own = rng.gumbel(size=(runs, SEATS, SEATS))
    noise = np.sqrt(table.shared) * common + np.sqrt(1 - table.shared) * own
    utility = strengths + seat + luck + noise
    mine = utility[:, np.arange(SEATS), np.arange(SEATS)][:, :, None]
    wins: NDArray[np.intp] = (utility < mine).sum(axis=(1, 2)).astype(np.intp)
    return wins


def deal(runs: int, rng: Rng) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """A deal per run: the seats' luck (shared by the rotations) and the common play noise."""
    luck = rng.normal(0, DEAL_LUCK_ELO / ELO_PER_THETA, (runs, 1, SEATS))
    return luck, rng.gumbel(size=(runs, SEATS, SEATS))


def gauntlet(table: Table) -> Draw:
    """A gauntlet block of ``table``: the index is the candidate's wins, 0..12."""
    def draw(runs: int, rng: Rng) -> NDArray[np.intp]:
        luck, common = deal(runs, rng)
        return block_wins(table, luck, common, rng)
    return draw


def paired(candidate: Table, baseline: Table) -> Draw:
    """A deal pair: the index is the candidate's wins minus the baseline's, plus 12 (0..24)."""
    def draw(runs: int, rng: Rng) -> NDArray[np.intp]:
        luck, common = deal(runs, rng)
        return block_wins(candidate, luck, common, rng) - block_wins(baseline, luck, common, rng) + PAIRS
    return draw


def twin_correlation(candidate: Table, baseline: Table, count: int, rng: Rng) -> float:
    """The correlation of the two block scores of a deal pair, from ``count`` simulated pairs
    (``benchmarks/h2h_twins.py`` measures it on real games)."""
    luck, common = deal(count, rng)
    mine, theirs = block_wins(candidate, luck, common, rng), block_wins(baseline, luck, common, rng)
    return float(np.corrcoef(mine, theirs)[0, 1])


def mean_value(draw: Draw, values: NDArray[np.float64], count: int, rng: Rng) -> float:
    """The expected value of the observation, from ``count`` simulated ones."""
    total, done = 0.0, 0
    while done < count:
        size = min(100_000, count - done)
        total += float(values[draw(size, rng)].sum())
        done += size
    return total / count


def simulate(draw: Draw, llr_of: Llr, values: NDArray[np.float64], s0: float, s1: float,
             settings: SprtSettings, runs: int, cap: int, rng: Rng) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """Per run: the verdict (1 H1, -1 H0, 0 none within ``cap``) and the observations played."""
    counts = np.zeros((runs, values.size))
    verdict = np.zeros(runs, dtype=np.int64)
    played = np.full(runs, cap, dtype=np.int64)
    active = np.arange(runs)
    for n in range(1, cap + 1):
        counts[active, draw(active.size, rng)] += 1
        llr = llr_of(values, counts[active], s0, s1)
        upper, lower = llr >= settings.upper, llr <= settings.lower
        verdict[active[upper]], verdict[active[lower]] = 1, -1
        played[active[upper | lower]] = n
        active = active[~(upper | lower)]
        if active.size == 0:
            break
    return verdict, played


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=1000)
    parser.add_argument("--gap", type=float, default=20.0, help="v2's Elo over v1.")
    parser.add_argument("--shared", type=float, nargs="+", default=[0.0, 0.5, 0.9, 1.0],
                        help="Fractions of a game's play noise the two games of a deal pair share.")
    parser.add_argument("--alpha", type=float, default=0.05)
    parser.add_argument("--beta", type=float, default=0.05)
    parser.add_argument("--calibration", type=int, default=1_000_000)
    parser.add_argument("--cap", type=int, default=30_000, help="Observations at most per run.")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    print(f"v2 {args.gap:g} Elo over v1; four-player tables, seat advantages {SEAT_ELO.tolist()} "
          f"Elo, deal luck sd {DEAL_LUCK_ELO:g} Elo per seat; alpha {args.alpha:g} beta "
          f"{args.beta:g}; {args.runs} runs each at H0 (v2 = v1) and at H1")
    for shared in args.shared:
        print(f"shared play noise {shared:g}:")
        compare(args, shared, rng)


def compare(args: argparse.Namespace, shared: float, rng: Rng) -> None:
    """The three tests at one ``shared``, each at H0 and at H1, and the ratios of games at H1."""
    v2 = args.gap / ELO_PER_THETA
    wide = 150 / ELO_PER_THETA
    block = np.arange(PAIRS + 1) / PAIRS
    difference = np.arange(-PAIRS, PAIRS + 1) / PAIRS
    copies, mixed = (0.0, 0.0, 0.0), (-wide, 0.0, wide)
    tests: list[tuple[str, int, NDArray[np.float64], Llr, Draw, Draw, bool]] = [
        (GAUNTLET, SEATS, block, llr_at_means,
         gauntlet(Table(0.0, mixed, shared)), gauntlet(Table(v2, mixed, shared)), True),
        (COPIES, SEATS, block, llr_at_means,
         gauntlet(Table(0.0, copies, shared)), gauntlet(Table(v2, copies, shared)), False),
        (PAIRED, 2 * SEATS, (1 + difference) / 2, paired_llr,
         paired(Table(0.0, mixed, shared), Table(0.0, mixed, shared)),
         paired(Table(v2, mixed, shared), Table(0.0, mixed, shared)), False),
    ]
    r = twin_correlation(Table(v2, mixed, shared), Table(0.0, mixed, shared), 200_000, rng)
    print(f"  correlation of the twin blocks of a deal pair: {r:.3f}")
    games: dict[str, float] = {}
    for label, per, values, llr_of, at_h0, at_h1, calibrate in tests:
        started = time.perf_counter()
        # v1 in v2's place: exactly 1/2 by symmetry, except against the pool (calibrated)
        s0 = mean_value(at_h0, values, args.calibration, rng) if calibrate else 0.5
        s1 = mean_value(at_h1, values, args.calibration, rng)
        settings = SprtSettings(score_to_elo(s0), score_to_elo(s1), args.alpha, args.beta)
        false_h1, _ = simulate(at_h0, llr_of, values, s0, s1, settings, args.runs, args.cap, rng)
        verdict, played = simulate(at_h1, llr_of, values, s0, s1, settings, args.runs, args.cap,
                                   rng)
        spent = played * per
        games[label] = float(spent.mean())
        p50, p90 = np.percentile(spent, [50, 90])
        rate = float((false_h1 == 1).mean())
        error = 2 * np.sqrt(args.alpha * (1 - args.alpha) / args.runs)
        print(f"  {label}: expected statistic {s0:.5f} (v1) vs {s1:.5f} (v2); at H0 H1 accepted "
              f"{100 * rate:.1f}% (alpha {100 * args.alpha:g}% +- {100 * error:.1f}%); at H1 "
              f"H1 accepted {100 * float((verdict == 1).mean()):.1f}%, undecided "
              f"{int((verdict == 0).sum())}; games to a verdict mean {spent.mean():.0f}, median "
              f"{p50:.0f}, 90th percentile {p90:.0f} ({per} games an observation; "
              f"{time.perf_counter() - started:.1f} s)")
    for label in (COPIES, PAIRED):
        print(f"  ratio of games at H1, {GAUNTLET} / {label}: "
              f"{games[GAUNTLET] / games[label]:.2f}x")


if __name__ == "__main__":
    main()
