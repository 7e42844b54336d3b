"""The live view's cost to the runner: tournament throughput with nobody watching, and with
``arena serve`` running on the same database and a client connected to its event stream.

Both play the same schedule (3-player Wongar, the instant built-in random bot, trusted so one
process generation) through the real runner (worker process, store) at concurrency 1, alternating
no-viewer and viewer runs, best of ``--repeats``. With a viewer the workers also write each game's
live file and the server rebuilds every game in play through the engine ``1 / --interval`` times a
second, on the same processors. Prints games per second for each and the ratio.

Usage: python benchmarks/live_view.py [--deals 6] [--repeats 3] [--interval 0.5]
"""

from __future__ import annotations

import argparse
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

from arena.store.db import Store
from arena.tournament.config import load_config
from arena.tournament.executors import LocalExecutor
from arena.tournament.runner import run_tournament

LEAGUE = """
name = "live-bench"
game = "wongar"
variant = "basic"
table_size = 3
deals = {deals}
time_control = "5s/30s"
seed = 3
concurrency = 1
pin_cpus = false
trusted = true
[[bots]]
name = "r1"
bot = "random"
env = {{ ARENA_SEED = "1" }}
[[bots]]
name = "r2"
bot = "random"
env = {{ ARENA_SEED = "2" }}
[[bots]]
name = "r3"
bot = "random"
env = {{ ARENA_SEED = "3" }}
"""


class Viewer:
    """``arena serve`` on ``db`` with one client reading its event stream until stopped."""

    def __init__(self, db: Path, interval: float) -> None:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        self.address = f"http://127.0.0.1:{port}/"
        self.server = subprocess.Popen(
            [sys.executable, "-c", "from arena.cli.app import main; main()", "serve", "--db", str(db),
             "--port", str(port), "--interval", str(interval)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        self.events = 0
        self.stopping = False
        deadline = time.monotonic() + 30
        while True:
            try:
                urllib.request.urlopen(self.address + "state", timeout=5).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise SystemExit("arena serve did not start") from None
                time.sleep(0.1)
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        with urllib.request.urlopen(self.address + "events", timeout=60) as stream:
            for line in stream:
                if self.stopping:
                    return
                if line.startswith(b"event: view"):
                    self.events += 1

    def close(self) -> None:
        self.stopping = True
        self.server.send_signal(signal.SIGTERM)
        self.server.wait(timeout=30)


def play(deals: int, watched: bool, interval: float) -> tuple[int, float, int]:
    """Games played, seconds, and events the client received (0 without a viewer)."""
    with tempfile.TemporaryDirectory() as folder:
        toml = Path(folder) / "league.toml"
        toml.write_text(LEAGUE.format(deals=deals))
        config = load_config(toml)
        db = Path(folder) / "bench.db"
        viewer = Viewer(db, interval) if watched else None
        try:
            with Store(db) as store:
                started = time.perf_counter()
                summary = run_tournament(config, store, LocalExecutor(1, pin_cpus=False))
                elapsed = time.perf_counter() - started
        finally:
            if viewer is not None:
                time.sleep(2 * interval)
                viewer.close()
        assert summary.failed == 0
        return summary.played, elapsed, viewer.events if viewer is not None else 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=6)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--interval", type=float, default=0.5)
    args = parser.parse_args()
    best = {False: 0.0, True: 0.0}
    events = 0
    for _ in range(args.repeats):
        for watched in (False, True):
            games, seconds, seen = play(args.deals, watched, args.interval)
            best[watched] = max(best[watched], games / seconds)
            events = max(events, seen)
            print(f"  {'viewer   ' if watched else 'no viewer'}: {games} games in {seconds:.2f} s"
                  + (f" ({seen} views pushed)" if watched else ""), flush=True)
    print(f"no viewer: {best[False]:.2f} games/s")
    print(f"viewer:    {best[True]:.2f} games/s (the client saw up to {events} views per run)")
    print(f"ratio viewer / no viewer: {best[True] / best[False]:.3f}")


if __name__ == "__main__":
    main()
