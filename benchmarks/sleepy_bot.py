"""An honest bot that takes a fixed time to answer: ``python sleepy_bot.py SECONDS``.

It sleeps SECONDS at every decision, then plays a random legal action (seeded by the match), so
any time the referee charges beyond SECONDS is the referee's and the wire's.
"""

from __future__ import annotations

import random
import sys
import time

from engine.core import WireMap
from protocols.messages import Start
from protocols.sdk import Clock, run

_rng = random.Random()


def main() -> int:
    think = float(sys.argv[1])

    def on_start(start: Start) -> None:
        _rng.seed(start.seed)

    def choose(observation: WireMap, legal: tuple[int, ...], clock: Clock) -> int:
        time.sleep(think)
        return _rng.choice(legal)

    return run(choose, name="sleepy", version="1", on_start=on_start)


if __name__ == "__main__":
    raise SystemExit(main())
