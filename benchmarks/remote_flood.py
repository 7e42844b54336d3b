"""Descriptor flood: how many connections a second the remote endpoint absorbs, and what they cost
a remote seat playing meanwhile.

One hub listens on ``tcp://127.0.0.1`` (CURVE) with the default connection caps. Seat 0 is the
built-in ``random`` bot connected over tcp as a remote entrant would be; the other seats are local
``random`` bots. Each condition plays ``--matches`` matches: first quietly, then while
``tests/hostile/connection_flood.py`` churns connections at the endpoint (idle ones, half ZMTP
greetings, garbage; batches of ``--batch`` held until the next batch is made, from ``--sources``
loopback addresses) at each rate of ``--rates`` (connections a second, 0 for as many as the
flooding process can make; it runs at the lowest priority, as the processor it floods from would
not be the referee's, but it still shares this machine). Printed per condition: connections accepted a second by the hub,
connections shed, seat 0's decision times (act sent → action received, as recorded) p50 and p99,
the ratios to the quiet run, and seat 0's faults (the goal is 0).

Usage: python benchmarks/remote_flood.py [--matches 10] [--rates 500,2000,0] [--batch 256] [--sources 8]
"""

from __future__ import annotations

import argparse
import logging
import os
import select
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from arena.clock import TimeControl
from arena.handle import BotHandle, close_all
from arena.manifest import resolve_bot
from arena.referee import play_match
from arena.remote.keys import new_keys
from arena.remote.seats import remote_spec
from engine.registry import get_game
from protocols.transport import Hub

FLOOD = Path(__file__).parent.parent / "tests" / "hostile" / "connection_flood.py"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=10)
    parser.add_argument("--rates", default="500,2000,0")
    parser.add_argument("--batch", type=int, default=256)
    parser.add_argument("--sources", type=int, default=8)
    args = parser.parse_args()
    logging.basicConfig(level=logging.ERROR)  # the guard logs its first sheds as warnings
    game = get_game("wongar")
    config = game.configure(3)
    control = TimeControl.parse("5s")
    keys = new_keys()
    with tempfile.TemporaryDirectory() as logs, Hub(curve=keys, listen="tcp://127.0.0.1:*") as hub:
        assert hub.listening is not None
        others = BotHandle.launch_all([resolve_bot("random")] * 2, hub, Path(logs))
        remote = BotHandle.remote(remote_spec("remote-random"), hub)
        env = {**os.environ, "ARENA_ENDPOINT": hub.listening, "ARENA_TOKEN": remote.peer.token,
               "ARENA_SERVER_KEY": keys.public.decode()}
        process = subprocess.Popen([sys.executable, "-m", "bots.random"], env=env)
        try:
            if hub.wait_connected([remote.peer], 10):
                raise SystemExit("the remote bot did not connect")
            print(f"wongar, 3 seats, seat 0 remote over tcp+CURVE, {args.matches} matches per "
                  f"condition, flood batches of {args.batch} from {args.sources} addresses, "
                  f"caps {hub.guard.caps}, budget {hub.guard.budget}")
            print(f"{'flood /s':>9} {'accepted/s':>10} {'shed':>7} {'decisions':>9} {'p50 ms':>7} "
                  f"{'p99 ms':>7} {'p50/quiet':>9} {'p99/quiet':>9} {'faults':>6}")
            quiet: tuple[float, float] | None = None
            for rate in [None, *(float(r) for r in args.rates.split(","))]:
                flood = None
                if rate is not None:
                    flood = subprocess.Popen(
                        [sys.executable, str(FLOOD), hub.listening.removeprefix("tcp://"),
                         str(args.batch), str(args.sources), str(rate)],
                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                        preexec_fn=lambda: os.nice(19))
                    while flood.poll() is None and not _said_flooding(flood):
                        hub.receive(0.05)  # the guard sheds meanwhile
                accepted, shed = hub.guard.accepted_count, sum(hub.guard.shed.values())
                started = time.monotonic()
                times: list[float] = []
                faults = 0
                for match in range(args.matches):
                    record = play_match(game, config, match, [remote, *others], control)
                    times += [d.elapsed for d in record.decisions if d.seat == 0 and not d.fallback]
                    faults += sum(1 for f in record.faults if f.seat == 0)
                took = time.monotonic() - started
                accepted, shed = hub.guard.accepted_count - accepted, sum(hub.guard.shed.values()) - shed
                if flood is not None:
                    flood.communicate("", timeout=60)
                cuts = statistics.quantiles(times, n=100)
                p50, p99 = cuts[49] * 1000, cuts[98] * 1000
                quiet = quiet or (p50, p99)
                label = "quiet" if rate is None else ("max" if rate == 0 else f"{rate:.0f}")
                print(f"{label:>9} {accepted / took:>10.0f} {shed:>7} {len(times):>9} {p50:>7.2f} "
                      f"{p99:>7.2f} {p50 / quiet[0]:>9.2f} {p99 / quiet[1]:>9.2f} {faults:>6}",
                      flush=True)
        finally:
            close_all([*others, remote])
            process.wait(5)


def _said_flooding(flood: subprocess.Popen[str]) -> bool:
    """Whether the flooding process has said ``flooding`` (without waiting for it)."""
    assert flood.stdout is not None
    if select.select([flood.stdout], [], [], 0)[0]:
        return flood.stdout.readline().startswith("flooding")
    return False


if __name__ == "__main__":
    main()
