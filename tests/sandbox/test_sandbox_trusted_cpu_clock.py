"""The CPU clock for built-in and trusted bots: outside the sandbox but in control groups of their
own, they are frozen between turns and charged their own CPU time like sandboxed bots; where no
control group can be made, ``auto`` falls back to the wall clock with a note and ``cpu`` is
refused naming what is missing. Every output names the clock."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from arena.clock import ClockRule, TimeControl
from arena.handle import BotHandle, close_all
from arena.manifest import BotSpec, resolve_bot
from arena.record import FaultKind, MatchRecord
from arena.referee import FaultPolicy, play_match, run_match
from engine.registry import get_game
from protocols.transport import Hub

pytestmark = [pytest.mark.sandbox,
              pytest.mark.skipif(os.geteuid() != 0, reason="bot control groups need root here")]

ARENA = str(Path(sys.executable).with_name("arena"))
CLOCK_BOTS = Path(__file__).with_name("clock_bots.py")
BUILTINS = ("random", "greedy", "ismcts")
MOVE = TimeControl(0.1, grace=0.05)


def clock_bot(mode: str, seconds: float) -> BotSpec:
    """A trusted test bot (see ``clock_bots.py``): outside the sandbox, like a built-in."""
    return BotSpec(f"clock-{mode}", (sys.executable, str(CLOCK_BOTS), mode, str(seconds)), trusted=True)


def play_first(first: BotSpec, rule: ClockRule, tmp_path: Path, strikes: int = 2) -> MatchRecord:
    """A wongar match of ``first`` against two built-in random bots."""
    game = get_game("wongar")
    honest = resolve_bot("random")
    return run_match(game, game.configure(3), 11, [first, honest, honest], MOVE, FaultPolicy(strikes),
                     log_dir=tmp_path, clock=rule)


def arena(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([ARENA, *args], capture_output=True, text=True, timeout=300, cwd=cwd,
                          env={**os.environ, "COLUMNS": "300"}, check=False)


def test_a_table_of_builtins_plays_on_the_cpu_clock_frozen_between_turns(tmp_path: Path) -> None:
    game = get_game("wongar")
    with Hub() as hub:
        handles = BotHandle.launch_all([resolve_bot(name) for name in BUILTINS], hub, tmp_path)
        try:
            for handle in handles:
                assert handle.process is not None and not handle.process.sandboxed
                assert handle.cpu_clock_problem is None, handle.cpu_clock_problem
                group = handle.process.group
                assert group is not None and group.frozen(), "a greeted trusted bot waits frozen"
            # The elapsed-time cap is widened: these bots never sleep, and a busy machine can stall
            # one past a second; only CPU time decides here.
            record = play_match(game, game.configure(3), 5, handles, TimeControl.parse("50ms"),
                                clock=ClockRule("cpu", wall_cap=200))
            assert all(h.process is not None and h.process.group is not None and h.process.group.frozen()
                       for h in handles), "every bot is left frozen after the match"
        finally:
            close_all(handles, grace=0.2)
    assert record.detail["clock"] == "cpu" and record.faults == ()
    answered = [d for d in record.decisions if not d.fallback]
    assert answered and all(d.cpu is not None and 0 <= d.cpu < 0.25 for d in answered)
    # ismcts thinks through its moves by its CPU clock: its decisions are charged CPU time.
    assert sum(d.cpu or 0.0 for d in answered if d.seat == 2) > 0


def test_a_trusted_bot_burning_cpu_beyond_its_move_is_forfeited_for_cpu_time(tmp_path: Path) -> None:
    # An elapsed-time cap no busy machine reaches before the burner's CPU time runs out.
    record = play_first(clock_bot("burn", 0.25), ClockRule("auto", wall_cap=1000), tmp_path)
    assert record.detail["clock"] == "cpu"
    faults = [f for f in record.faults if f.seat == 0]
    assert [f.kind for f in faults] == [FaultKind.TIMEOUT] * 2 and record.forfeited == (0,)
    assert all("of CPU" in f.detail for f in faults), faults
    assert not [f for f in record.faults if f.seat != 0]


def test_a_sleeping_trusted_bot_is_not_charged_for_its_sleep(tmp_path: Path) -> None:
    record = play_first(clock_bot("sleep", 0.3), ClockRule("cpu"), tmp_path)
    assert record.detail["clock"] == "cpu" and record.faults == ()
    own = [d for d in record.decisions if d.seat == 0][:4]
    # Each sleep put the decision past the wall clock's limit, yet cost next to no CPU.
    assert all(d.elapsed > MOVE.move + MOVE.grace for d in own)
    assert all(d.cpu is not None and d.cpu < MOVE.move for d in own)


def test_play_bot_check_and_the_leaderboard_name_the_cpu_clock(tmp_path: Path) -> None:
    saved = tmp_path / "match.json"
    played = arena("play", "wongar", *(a for name in BUILTINS for a in ("-b", name)), "--tc", "100ms",
                   "--clock", "cpu", "--seed", "3", "--record", str(saved), cwd=tmp_path)
    assert played.returncode == 0, played.stderr
    assert "clock: cpu" in played.stdout.splitlines()[0]
    record = json.loads(saved.read_text())
    assert record["detail"]["clock"] == "cpu"
    assert len(record["cpu"]) == len(record["decisions"]) and all(c is not None for c in record["cpu"])
    series = arena("play", "wongar", "-b", "random", "-b", "random", "-b", "greedy", "--tc", "50ms",
                   "-n", "2", "--seed", "3", cwd=tmp_path)
    assert series.returncode == 0, series.stderr
    assert "clock: cpu; place and score" in series.stdout
    checked = arena("bot", "check", "random", "--game", "wongar", "--clock", "cpu", "--tc", "100ms",
                    cwd=tmp_path)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert [line.split("│")[1:3] for line in checked.stdout.splitlines() if "│ clock" in line] == \
        [[" clock                 ", " cpu     "]]
    config = tmp_path / "t.toml"
    config.write_text('name = "t"\ngame = "wongar"\ntable_size = 3\ndeals = 1\nseed = 1\n'
                      'time_control = "50ms"\nconcurrency = 1\n'
                      + "".join(f'[[bots]]\nname = "{name}"\nbot = "{bot}"\n'
                                for name, bot in (("r1", "random"), ("r2", "random"), ("g", "greedy"))))
    db = tmp_path / "t.db"
    run = arena("tournament", "run", str(config), "--db", str(db), cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    board = arena("leaderboard", "--db", str(db), "--samples", "20", cwd=tmp_path)
    assert board.returncode == 0, board.stderr
    assert "clock: cpu (decisions timed by each bot's own CPU time)" in " ".join(board.stdout.split())
    data = json.loads(arena("leaderboard", "--db", str(db), "--samples", "20", "--format", "json",
                            cwd=tmp_path).stdout)
    assert data["clock"] == "cpu"


def without_cgroups(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """``arena ARGS`` in a mount namespace of its own without any cgroup mount: as on a machine
    where this user may make no control groups."""
    script = 'umount -R /sys/fs/cgroup && exec "$@"'
    return subprocess.run(["unshare", "--mount", "--propagation", "private", "sh", "-c", script,
                           "sh", ARENA, *args],
                          capture_output=True, text=True, timeout=300, cwd=cwd,
                          env={**os.environ, "COLUMNS": "300"}, check=False)


def test_without_control_groups_auto_notes_the_wall_clock_and_cpu_is_refused(tmp_path: Path) -> None:
    if shutil.which("unshare") is None:
        pytest.skip("unshare is missing")
    table = ("play", "wongar", "-b", "random", "-b", "random", "-b", "greedy", "--tc", "300ms",
             "--seed", "2")
    refused = without_cgroups(*table, "--clock", "cpu", cwd=tmp_path)
    if "umount" in refused.stderr:
        pytest.skip(f"cannot hide the cgroup mounts here: {refused.stderr.strip()}")
    assert refused.returncode == 2 and refused.stdout == ""
    assert refused.stderr.splitlines() == [
        "error: the CPU clock cannot time every bot: 'random' has no control group to measure its "
        "CPU time (control groups unavailable: no cgroup mount; run as root or with a delegated "
        "cgroup: see arena doctor); use --clock wall or auto"]
    auto = without_cgroups(*table, cwd=tmp_path)
    assert auto.returncode == 0, auto.stderr
    assert "clock: wall" in auto.stdout.splitlines()[0]
    [note] = auto.stderr.splitlines()
    assert note.endswith("note: the wall clock times this match, not the CPU clock: 'random' has no "
                         "control group to measure its CPU time (control groups unavailable: no "
                         "cgroup mount; run as root or with a delegated cgroup: see arena doctor)")
