"""Bots for the CPU-sharing tests, for games whose seats decide at once (Waroong Wars' draft).

Usage: ``python cpu_bots.py MODE WINDOW ROUNDS`` with ``ARENA_ENDPOINT`` and ``ARENA_TOKEN`` set.
At each of its first ROUNDS acts the bot spends WINDOW seconds of elapsed time from the act's
arrival, then answers the first legal action; later acts it answers at once:

hog     holds its reply while the SPINNERS child processes it starts at its first act spin (they
        spin whenever it is thawed, until its control group is killed)
rival   spins itself and reports in its ``info`` the CPU seconds it got meanwhile
        (``time.process_time()``) as ``cpu``

Every ``info`` also carries ``cpus``, the processors the bot may run on, and ``widened``, whether
asking for every processor of the machine (``sched_setaffinity``) changed them.
"""

from __future__ import annotations

import os
import sys
import time

from engine.core import Wire, WireMap
from protocols.sdk import Choice, Clock, run

SPINNERS = 8
MODE, WINDOW, ROUNDS = sys.argv[1], float(sys.argv[2]), int(sys.argv[3])
acts = 0


def spin_forever() -> None:
    """Start a child process that spins until it is killed."""
    if os.fork() == 0:
        while True:
            pass


def affinity() -> WireMap:
    """The processors this bot may run on, and whether asking for all of them widened that."""
    cpus = os.sched_getaffinity(0)
    try:
        os.sched_setaffinity(0, set(range(os.cpu_count() or 1)))
    except OSError:
        pass
    widened = os.sched_getaffinity(0) != cpus
    os.sched_setaffinity(0, cpus)
    listed: list[Wire] = [*sorted(cpus)]
    return {"cpus": listed, "widened": widened}


def choose(observation: WireMap, legal: tuple[int, ...], clock: Clock) -> Choice:
    global acts
    arrived = time.monotonic()
    acts += 1
    info = affinity()
    if acts > ROUNDS:
        return Choice(legal[0], info)
    if MODE == "hog":
        if acts == 1:
            for _ in range(SPINNERS):
                spin_forever()
        time.sleep(max(0.0, arrived + WINDOW - time.monotonic()))
        return Choice(legal[0], info)
    start = time.process_time()
    while time.monotonic() < arrived + WINDOW:
        pass
    return Choice(legal[0], {**info, "cpu": time.process_time() - start})


if __name__ == "__main__":
    raise SystemExit(run(choose, name=MODE, version="1"))
