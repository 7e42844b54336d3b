"""Ladder strength: every built-in ladder played, each bot's Elo with its 95% interval, and the steps.

Plays ``examples/ladder-GAME.toml`` (tables of 3) and ``examples/ladder-GAME-4.toml`` /
``-5.toml`` (tables of 4 and 5, extra seats filled by more entries of random) through
``arena tournament run`` with their node budgets, ``--deals`` deals each in duplicate, and prints
each bot's rating (``arena leaderboard``, the mean 1500) with its 95% interval, then each step of
the ladder (random, greedy, ismcts, expert: those in the config): its size in Elo, whether it
reaches ``--step`` Elo and whether the two intervals are disjoint. With node budgets the games do
not depend on the machine's speed or load, so a busy machine only makes the run slower.

Usage: python benchmarks/ladder_strength.py [--deals 32] [--game wongar] [--players 3] [-j 2]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from ladder_reproducibility import EXAMPLES, Standings, _bound, play, results

#: The ladder's rungs, weakest first (the config's other entries are fillers).
RUNGS = ("random", "greedy", "ismcts", "expert")


def ladder_config(game: str, players: int) -> Path:
    """The ladder config of ``game`` at tables of ``players``."""
    return EXAMPLES / (f"ladder-{game}.toml" if players == 3 else f"ladder-{game}-{players}.toml")


def print_steps(standings: Standings, step: float) -> None:
    """Each step between consecutive rungs: Elo gained, whether it reaches ``step``, disjointness."""
    rows = {row["bot"]: row for row in standings}
    rungs = [rows[name] for name in RUNGS if name in rows]
    for lower, upper in zip(rungs, rungs[1:]):
        gain = upper["elo"] - lower["elo"]
        apart = _bound(upper["ci_low"], -float("inf")) > _bound(lower["ci_high"], float("inf"))
        verdict = "ok" if gain >= step and apart else "SHORT"
        print(f"    step {lower['bot']} -> {upper['bot']}: {gain:+7.1f} Elo, "
              f"intervals {'disjoint' if apart else 'overlap'}  [{verdict}]")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=32, help="deals per ladder (each played once per seat)")
    parser.add_argument("--game", action="append", choices=["wongar", "waroong"])
    parser.add_argument("--players", action="append", type=int, choices=[3, 4, 5])
    parser.add_argument("-j", "--concurrency", type=int, default=2, help="matches in parallel")
    parser.add_argument("--step", type=float, default=150.0, help="the Elo a step should reach")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        for game in args.game or ["wongar", "waroong"]:
            for players in args.players or [3, 4, 5]:
                config = ladder_config(game, players)
                db = Path(folder, f"{game}-{players}.db")
                started = time.monotonic()
                play(config, db, args.deals, args.concurrency)
                moves, cut, standings = results(db)
                print(f"{config.name}: {len(moves)} games ({args.deals} deals) in "
                      f"{time.monotonic() - started:.0f} s, {cut} budgeted searches cut short")
                for row in standings:
                    low, high = _bound(row["ci_low"], -float("inf")), _bound(row["ci_high"], float("inf"))
                    print(f"    {row['bot']:9} {row['elo']:7.1f}  95% [{low:7.1f}, {high:7.1f}]")
                print_steps(standings, args.step)


if __name__ == "__main__":
    main()
