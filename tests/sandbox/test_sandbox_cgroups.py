"""A sandboxed bot's control groups: its limits, freezing, CPU time, and the end of everything it
started, even when its referee is killed while the bot is frozen (its reaper removes them)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from polling import wait_until

from arena.manifest import BotSpec, ResourceLimits
from arena.process import BotProcess
from arena.sandbox.cgroups import BotGroup, GroupLimits, layout, sweep_orphans

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="bot control groups need root here")

SPIN = "import os\nos.fork()\nwhile True: pass\n"  # two processes spinning


def test_limits_freezing_and_cpu_time_hold_for_all_its_processes(tmp_path: Path) -> None:
    spec = BotSpec("spinner", (sys.executable, "-c", SPIN), limits=ResourceLimits(memory_mb=256, processes=20))
    with BotProcess(spec, {}, tmp_path / "spin.log") as process:
        group = process.group
        assert group is not None
        values = {f.name: f.read_text().strip() for folder in group.folders for f in folder.iterdir()
                  if f.name in ("pids.max", "memory.limit_in_bytes", "memory.max", "memory.memsw.limit_in_bytes",
                                "memory.swap.max", "cpuset.cpus", "cpu.shares", "cpu.weight")}
        assert values["pids.max"] == "20"
        assert values.get("memory.limit_in_bytes", values.get("memory.max")) == str(256 << 20)
        if "memory.memsw.limit_in_bytes" in values:  # where the kernel accounts swap
            assert values["memory.memsw.limit_in_bytes"] == str(256 << 20)
        if "memory.swap.max" in values:
            assert values["memory.swap.max"] == "0"
        where = layout()
        assert where is not None
        # Every bot weighs the same, however many processes it has (where the machine can weigh).
        weight = {1: "1024", 2: "100"}[where.version] if "cpu" in where.bases else None
        assert values.get("cpu.shares", values.get("cpu.weight")) == weight
        assert wait_until(lambda: len(group.members()) == 4, 10)  # bubblewrap's two, the bot, its child
        assert wait_until(lambda: (process.cpu_used() or 0.0) > 0.2, 10), "it spins while thawed"
        process.freeze()
        assert wait_until(group.frozen, 5)
        time.sleep(0.05)
        frozen_at = process.cpu_used() or 0.0
        time.sleep(0.5)
        assert (process.cpu_used() or 0.0) - frozen_at < 0.01, "frozen, neither process runs"
        process.thaw()
        assert wait_until(lambda: (process.cpu_used() or 0.0) - frozen_at > 0.2, 10)
        process.freeze()
        folders = group.folders
    assert process.group is None and not any(f.exists() for f in folders)
    assert group.members() == []


def fully_frozen(group: BotGroup) -> bool:
    """Whether the kernel has stopped every process of ``group`` (not merely freezing)."""
    for folder in group.folders:
        if (folder / "freezer.state").exists():
            return (folder / "freezer.state").read_text().strip() == "FROZEN"
        if (folder / "cgroup.events").exists():
            return "frozen 1" in (folder / "cgroup.events").read_text().splitlines()
    return False


def test_a_trusted_bot_has_groups_of_its_own_to_measure_weigh_and_freeze_it(tmp_path: Path) -> None:
    spec = BotSpec("trusted", (sys.executable, "-c", SPIN), trusted=True, limits=ResourceLimits(memory_mb=None))
    with BotProcess(spec, {}, tmp_path / "spin.log") as process:
        group = process.group
        assert group is not None
        assert wait_until(lambda: len(group.members()) == 2, 10)  # the bot and its child: no jail
        limits = {f.name: f.read_text().strip() for folder in group.folders for f in folder.iterdir()
                  if f.name in ("pids.max", "memory.limit_in_bytes", "memory.max", "cpu.shares", "cpu.weight")}
        assert limits.get("pids.max") == "max"
        assert limits.get("memory.limit_in_bytes", limits.get("memory.max")) in ("max", str(2**63 - 4096))
        assert limits.get("cpu.shares", limits.get("cpu.weight")) in ("1024", "100", None)
        assert wait_until(lambda: (process.cpu_used() or 0.0) > 0.2, 10), "it spins while thawed"
        process.freeze()  # as a sandboxed bot's: between its turns it cannot run
        assert wait_until(lambda: fully_frozen(group), 10)
        frozen_at = process.cpu_used()
        assert frozen_at is not None
        time.sleep(0.2)  # long enough for a spinner left running to show; a frozen one never does
        assert process.cpu_used() == frozen_at and len(group.members()) == 2, "frozen, neither process runs"
        process.thaw()
        assert wait_until(lambda: (process.cpu_used() or 0.0) - frozen_at > 0.2, 10)
        folders = group.folders
    assert not any(f.exists() for f in folders)


def test_pinning_moves_every_process_of_the_group_and_no_process_can_widen_it(tmp_path: Path) -> None:
    sleepers = "import os, time\nos.fork()\ntime.sleep(60)\n"
    with BotProcess(BotSpec("sleepers", (sys.executable, "-c", sleepers)), {}, tmp_path / "log") as process:
        group = process.group
        assert group is not None
        assert wait_until(lambda: len(group.members()) == 4, 10)  # bubblewrap's two, the bot, its child
        cpus = frozenset(os.sched_getaffinity(0))
        last = frozenset({max(cpus)})
        process.pin(last)
        assert {frozenset(os.sched_getaffinity(pid)) for pid in group.members()} == {last}
        with pytest.raises(OSError):
            os.sched_setaffinity(group.members()[-1], cpus - last or {max(cpus) + 1})
        process.pin(cpus)
        assert {frozenset(os.sched_getaffinity(pid)) for pid in group.members()} == {cpus}


def test_admit_moves_a_running_process_into_every_hierarchy_and_fails_for_an_ended_one() -> None:
    group = BotGroup.create(GroupLimits(8, None, frozenset()))
    sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        assert group.members() == []
        assert group.admit(sleeper.pid)
        assert group.members() == [sleeper.pid]
        lines = Path(f"/proc/{sleeper.pid}/cgroup").read_text().splitlines()
        assert sum(line.endswith("/" + group.folders[0].name) for line in lines) == len(group.folders)
        sleeper.kill()
        sleeper.wait()
        assert not group.admit(sleeper.pid)
    finally:
        sleeper.kill()
        sleeper.wait()
        group.remove()
    assert not any(folder.exists() for folder in group.folders)


# A referee that starts a sandboxed bot, freezes it, prints the bot's group and waits to be killed.
REFEREE = r"""
import sys, time
from pathlib import Path
from arena.manifest import BotSpec
from arena.process import BotProcess
bot = BotProcess(BotSpec("sleeper", (sys.executable, "-c", "import time; time.sleep(600)")), {},
                 Path(sys.argv[1]), isolate_network=True)
