"""The CPU-time clock: a decision is charged the CPU time of all its bot's processes, so waiting
(or a busy machine) costs a bot nothing, while thinking too long is a timeout, and a bot that
neither thinks nor answers still ends at the elapsed-time cap."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from arena.clock import ClockRule, TimeControl, TimeControlError
from arena.manifest import BotSpec, resolve_bot
from arena.record import FaultKind, MatchRecord
from arena.referee import FaultPolicy, run_match
from engine.registry import get_game

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="bot control groups need root here")

SDK_BOT = "import time\nfrom protocols.sdk import run\n{body}\nraise SystemExit(run(choose, name='clocked'))\n"
# Waits 0.3 s (using no CPU) at each of its first four decisions, then answers at once.
SLEEPER = ("waits = [0.3] * 4\ndef choose(observation, legal, clock):\n"
           "    time.sleep(waits.pop() if waits else 0)\n    return legal[0]")
BURNER = ("def choose(observation, legal, clock):\n    end = time.process_time() + 0.25\n"
          "    while time.process_time() < end:\n        pass\n    return legal[0]")
HANGER = "def choose(observation, legal, clock):\n    time.sleep(600)"
MOVE = TimeControl(0.1, grace=0.05)


def bot(body: str) -> BotSpec:
    """An untrusted (so sandboxed, CPU-accounted) bot choosing with ``body``."""
    return BotSpec("clocked", (sys.executable, "-c", SDK_BOT.format(body=body)))


def play(first: BotSpec, rule: ClockRule, tmp_path: Path, strikes: int = 2) -> MatchRecord:
    game = get_game("wongar")
    honest = BotSpec("honest", (sys.executable, "-m", "bots.random"))
    return run_match(game, game.configure(3), 11, [first, honest, honest], MOVE,
                     FaultPolicy(strikes), log_dir=tmp_path, clock=rule)


def test_time_spent_waiting_is_not_charged_under_the_cpu_clock(tmp_path: Path) -> None:
    record = play(bot(SLEEPER), ClockRule("cpu"), tmp_path / "cpu")
    assert record.detail["clock"] == "cpu" and record.faults == ()
    own = [d for d in record.decisions if d.seat == 0][:4]
    # The record keeps both figures: each wait (all 0.3 s of it) put the decision well past the
    # wall clock's limit.
    assert all(d.elapsed >= 0.3 > MOVE.move + MOVE.grace for d in own)
    assert all(d.cpu is not None and d.cpu < MOVE.move for d in own)
    # The same bot under the wall clock is out of time at every decision.
    walled = play(bot(SLEEPER), ClockRule("wall"), tmp_path / "wall")
    assert walled.detail["clock"] == "wall"
    assert [f.kind for f in walled.faults if f.seat == 0] == [FaultKind.TIMEOUT] * 2


def test_cpu_spent_beyond_the_allowance_is_a_timeout(tmp_path: Path) -> None:
    # An elapsed-time cap no busy machine reaches before the burner's CPU time runs out.
    record = play(bot(BURNER), ClockRule("auto", wall_cap=1000), tmp_path)
    assert record.detail["clock"] == "cpu"
    faults = [f for f in record.faults if f.seat == 0]
    assert [f.kind for f in faults] == [FaultKind.TIMEOUT] * 2 and record.forfeited == (0,)
    assert all("of CPU" in f.detail for f in faults), faults
    assert not [f for f in record.faults if f.seat != 0]


def test_a_bot_that_neither_thinks_nor_answers_ends_at_the_wall_cap(tmp_path: Path) -> None:
    record = play(bot(HANGER), ClockRule("cpu", wall_cap=3), tmp_path, strikes=1)
    [fault] = [f for f in record.faults if f.seat == 0]
    assert fault.kind is FaultKind.TIMEOUT and "450 ms of elapsed time (3 times" in fault.detail
    hung = next(d for d in record.decisions if d.seat == 0)
    assert hung.fallback and 0.45 <= hung.elapsed < 5


def test_built_in_bots_have_accounting_and_the_wall_cap_is_at_least_one(tmp_path: Path) -> None:
    game = get_game("wongar")
    builtin = resolve_bot("random")  # trusted: not sandboxed, but in control groups of its own
    record = run_match(game, game.configure(3), 1, [builtin] * 3, MOVE, clock=ClockRule("cpu"))
    assert record.detail["clock"] == "cpu"
    auto = run_match(game, game.configure(3), 1, [builtin] * 3, MOVE, clock=ClockRule())
    assert auto.detail["clock"] == "cpu"
    with pytest.raises(TimeControlError, match="at least 1"):
        ClockRule("cpu", wall_cap=0.5)
