"""Every attack of the hostile bot, in a real match against two honest random bots: the match
completes, the fault is recorded with the right reason, the honest seats' decisions and result
stand (the record replays to it), and no process of the hostile bot outlives its handle."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from arena.clock import ClockRule, TimeControl
from arena.handle import BotHandle
from arena.manifest import ResourceLimits
from arena.record import FaultKind, MatchRecord
from arena.referee import FaultPolicy, play_match
from engine.core import Game
from hostile_helpers import check_match, hostile, live_group_members
from polling import wait_until
from protocols.transport import Hub

T, C, M, I = FaultKind.TIMEOUT, FaultKind.CRASH, FaultKind.MALFORMED, FaultKind.ILLEGAL
# For the timing attacks: short, so that their timeouts cost little.
FAST = TimeControl(0.1, grace=0.3)
# For every other attack: no honest reply is ever late on a loaded machine, and it costs nothing
# since those bots answer at once.
SLOW = TimeControl(2.0, grace=1.0)
SEED = 21


@dataclass(frozen=True)
class Attack:
    """One hostile mode, the faults it must draw (two strikes forfeit) and how to run it."""

    mode: str
    faults: tuple[FaultKind, ...]
    control: TimeControl = SLOW
    limits: ResourceLimits = field(default_factory=ResourceLimits)
    detail: str = ""
    clock: ClockRule = ClockRule()


ATTACKS = [
    Attack("silent", (T, T), control=FAST, detail="no reply within"),
    # Late by sleeping: only elapsed time charges that (the CPU clock does not, by design).
    Attack("late", (T, T), control=FAST, detail="no reply within", clock=ClockRule("wall")),
    Attack("hang", (T, T), control=FAST, detail="no reply within"),
    Attack("twice", ()),
    Attack("stale", ()),
    Attack("crash", (C,), detail="status 3"),
    Attack("garbage", (M,), detail="not allowed"),
    Attack("shape", (M, M), detail="action"),
    Attack("deep", (M, M), detail="nesting deeper"),
    Attack("big", (M, M), detail="exceeds the limit"),
    Attack("fat-info", ()),
    Attack("huge", (C,), detail="connection lost"),
    Attack("wrong-seat", (M, M), detail="claims seat"),
    Attack("illegal", (I, I), detail=") is not among the legal"),  # the action named by its label
    Attack("error", (M, M), detail="bot reported"),
    Attack("hog", (C,), limits=ResourceLimits(memory_mb=400), detail="status 1"),
    Attack("fork", ()),
    Attack("chatter", (), limits=ResourceLimits(log_bytes=50_000)),
    Attack("stubborn", ()),
]


def play(game: Game, hub: Hub, bad: BotHandle, honest: list[BotHandle], attack: Attack) -> MatchRecord:
    config = game.configure(3)
    return play_match(game, config, SEED, [bad, *honest], attack.control, FaultPolicy(strikes=2),
                      clock=attack.clock)


@pytest.mark.parametrize("attack", ATTACKS, ids=[a.mode for a in ATTACKS])
def test_attack_is_contained(
    attack: Attack, wongar: Game, hub: Hub, honest: list[BotHandle], tmp_path: Path
) -> None:
    bad = BotHandle.launch(hostile(attack.mode, attack.limits), hub, tmp_path)
    assert bad.process is not None and bad.process.pid is not None
    group = bad.process.pid
    try:
        record = play(wongar, hub, bad, honest, attack)
        check_match(wongar, record, [0], attack.faults)
        # A dying bot closes its connection a moment before it can be reaped: on a busy machine the
        # referee may not see its exit status in time, and then says so; the status is checked below.
        exited = attack.detail.startswith("status ")
        assert all(attack.detail in f.detail or (exited and f.detail == "connection lost")
                   for f in record.faults), record.faults
        if exited:
            assert bad.process.wait(60) and f"status {bad.process.exit_status()}" == attack.detail
        assert record.forfeited == ((0,) if attack.faults and attack.faults != (M,) else ())
        own = [d for d in record.decisions if d.seat == 0]
        if attack.mode in ("twice", "stale"):
            # The bot's last duplicate may come after the match is over.
            dropped = record.detail["dropped"]
            assert isinstance(dropped, list) and dropped[1:] == [0, 0]
            assert dropped[0] in (len(own) - 1, len(own))
        if attack.mode == "fat-info":
            # Over the cap: dropped and counted, never stored, not a fault.
            assert record.detail["info_dropped"] == [len(own), 0, 0]
            assert all(d.info is None for d in own)
            assert len(json.dumps(record.to_wire())) < 100 * len(record.decisions) + 10_000
        if attack.mode == "fork":
            # The 200 children, the bot and bubblewrap's two processes, all in its control group.
            group_of_bot = bad.process.group
            assert group_of_bot is not None
            assert wait_until(lambda: len(group_of_bot.members()) == 203, 60), group_of_bot.members()
    finally:
        status = bad.close(grace=0.3)
    if attack.mode == "stubborn":
        assert status == -9
    if attack.mode == "chatter":
        log = bad.process.log_path.read_bytes()
        assert len(log) <= 50_000 + 100 and log.endswith(b"[log truncated at 50000 bytes]\n")
    assert live_group_members(group) == [] and bad.process.group is None
    for other in honest:
        assert other.alive()


def test_a_bot_spinning_between_turns_gets_no_processor_time_then(
    wongar: Game, hub: Hub, honest: list[BotHandle], tmp_path: Path
) -> None:
    spinner = BotHandle.launch(hostile("spin"), hub, tmp_path)
    try:
        before = spinner.cpu_used()
        assert before is not None, "a sandboxed bot's CPU time is measured"
        record = play(wongar, hub, spinner, honest, Attack("spin", ()))
        check_match(wongar, record, [0], ())
        own = [d for d in record.decisions if d.seat == 0]
        after = spinner.cpu_used()
        assert after is not None and all(d.cpu is not None for d in own)
        # Thawed only from its act to its reply: all it spun is inside its own decisions (up to
        # the moments the referee needs to freeze it), however fast the machine.
        spent = after - before
        assert spent <= sum(d.elapsed for d in own) + 0.005 * len(own) + 0.05, (spent, len(own))
        assert spent - sum(d.cpu or 0.0 for d in own) <= 0.005 * len(own) + 0.05
        # Frozen after the match: it gets nothing, though it would spin all the time.
        idle = spinner.cpu_used()
        time.sleep(0.3)
        assert (spinner.cpu_used() or 0.0) - (idle or 0.0) < 0.01
        spinner.thaw()  # however busy the machine, a thawed spinner gets processor time in the end
        spun = wait_until(lambda: (spinner.cpu_used() or 0.0) - (idle or 0.0) > 0.1, timeout=60)
        assert spun, "thawed, it spins"
        # Built-ins are measured too (control groups of their own, outside the sandbox).
        assert all(d.cpu is not None for d in record.decisions if d.seat != 0)
    finally:
        spinner.close(grace=0.2)


@pytest.mark.parametrize(
    ("mode", "why"),
    [("exit-hello", "status 4"), ("wrong-token", "did not say hello in time")],
)
def test_a_bot_that_fails_its_handshake_is_a_start_fault(
    mode: str, why: str, wongar: Game, hub: Hub, honest: list[BotHandle], tmp_path: Path
) -> None:
    [bad] = BotHandle.launch_all([hostile(mode)], hub, tmp_path, handshake_timeout=1.5)
    try:
        record = play(wongar, hub, bad, honest, Attack(mode, ()))
    finally:
        bad.close(grace=0.2)
    check_match(wongar, record, [0], (FaultKind.START,))
    assert why in record.faults[0].detail and record.forfeited == (0,)
    assert all(d.fallback for d in record.decisions if d.seat == 0)
    assert bad.process is not None and bad.process.pid is not None
    assert live_group_members(bad.process.pid) == []


@pytest.mark.parametrize(("program", "why"), [("missing", "no such file"), ("plain", "not executable")])
def test_a_program_that_cannot_run_is_a_start_fault_with_the_reason(
    program: str, why: str, wongar: Game, hub: Hub, honest: list[BotHandle], tmp_path: Path
) -> None:
    (tmp_path / "plain").write_text("#!/bin/sh\nexit 0\n")
    spec = hostile("silent")
    broken = type(spec)("broken", (str(tmp_path / program),))
    [bad] = BotHandle.launch_all([broken], hub, tmp_path)
    record = play(wongar, hub, bad, honest, Attack("broken", ()))
    check_match(wongar, record, [0], (FaultKind.START,))
    assert f"cannot start bot 'broken' ({tmp_path / program}): {why}" == record.faults[0].detail
    assert bad.process is None or bad.process.pid is None
