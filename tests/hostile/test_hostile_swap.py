"""Swap cannot stretch a sandboxed bot's memory: its memory group limits memory and swap together
to the bytes of memory alone (v1 ``memory.memsw.limit_in_bytes``; v2 ``memory.swap.max`` of 0),
read during a real match from the group the kernel reports for each of the bot's processes.

On a machine without swap nothing a bot can do tells the two limits apart (an allocation past the
limit is killed either way: the memory-split attack of ``test_hostile_sandbox.py``), and the jail
shows a bot no control-group files, so the limits are read from outside, while it plays."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from arena.clock import TimeControl
from arena.handle import BotHandle, close_all
from arena.manifest import BotSpec, ResourceLimits
from arena.record import DecisionRecord
from arena.referee import FaultPolicy, play_match
from arena.sandbox.cgroups import layout
from engine.core import State
from engine.registry import get_game
from protocols.transport import Hub

pytestmark = pytest.mark.sandbox

LIMIT = 300 << 20
BOUNDED = BotSpec("bounded", (sys.executable, "-m", "bots.random"),
                  limits=ResourceLimits(memory_mb=LIMIT >> 20))


def memory_folder(pid: int, version: int) -> Path:
    """The memory control group the kernel reports for process ``pid`` (``version`` 1 or 2)."""
    for line in Path("/proc/self/mountinfo").read_text().splitlines():
        fields, _, tail = line.partition(" - ")
        kind, _, options = tail.split(" ")[:3]
        if (kind, version) == ("cgroup2", 2) or (kind, version) == ("cgroup", 1) and "memory" in options.split(","):
            point = Path(fields.split(" ")[4])
            break
    else:
        raise AssertionError("no memory hierarchy is mounted")
    for line in Path(f"/proc/{pid}/cgroup").read_text().splitlines():
        _, controllers, path = line.split(":", 2)
        if (version == 2 and controllers == "") or (version == 1 and "memory" in controllers.split(",")):
            return point / path.lstrip("/")
    raise AssertionError(f"process {pid} has no memory group")


def test_a_sandboxed_bot_gets_no_swap_beyond_its_memory_limit(tmp_path: Path) -> None:
    where = layout()
    assert where is not None
    seen: dict[int, dict[str, str]] = {}

    def read_limits(_: State, decision: DecisionRecord) -> None:
        assert handles[0].process is not None and handles[0].process.group is not None
        for pid in handles[0].process.group.members():
            folder = memory_folder(pid, where.version)
            names = (("memory.limit_in_bytes", "memory.memsw.limit_in_bytes") if where.version == 1
                     else ("memory.max", "memory.swap.max"))
            if not (folder / names[1]).exists():
                pytest.skip(f"this kernel has no {names[1]}: swap is not accounted here")
            seen[pid] = {name: (folder / name).read_text().strip() for name in names}

    game = get_game("wongar")
    with Hub() as hub:
        handles = BotHandle.launch_all([BOUNDED] + [BotSpec("random", BOUNDED.command)] * 2, hub, tmp_path)
        try:
            record = play_match(game, game.configure(3), 1, handles, TimeControl(2.0), FaultPolicy(1),
                                on_decision=read_limits)
        finally:
            close_all(handles, grace=0.2)
    assert record.faults == () and len(seen) >= 2  # bubblewrap's processes and the bot's
    expected = ({"memory.limit_in_bytes": str(LIMIT), "memory.memsw.limit_in_bytes": str(LIMIT)}
                if where.version == 1 else {"memory.max": str(LIMIT), "memory.swap.max": "0"})
    assert all(limits == expected for limits in seen.values()), seen
