"""The built-in random bot (the same choices), pausing ``ARENA_TEST_PAUSE`` seconds before each
decision, and waiting while the file ``ARENA_TEST_GATE`` names exists, so a test can act while a
tournament is still playing; and, before its hello, while the file ``ARENA_TEST_HELLO_GATE`` names
exists, so a test can act while the runner waits for its bots to start."""

from __future__ import annotations

import os
import time

from arena_bot.messages import Start
from arena_bot.sdk import Choice, ChooseFn, Clock, run_matches
from arena_bot.wire_types import WireMap
from bots import random as base

PAUSE = float(os.environ.get("ARENA_TEST_PAUSE", "0"))
GATE = os.environ.get("ARENA_TEST_GATE", "")
HELLO_GATE = os.environ.get("ARENA_TEST_HELLO_GATE", "")


def new_match(start: Start) -> ChooseFn:
    choose = base.new_match(start)

    def paced(observation: WireMap, legal: tuple[int, ...], clock: Clock) -> int | Choice:
        time.sleep(PAUSE)
        while GATE and os.path.exists(GATE):
            time.sleep(0.01)
        return choose(observation, legal, clock)

    return paced


if __name__ == "__main__":
    while HELLO_GATE and os.path.exists(HELLO_GATE):
        time.sleep(0.01)
    raise SystemExit(run_matches(new_match, name="paced", version="1"))
