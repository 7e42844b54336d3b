"""False timeouts: how often a busy machine makes an honest bot lose on time, wall clock vs CPU clock.

Three sandboxed copies of a bot that burns ``--share`` (90%) of a ``--move-ms`` (50 ms) move in CPU at
every decision play Wongar, with the machine oversubscribed: one CPU burner per processor, started
here and always stopped. The same matches are played under the wall clock and under the CPU clock
until each has ``--decisions`` decisions; printed: timeouts under each (the goal under the CPU clock
is 0), and the charged time per decision (p50, p99).

Usage: python benchmarks/false_timeouts.py [--decisions 2000] [--move-ms 50] [--share 0.9]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path

from arena.clock import ClockRule, TimeControl
from arena.handle import BotHandle, close_all
from arena.manifest import BotSpec
from arena.referee import FaultPolicy, play_match
from engine.registry import get_game
from protocols.transport import Hub

BURNING_BOT = """
import time
from protocols.sdk import run
def choose(observation, legal, clock):
    end = time.process_time() + {burn}
    while time.process_time() < end:
        pass
    return legal[0]
raise SystemExit(run(choose, name="burner"))
"""


def play(kind: str, decisions: int, control: TimeControl, burn: float) -> dict[str, float]:
    """Matches under the ``kind`` clock until ``decisions`` were made; the figures."""
    game = get_game("wongar")
    spec = BotSpec("burner", (sys.executable, "-c", BURNING_BOT.format(burn=burn)))
    charged: list[float] = []
    timeouts = 0
    with Hub() as hub, ExitStack() as stack, tempfile.TemporaryDirectory() as logs:
        handles = BotHandle.launch_all([spec] * 3, hub, Path(logs))
        stack.callback(close_all, handles)
        seed = 0
        while len(charged) < decisions:
            seed += 1
            record = play_match(game, game.configure(3), seed, handles, control,
                                FaultPolicy(strikes=10**6), clock=ClockRule(kind))
            assert record.detail["clock"] == kind, record.detail["clock"]
            timeouts += sum(1 for f in record.faults if f.kind.value == "timeout")
            for d in record.decisions:
                cost = d.cpu if kind == "cpu" else d.elapsed
                charged.append(cost if cost is not None else float("nan"))
    cuts = statistics.quantiles(charged, n=100)
    return {"decisions": len(charged), "timeouts": timeouts, "p50": cuts[49] * 1000, "p99": cuts[98] * 1000}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decisions", type=int, default=2000)
    parser.add_argument("--move-ms", type=int, default=50)
    parser.add_argument("--share", type=float, default=0.9, help="share of the move the bot burns")
    args = parser.parse_args()
    control = TimeControl(args.move_ms / 1000)
    burn = args.share * args.move_ms / 1000
    cores = os.cpu_count() or 1
    print(f"wongar, 3 sandboxed bots burning {burn * 1000:.0f} ms of CPU per decision, {control}, "
          f"{cores} CPU burners on {cores} processors")
    print(f"{'clock':<6} {'decisions':>9} {'timeouts':>8} {'charged p50 ms':>15} {'p99 ms':>8}")
    with ExitStack() as stack:
        for _ in range(cores):
            burner = subprocess.Popen([sys.executable, "-c", "while True: pass"])
            stack.callback(burner.wait)
            stack.callback(burner.kill)
        for kind in ("wall", "cpu"):
            started = time.monotonic()
            figures = play(kind, args.decisions, control, burn)
            print(f"{kind:<6} {figures['decisions']:>9.0f} {figures['timeouts']:>8.0f} "
                  f"{figures['p50']:>15.1f} {figures['p99']:>8.1f}   ({time.monotonic() - started:.0f} s)",
                  flush=True)


if __name__ == "__main__":
    main()
