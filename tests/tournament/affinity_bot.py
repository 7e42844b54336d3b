"""An SDK bot that reports, in each decision's ``info``, the processors it may run on."""

from __future__ import annotations

import os

from engine.core import Wire, WireMap
from protocols.sdk import Choice, Clock, run


def choose(observation: WireMap, legal: tuple[int, ...], clock: Clock) -> Choice:
    cpus: list[Wire] = [*sorted(os.sched_getaffinity(0))]
    return Choice(legal[0], {"cpus": cpus, "pid": os.getpid()})


if __name__ == "__main__":
    raise SystemExit(run(choose, name="affinity", version="1"))
