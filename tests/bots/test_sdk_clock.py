"""The SDK's view of the clock: which clock a match is charged by, and what a decision has used."""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

import pytest

from arena.handle import BotHandle, close_all
from arena.launch import SCRIPT, Settings, encode_settings
from arena.manifest import BotSpec
from protocols.codec import TRUSTED_LIMITS, decode, encode
from protocols.errors import ProtocolError
from protocols.messages import Act, Action, ClockMs, Start
from protocols.sdk import Clock, clock_reading
from protocols.transport import Hub, Peer

START = Start("m", "wongar", 1, "basic", {}, 0, 3, 7, [], ClockMs(20, 0, 0), 50)


def test_start_carries_the_clock_kind_and_defaults_to_wall() -> None:
    """``clock_kind`` travels in ``start`` as a bot reads it; without it, a wall clock; others are refused."""
    cpu = replace(START, clock_kind="cpu")
    assert decode(encode(cpu), TRUSTED_LIMITS) == cpu
    assert decode(encode(START), TRUSTED_LIMITS) == START
    frame = encode(START).replace(b"\xaaclock_kind\xa4wall", b"\xaaclock_kind\xa3gpu")
    with pytest.raises(ProtocolError, match="clock_kind"):
        decode(frame, TRUSTED_LIMITS)


def test_a_cpu_clock_does_not_count_time_spent_waiting() -> None:
    """Waiting costs nothing on a CPU clock and all of its length on a wall clock."""
    cpu = Clock(0.02, 0, 0, "cpu", clock_reading("cpu"))
    wall = Clock(0.02, 0, 0, "wall", clock_reading("wall"))
    time.sleep(0.1)
    assert wall.spent() >= 0.1
    assert cpu.spent() < 0.05


#: A bot's loop: the steps by which its CPU clock moves over 50 ms of CPU time, in seconds.
CLOCK_STEPS = """
from arena_bot.sdk import clock_reading
first = last = clock_reading("cpu")
steps = []
while last - first < 0.05:
    now = clock_reading("cpu")
    if now != last:
        steps.append(now - last)
        last = now
print(*steps)
"""


def test_a_bot_started_under_a_cpu_limit_reads_its_cpu_time_finely() -> None:
    """Started by the arena's launcher with a CPU-time limit, as every local bot is, a bot's CPU
    clock still moves in steps far under a millisecond, not at the kernel's scheduler ticks (where
    a limit leaves the process CPU clock of ``time.process_time()``)."""
    settings = encode_settings(Settings(limits={"cpu": 60}))
    done = subprocess.run([sys.executable, "-I", "-S", SCRIPT, settings, sys.executable, "-c", CLOCK_STEPS],
                          capture_output=True, text=True, timeout=60, check=True)
    steps = [float(step) for step in done.stdout.split()]
    assert statistics.median(steps) < 0.0005, statistics.median(steps)


#: CPU seconds the bot below spends on every ``start`` before its first act.
START_WORK = 0.03
#: A bot that spends :data:`START_WORK` of CPU time setting up each match and reports, with every
#: action, the seconds its decision's clock says it has used.
START_WORKER = f"""
from arena_bot.sdk import Choice, cpu_time, run_matches
def new_match(start):
    end = cpu_time() + {START_WORK}
    while cpu_time() < end:
        pass
    return lambda observation, legal, clock: Choice(legal[0], {{"spent": clock.spent()}})
raise SystemExit(run_matches(new_match, name="start-worker"))
"""


def test_a_cpu_clock_counts_what_the_bot_ran_since_its_last_reply(tmp_path: Path) -> None:
    """Under a CPU clock a decision counts from where the referee charges it: the first of a match
    from the ``start`` (setting up the match counts), the next from the previous reply."""
    with Hub() as hub:
        [handle] = BotHandle.launch_all([BotSpec("start-worker", (sys.executable, "-c", START_WORKER),
                                                 trusted=True)], hub, tmp_path)
        try:
            assert handle.alive(), handle.failure
            handle.thaw()
            hub.send(handle.peer, replace(START, clock_kind="cpu"))
            first, second = (_spent_on_act(hub, handle.peer) for _ in range(2))
        finally:
            close_all([handle])
    assert first >= START_WORK
    assert second < START_WORK / 3


def _spent_on_act(hub: Hub, peer: Peer) -> float:
    """Send ``peer`` an act and wait for its action: the ``spent`` seconds it reports."""
    seq = hub.next_seq()
    hub.send(peer, Act(seq, 0, 0, {}, (1, 2), [], ClockMs(1000, 0, 0)))
    while True:
        incoming = hub.receive(60.0)
        assert incoming is not None, "no reply within a minute"
        if isinstance(incoming.message, Action) and incoming.message.seq == seq:
            return float(str((incoming.message.info or {})["spent"]))
