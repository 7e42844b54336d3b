"""Every escape of the sandbox threat list, tried by a sandboxed bot in a real match against a
sandboxed rival (with a folder of its own) and a built-in bot: the attack is blocked (the bot
reports what it got in its first reply's ``info``), the match completes with no fault charged to
anyone else, the rival's files and process are untouched, and nothing of the attacker outlives it.

The attacker runs in a league's folder, as a command-line entrant does: beside the config, the
results database, its remote-seat keys and a neighbour's bot; its own script lies elsewhere.
"""

from __future__ import annotations

import os
import socket
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from hostile_helpers import MISBEHAVE, check_match
from polling import wait_until
from process_census import processes_marked
from sysv_ipc import host_segment, keys_here

from arena.clock import TimeControl
from arena.handle import BotHandle
from arena.manifest import BotSpec, ResourceLimits
from arena.record import MatchRecord
from arena.referee import FaultPolicy, play_match
from arena.store.db import Store
from engine.core import Game
from protocols.transport import Hub

pytestmark = pytest.mark.sandbox

ESCAPE_BOT = Path(__file__).with_name("escape_bot.py")
CONTROL = TimeControl(3.0, grace=1.0)


@dataclass(frozen=True)
class Escape:
    """One attack and the limits it runs under."""

    attack: str
    limits: ResourceLimits = field(default_factory=ResourceLimits)


ESCAPES = [
    Escape("tokens"),
    Escape("memory"),
    Escape("database"),
    Escape("stop"),
    Escape("network"),
    Escape("write"),
    Escape("daemon"),
    Escape("affinity"),
    Escape("forkbomb", ResourceLimits(processes=40)),
    Escape("memory-split", ResourceLimits(memory_mb=300)),
    Escape("disk", ResourceLimits(disk_mb=16)),
    Escape("files"),
    Escape("jail"),
]


@dataclass
class Scene:
    """The targets an attacker is told about."""

    rival: BotHandle
    rival_file: Path
    league: Path
    database: Path
    port: int
    marker: str
    ipc_key: int


@contextmanager
def scene(hub: Hub, tmp_path: Path) -> Iterator[Scene]:
    """A sandboxed rival with a folder and a file of its own, a league's folder (config, results
    database, remote-seat keys, a neighbour), a listening TCP service on 127.0.0.1 and a System V
    shared memory segment of the referee's."""
    folder = tmp_path / "rival"
    folder.mkdir()
    notes = folder / "notes.txt"
    notes.write_text("the rival's own notes")
    league = tmp_path / "league"
    league.mkdir()
    (league / "league.toml").write_text('name = "league"\nseed = 424242\n')
    (league / "arena.db.remote").write_text("the remote seats' keys")
    (league / "neighbour.py").write_text("# another entrant's bot\n")
    spec = BotSpec("rival", (sys.executable, str(MISBEHAVE), "echo"), cwd=folder)
    rival = BotHandle.launch(spec, hub, tmp_path)
    with Store(league / "arena.db"), socket.socket() as listener, host_segment() as key:
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        try:
            yield Scene(rival, notes, league, league / "arena.db", listener.getsockname()[1],
                        f"escape-{os.getpid()}-{time.monotonic_ns()}", key)
        finally:
            rival.close(grace=0.2)


@contextmanager
def referee_groups() -> Iterator[None]:
    """As root, give this process supplementary groups while a bot starts, so that a launcher
    that kept them would hand them on (a root shell often has none to keep)."""
    if os.geteuid() != 0:
        yield
        return
    before = os.getgroups()
    os.setgroups([*before, 4, 27])
    try:
        yield
    finally:
        os.setgroups(before)


