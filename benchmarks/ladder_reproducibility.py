"""Ladder reproducibility: the built-in ladders with node budgets, played idle and on a busy machine.

Plays each ladder config (``examples/ladder-wongar.toml``, ``examples/ladder-waroong.toml``, with
their node budgets; ``--deals`` of them in duplicate) twice through ``arena tournament run``: once
on an idle machine and once with a CPU burner per processor (busy processes started here and always
stopped). Prints, per ladder and run, the wall time, the node-budgeted searches the clock cut short,
each bot's rating with its 95% interval, whether the intervals are disjoint, and whether both runs
played the same games, decision for decision.

Usage: python benchmarks/ladder_reproducibility.py [--deals 8] [--ladder wongar --ladder waroong]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from arena.store.db import Store

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
#: Runs the arena CLI with this interpreter (and its import path).
ARENA = [sys.executable, "-c", "import sys; from arena.cli.app import main; sys.argv[0] = 'arena'; main()"]

Moves = dict[str, list[tuple[int, int]]]
#: A leaderboard's lines as ``arena leaderboard --format json`` gives them, best first.
Standings = list[dict[str, Any]]


@contextmanager
def burners(count: int) -> Iterator[None]:
    """``count`` processes that each keep a processor busy, stopped (killed and reaped) on exit."""
    procs = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(count)]
    try:
        yield
    finally:
        for proc in procs:
            proc.kill()
        for proc in procs:
            proc.wait()


def play(config: Path, db: Path, deals: int, concurrency: int | None = None) -> float:
    """Run the ladder into ``db`` (``concurrency`` matches at once; ``None``: the config's); the
    wall seconds it took. Raises if the run fails."""
    started = time.monotonic()
    jobs = [] if concurrency is None else ["-j", str(concurrency)]
    subprocess.run([*ARENA, "tournament", "run", str(config), "--db", str(db), "--deals", str(deals), *jobs],
                   check=True, stdout=subprocess.DEVNULL)
    return time.monotonic() - started


def results(db: Path) -> tuple[Moves, int, Standings]:
    """Every game's decisions (seat, action) by id, the searches cut short, and the standings."""
    store = Store(db)
    try:
        games = store.games(store.tournament(None).name)
        moves = {g.placement.game_id: [(d.seat, d.action) for d in g.record.decisions] for g in games}
        cut = sum(1 for g in games for d in g.record.decisions if d.info and d.info.get("cut"))
    finally:
        store.close()
    board = subprocess.run([*ARENA, "leaderboard", "--db", str(db), "--format", "json"],
                           check=True, capture_output=True, text=True)
    standings: Standings = json.loads(board.stdout)["standings"]
    return moves, cut, standings


def _bound(value: float | None, unbounded: float) -> float:
    """An interval end; ``None`` (a rating only the prior bounds) is ``unbounded``."""
    return unbounded if value is None else value


def disjoint(standings: Standings) -> bool:
    """Whether each bot's 95% interval lies wholly above the next one's."""
    return all(_bound(upper["ci_low"], -float("inf")) > _bound(lower["ci_high"], float("inf"))
               for upper, lower in zip(standings, standings[1:]))


def report(label: str, seconds: float, games: int, cut: int, standings: Standings) -> None:
    print(f"  {label}: {games} games in {seconds:.0f} s, {cut} budgeted searches cut short")
    for row in standings:
        low, high = (_bound(row["ci_low"], -float("inf")), _bound(row["ci_high"], float("inf")))
        print(f"    {row['bot']:7} {row['elo']:7.1f}  95% [{low:7.1f}, {high:7.1f}]")
    print(f"    intervals disjoint: {'yes' if disjoint(standings) else 'no'}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=8, help="deals per ladder (each played 3 times)")
    parser.add_argument("--ladder", action="append", choices=["wongar", "waroong"])
    args = parser.parse_args()
    cores = os.cpu_count() or 1
    print(f"{cores} processors; burners: {cores}; {args.deals} deals per ladder")
    with tempfile.TemporaryDirectory() as folder:
        for name in args.ladder or ["wongar", "waroong"]:
            config = EXAMPLES / f"ladder-{name}.toml"
            print(f"ladder-{name}")
            idle_db, busy_db = Path(folder, f"{name}-idle.db"), Path(folder, f"{name}-busy.db")
            idle_seconds = play(config, idle_db, args.deals)
            with burners(cores):
                busy_seconds = play(config, busy_db, args.deals)
            idle, idle_cut, idle_board = results(idle_db)
            busy, busy_cut, busy_board = results(busy_db)
            report("idle", idle_seconds, len(idle), idle_cut, idle_board)
            report(f"{cores} burners", busy_seconds, len(busy), busy_cut, busy_board)
            same = sum(1 for key, decisions in idle.items() if busy.get(key) == decisions)
            every = " (all)" if same == len(idle) == len(busy) else ""
            print(f"  identical games: {same} of {len(idle)}{every}")


if __name__ == "__main__":
    main()
