"""The SDK's view of the clock: which clock a match is charged by, and what a decision has used."""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from dataclasses import replace

import pytest

from arena.launch import SCRIPT, Settings, encode_settings
from protocols.codec import TRUSTED_LIMITS, decode, encode
from protocols.errors import ProtocolError
from protocols.messages import ClockMs, Start
from protocols.sdk import Clock, clock_reading

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