bot.start()
time.sleep(0.5)
bot.freeze()
print(bot.group.folders[0].name, flush=True)
time.sleep(600)
"""


def test_the_groups_of_a_referee_killed_while_its_bot_is_frozen_are_removed_by_its_reaper(
    tmp_path: Path,
) -> None:
    """A frozen bot misses its parent-death signal; the referee's reaper removes it and its groups."""
    where = layout()
    assert where is not None
    referee = subprocess.Popen([sys.executable, "-c", REFEREE, str(tmp_path / "sleeper.log")],
                               stdout=subprocess.PIPE, text=True, cwd=Path(__file__).parents[2])
    assert referee.stdout is not None
    name = referee.stdout.readline().strip()
    folders = [base / name for base in set(where.bases.values())]
    members = [int(p) for p in (folders[0] / "cgroup.procs").read_text().split()]
    assert members and all(f.exists() for f in folders)
    referee.send_signal(signal.SIGKILL)
    referee.wait()
    assert wait_until(lambda: not any(f.exists() for f in folders), 30), "the reaper left the groups"
    assert wait_until(lambda: not any(_alive(pid) for pid in members), 5)
    assert sweep_orphans(where, referee.pid) == 0, "nothing of the dead referee is left to sweep"


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except (FileNotFoundError, ProcessLookupError):
        return False
