"""Junk flood: does a referee flooded with junk charge honest seats for it?

Three conditions, each played on one hub with long-lived bots until the honest seats have made
``--decisions`` decisions (Wongar, three seats; seats 1 and 2 are honest bots that answer after
``--think`` of the move, by sleeping, so any time beyond that is the referee's and the wire's):

* quiet:    seat 0 is an instant random bot; nobody floods;
* seat:     seat 0 is ``tests/hostile/flood_bot.py seat``: it plays, follows every reply with
            junk on its own connection, and floods from strangers' connections all the time;
* stranger: seat 0 is an instant random bot; a separate ``flood_bot.py stranger`` process floods
            the match's socket without ever saying hello (as a bot of a parallel match would).

Printed per condition: honest decisions, timeouts charged to honest seats (the goal is 0), and the
referee's time per honest decision beyond the bot's own think time (recorded elapsed − think),
p50 and p99, with ratios against the quiet run of the same invocation.

Usage: python benchmarks/junk_flood.py [--decisions 2000] [--move-ms 250] [--think 0.5]
"""

from __future__ import annotations

import argparse
import logging
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path

from arena.clock import TimeControl
from arena.handle import BotHandle, close_all
from arena.manifest import BotSpec, resolve_bot
from arena.referee import FaultPolicy, play_match
from engine.registry import get_game
from protocols.transport import Hub

HERE = Path(__file__).parent
FLOOD_BOT = HERE.parent / "tests" / "hostile" / "flood_bot.py"


def run_condition(name: str, decisions: int, control: TimeControl, think: float) -> dict[str, float]:
    """Play matches under ``name`` until the honest seats made ``decisions``; the figures."""
    game = get_game("wongar")
    config = game.configure(3)
    sleepy = BotSpec("sleepy", (sys.executable, str(HERE / "sleepy_bot.py"), str(think)), trusted=True)
    first = (BotSpec("flooder", (sys.executable, str(FLOOD_BOT), "seat"), trusted=True)
             if name == "seat" else resolve_bot("random"))
    overheads: list[float] = []
    timeouts = refused = dropped = 0
    with Hub() as hub, ExitStack() as stack, tempfile.TemporaryDirectory() as logs:
        handles = BotHandle.launch_all([first, sleepy, sleepy], hub, Path(logs))
        stack.callback(close_all, handles)
        if name == "stranger":
            stranger = subprocess.Popen([sys.executable, str(FLOOD_BOT), "stranger", hub.endpoint,
                                         "3600"], stdout=subprocess.PIPE, text=True)
            stack.callback(stranger.wait)
            stack.callback(stranger.kill)
            assert stranger.stdout is not None
            stranger.stdout.readline()
        seed = 1000
        while len(overheads) < decisions:
            seed += 1
            record = play_match(game, config, seed, handles, control, FaultPolicy(strikes=10**6))
            timeouts += sum(1 for f in record.faults if f.seat != 0)
            overheads += [d.elapsed - think for d in record.decisions if d.seat != 0 and not d.fallback]
            refused += int(record.detail["refused"])  # type: ignore[arg-type]
            dropped += sum(record.detail["dropped"])  # type: ignore[arg-type]
    cuts = statistics.quantiles(overheads, n=100)
    return {"decisions": len(overheads), "timeouts": timeouts, "p50": cuts[49] * 1000,
            "p99": cuts[98] * 1000, "refused": refused, "dropped": dropped}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decisions", type=int, default=2000)
    parser.add_argument("--move-ms", type=int, default=250)
    parser.add_argument("--think", type=float, default=0.5, help="share of the move honest bots take")
    args = parser.parse_args()
    logging.basicConfig(level=logging.ERROR)  # the hub logs its first refusals as warnings
    control = TimeControl(args.move_ms / 1000, grace=0.05)
    think = args.think * args.move_ms / 1000
    print(f"wongar, 3 seats, {control}, honest bots think {think * 1000:.0f} ms, "
          f"{args.decisions} honest decisions per condition")
    print(f"{'condition':<10} {'decisions':>9} {'timeouts':>8} {'p50 ms':>8} {'p99 ms':>8} "
          f"{'p50/quiet':>9} {'p99/quiet':>9} {'refused':>8} {'dropped':>8}")
    quiet: dict[str, float] = {}
    for name in ("quiet", "seat", "stranger"):
        started = time.monotonic()
        figures = run_condition(name, args.decisions, control, think)
        quiet = quiet or figures
        print(f"{name:<10} {figures['decisions']:>9.0f} {figures['timeouts']:>8.0f} "
              f"{figures['p50']:>8.2f} {figures['p99']:>8.2f} {figures['p50'] / quiet['p50']:>9.2f} "
              f"{figures['p99'] / quiet['p99']:>9.2f} {figures['refused']:>8.0f} "
              f"{figures['dropped']:>8.0f}   ({time.monotonic() - started:.0f} s)", flush=True)


if __name__ == "__main__":
    main()
