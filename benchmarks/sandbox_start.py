"""Bot start time in the sandbox against unsandboxed: from ``BotHandle.launch`` to its ``hello``.

Two Python bots, each started alternately sandboxed (untrusted) and unsandboxed (trusted) on one
hub, so that load from elsewhere falls on both alike: a minimal one (raw ZeroMQ and msgpack: the
cost of the sandbox itself) and the built-in random bot through the SDK (a typical Python bot).
Prints the median and quartiles of each, and the sandbox's extra time at the median.

Usage: python benchmarks/sandbox_start.py [--starts N]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

from arena.handle import BotHandle
from arena.manifest import BotSpec
from arena.sandbox.selftest import sandbox_problem
from protocols.transport import Hub

MINIMAL = """
import os, msgpack, zmq
socket = zmq.Context().socket(zmq.DEALER)
socket.setsockopt(zmq.LINGER, 0)
socket.connect(os.environ["ARENA_ENDPOINT"])
socket.send(msgpack.packb({"type": "hello", "protocol": 1, "name": "minimal", "version": "0",
                           "token": os.environ["ARENA_TOKEN"]}))
while msgpack.unpackb(socket.recv())["type"] != "bye":
    pass
"""


def start_seconds(hub: Hub, spec: BotSpec, logs: Path) -> float:
    """Seconds from launching ``spec`` to its completed handshake (then it is closed)."""
    started = time.perf_counter()
    handle = BotHandle.launch(spec, hub, logs)
    elapsed = time.perf_counter() - started
    handle.close()
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--starts", type=int, default=20, help="starts of each kind (default 20)")
    args = parser.parse_args()
    problem = sandbox_problem()
    if problem is not None:
        sys.exit(f"no sandbox here: {problem}")
    bots = {
        "minimal": BotSpec("minimal", (sys.executable, "-c", MINIMAL)),
        "random (SDK)": BotSpec("random", (sys.executable, "-m", "bots.random")),
    }
    with Hub() as hub, tempfile.TemporaryDirectory() as logs:
        for name, spec in bots.items():
            times: dict[str, list[float]] = {"unsandboxed": [], "sandboxed": []}
            for _ in range(args.starts):
                times["unsandboxed"].append(start_seconds(hub, replace(spec, trusted=True), Path(logs)))
                times["sandboxed"].append(start_seconds(hub, spec, Path(logs)))
            print(f"{name}: {args.starts} starts each, alternating")
            for kind, values in times.items():
                q1, median, q3 = statistics.quantiles(values, n=4, method="inclusive")
                print(f"  {kind:<12} median {median * 1000:6.1f} ms  (quartiles {q1 * 1000:.1f}–{q3 * 1000:.1f} ms)")
            extra = statistics.median(times["sandboxed"]) - statistics.median(times["unsandboxed"])
            print(f"  sandbox adds {extra * 1000:+.1f} ms at the median")


if __name__ == "__main__":
    main()
