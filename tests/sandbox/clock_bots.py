"""Bots for the CPU-clock tests of trusted bots (run outside the sandbox, in control groups).

Usage: ``python clock_bots.py MODE SECONDS`` with ``ARENA_ENDPOINT`` and ``ARENA_TOKEN`` set; at
each act the bot answers the first legal action after:

burn    spinning until it has used SECONDS more of its own CPU time (``time.process_time``)
sleep   sleeping SECONDS (using no CPU) at each of its first four acts; later acts at once
"""

from __future__ import annotations

import sys
import time

from engine.core import WireMap
from protocols.sdk import Clock, run

MODE, SECONDS = sys.argv[1], float(sys.argv[2])
sleeps = [SECONDS] * 4


def choose(observation: WireMap, legal: tuple[int, ...], clock: Clock) -> int:
    if MODE == "burn":
        end = time.process_time() + SECONDS
        while time.process_time() < end:
            pass
    elif MODE == "sleep" and sleeps:
        time.sleep(sleeps.pop())
    return legal[0]


if __name__ == "__main__":
    raise SystemExit(run(choose, name=f"clock-{MODE}"))
