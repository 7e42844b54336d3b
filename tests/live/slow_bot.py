"""The built-in random bot's choices, each after ``ARENA_TEST_PAUSE`` seconds, so a tournament
lasts long enough to be watched."""

from __future__ import annotations

import os
import time

from bots import random as base
from engine.core import WireMap
from protocols.sdk import Clock, run

PAUSE = float(os.environ.get("ARENA_TEST_PAUSE", "0"))


def choose(observation: WireMap, legal: tuple[int, ...], clock: Clock) -> int:
    time.sleep(PAUSE)
    return base.choose(observation, legal, clock)


if __name__ == "__main__":
    raise SystemExit(run(choose, name="slow", version="1", on_start=base.on_start))
