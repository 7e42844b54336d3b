"""The built-in random bot's choices, each after ``ARENA_TEST_PAUSE`` seconds, so a tournament
lasts long enough to be watched."""

from __future__ import annotations

import os
import time

from arena_bot.messages import Start
from arena_bot.sdk import Choice, ChooseFn, Clock, run_matches
from arena_bot.wire_types import WireMap
from bots import random as base

PAUSE = float(os.environ.get("ARENA_TEST_PAUSE", "0"))


def new_match(start: Start) -> ChooseFn:
    choose = base.new_match(start)

    def slow(observation: WireMap, legal: tuple[int, ...], clock: Clock) -> int | Choice:
        time.sleep(PAUSE)
        return choose(observation, legal, clock)

    return slow


if __name__ == "__main__":
    raise SystemExit(run_matches(new_match, name="slow", version="1"))
