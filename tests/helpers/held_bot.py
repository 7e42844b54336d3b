"""The built-in random bot (the same choices), except that while the empty folder ``ctl/hold``
exists beside it (``ctl`` is bound into its sandbox as one of its files; an empty folder is no file,
so the bot's build is the same with or without it), its first decision of a match prints ``held``
and the time (``time.monotonic``: the sandbox shares the host's clock) and stops the process
(SIGSTOP), so a test knows the referee is waiting for it, and since when."""

from __future__ import annotations

import os
import signal
import sys
import time
from pathlib import Path

from arena_bot.messages import Start
from arena_bot.sdk import Choice, ChooseFn, Clock, run_matches
from arena_bot.wire_types import WireMap
from bots import random as base

HOLD = Path(__file__).parent / "ctl" / "hold"


def new_match(start: Start) -> ChooseFn:
    choose = base.new_match(start)
    first = [True]

    def held(observation: WireMap, legal: tuple[int, ...], clock: Clock) -> int | Choice:
        if first[0] and HOLD.exists():
            print("held", time.monotonic(), file=sys.stderr, flush=True)
            os.kill(os.getpid(), signal.SIGSTOP)
        first[0] = False
        return choose(observation, legal, clock)

    return held


if __name__ == "__main__":
    raise SystemExit(run_matches(new_match, name="held", version="1"))
