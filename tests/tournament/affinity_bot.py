"""An SDK bot that reports, in each decision's ``info``, the processors it may run on now and
those it started on."""

from __future__ import annotations

import os

from engine.core import Wire, WireMap
from protocols.sdk import Choice, Clock, run


STARTED_ON: list[Wire] = [*sorted(os.sched_getaffinity(0))]


def choose(observation: WireMap, legal: tuple[int, ...], clock: Clock) -> Choice:
    cpus: list[Wire] = [*sorted(os.sched_getaffinity(0))]
    return Choice(legal[0], {"cpus": cpus, "started_on": STARTED_ON, "pid": os.getpid()})


if __name__ == "__main__":
    raise SystemExit(run(choose, name="affinity", version="1"))
