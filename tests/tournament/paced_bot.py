"""The built-in random bot (the same choices), pausing ``ARENA_TEST_PAUSE`` seconds before each
decision, and waiting while the file ``ARENA_TEST_GATE`` names exists, so a test can act while a
tournament is still playing."""

from __future__ import annotations

import os
import time

from bots import random as base
from engine.core import WireMap
from protocols.sdk import Clock, run

PAUSE = float(os.environ.get("ARENA_TEST_PAUSE", "0"))
GATE = os.environ.get("ARENA_TEST_GATE", "")


def choose(observation: WireMap, legal: tuple[int, ...], clock: Clock) -> int:
    time.sleep(PAUSE)
    while GATE and os.path.exists(GATE):
        time.sleep(0.01)
    return base.choose(observation, legal, clock)


if __name__ == "__main__":
    raise SystemExit(run(choose, name="paced", version="1", on_start=base.on_start))