def attacker(escape: Escape, where: Scene) -> BotSpec:
    assert where.rival.process is not None and where.rival.process.pid is not None
    env = {
        "ATTACK_REFEREE": str(os.getpid()),
        "ATTACK_RIVAL": str(where.rival.process.pid),
        "ATTACK_DB": str(where.database),
        "ATTACK_PORT": str(where.port),
        "ATTACK_RIVAL_FILE": str(where.rival_file),
        "ATTACK_MARKER": where.marker,
        "ATTACK_HOSTNAME": socket.gethostname(),
        "ATTACK_IPC_KEY": str(where.ipc_key),
        "ATTACK_CONFIG": str(where.league / "league.toml"),
    }
    return BotSpec(f"escape-{escape.attack}", (sys.executable, str(ESCAPE_BOT), escape.attack),
                   cwd=where.league, env=env, limits=escape.limits)


def outcome(record: MatchRecord) -> list[str]:
    """What the attacker (seat 0) reported of its attack."""
    first = next(d for d in record.decisions if d.seat == 0)
    assert first.info is not None, first
    reported = first.info["outcome"]
    assert isinstance(reported, list) and reported
    return [str(line) for line in reported]


def _state(pid: int) -> str:
    with open(f"/proc/{pid}/stat") as stat:
        return stat.read().rsplit(")", 1)[1].split()[0]


@pytest.mark.parametrize("escape", ESCAPES, ids=[e.attack for e in ESCAPES])
def test_an_escape_from_the_sandbox_is_blocked(
    escape: Escape, wongar: Game, hub: Hub, honest: list[BotHandle], tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("ORGANISER_SECRET", "not for bots")
    with scene(hub, tmp_path) as where:
        cpus = os.sched_getaffinity(0)
        if escape.attack == "affinity":
            os.sched_setaffinity(0, {min(cpus)})  # the match slot's processor
        try:
            with referee_groups():
                bad = BotHandle.launch(attacker(escape, where), hub, tmp_path)
        finally:
            os.sched_setaffinity(0, cpus)
        assert bad.process is not None and bad.process.group is not None
        group = bad.process.group
        try:
            record = play_match(wongar, wongar.configure(3), 7, [bad, where.rival, honest[0]],
                                CONTROL, FaultPolicy(strikes=2))
            reported = outcome(record)
            check_match(wongar, record, [0], ())
            if escape.attack == "daemon":
                assert wait_until(lambda: processes_marked("ATTACK_DAEMON", where.marker) != [], 5)
        finally:
            bad.close(grace=0.2)
        assert bad.process.group is None and not any(f.exists() for f in group.folders)
        # The rival is untouched: running (not stopped), its file as it was.
        assert where.rival.alive() and where.rival.process is not None
        assert where.rival.process.pid is not None and _state(where.rival.process.pid) != "T"
        assert where.rival_file.read_text() == "the rival's own notes"
        assert not (where.rival_file.parent / "planted").exists()
        assert not (where.league / "planted").exists()
        made_here = where.ipc_key + 1 in keys_here()
    assert where.database.stat().st_mode & 0o777 == 0o600
    if escape.attack == "affinity":
        assert reported == [f"blocked: runs on [{min(cpus)}]"]
    elif escape.attack == "daemon":
        assert wait_until(lambda: processes_marked("ATTACK_DAEMON", where.marker) == [], 10), \
            "the daemon outlived its bot"
    elif escape.attack == "forkbomb":
        started = int(reported[0].split()[1])
        assert 0 < started < 40, reported
    elif escape.attack == "memory-split":
        alive = int(reported[0].split(", ")[1].split()[0])
        assert alive * 150 < 300, reported
    elif escape.attack == "disk":
        assert len(reported) == 3 and not any("ESCAPED" in line for line in reported), reported
        assert all(int(line.split(": ")[1].split()[0]) <= 16 for line in reported), reported
    elif escape.attack == "jail":
        made = [line for line in reported if line.startswith("made: shared memory")]
        assert len(made) == 1 and not made_here, "its shared memory is in the referee's namespace"
        others = [line for line in reported if line not in made]
        assert len(others) == 19, reported
        assert [line for line in others if not line.startswith("blocked")] == []
    else:
        assert all(line.startswith("blocked") for line in reported), reported
