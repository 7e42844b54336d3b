"""One control group per bot (cgroup v2, or the v1 hierarchies): its limits, freezing, CPU time, kill.

A bot's groups are made beneath this process's own group in each hierarchy (read from
``/proc/self/cgroup``) and joined by the launcher before it ``exec``s the bot, so every process the
bot ever starts is inside. They hold: a process limit (``pids``), one memory limit for all its
processes (``memory``, and as much again of memory and swap together, so swap cannot extend it),
the processors it may run on (``cpuset``, which no ``sched_setaffinity`` of the bot can widen;
:meth:`BotGroup.pin` narrows it while the bot decides), its CPU time (``cpuacct`` in v1,
``cpu.stat`` in v2), the freezer, and where the machine has the ``cpu`` controller a CPU weight
equal to every other bot's: however many processes a bot starts, the scheduler shares a processor
between bots, not between their processes.

Freezing and thawing write the state and return at once: the kernel completes a freeze within a
few milliseconds, and waiting for it would put that on the referee's path. :meth:`BotGroup.kill`
kills every member and :meth:`BotGroup.remove` deletes the groups; both are idempotent.
"""

from __future__ import annotations

import itertools
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from arena.sandbox import SandboxError

#: The v1 controllers a bot's group needs, each in its own hierarchy or comounted.
V1_CONTROLLERS = ("pids", "memory", "cpuset", "freezer", "cpuacct")
#: The v2 controllers enabled for a bot's group (the freezer and cpu.stat are in every v2 group).
V2_CONTROLLERS = ("pids", "memory", "cpuset")
#: The controller of CPU weights, used where the machine has it (v1 and v2 alike).
WEIGHT_CONTROLLER = "cpu"
#: Every bot's CPU weight: the default of ``cpu.shares`` (v1) and ``cpu.weight`` (v2), written out
#: so that all bot groups weigh the same whatever their parent's settings.
EQUAL_WEIGHT = {1: ("cpu.shares", "1024"), 2: ("cpu.weight", "100")}
#: Seconds :meth:`BotGroup.kill` waits for killed members to leave.
KILL_WAIT = 5.0

_names = itertools.count(1)
_sweep_pending = [True]  # once per process, before its first group
#: The process whose reaper holds the read end of its pipe, and the write end this process keeps
#: open until it ends (a forked child starts a reaper of its own).
_reaper_pipe = [0, -1]
_reapers: list[subprocess.Popen[bytes]] = []  # kept, so that no finaliser reports them running


def _start_reaper() -> None:
    """Start the reaper of this process's bot groups (:mod:`arena.sandbox.reaper`)."""
    read_end, write_end = os.pipe()
    try:
        reaper = subprocess.Popen(
            [sys.executable, "-m", "arena.sandbox.reaper", str(os.getpid()), str(read_end)],
            pass_fds=(read_end,), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL, start_new_session=True,
        )
    except OSError:
        os.close(write_end)  # no reaper: the next referee to start sweeps instead
        return
    finally:
        os.close(read_end)
    _reapers.append(reaper)
    _reaper_pipe[:] = [os.getpid(), write_end]


@dataclass(frozen=True, slots=True)
class Layout:
    """Where bot groups go: ``version`` 1 or 2; ``bases`` maps a controller to the folder (this
    process's own group in that hierarchy) beneath which bot groups are made. In v2 every
    controller maps to the same folder; ``missing`` names the needed controllers this machine does
    not provide (the ``cpu`` controller of weights is used where present, never needed)."""

    version: int
    bases: dict[str, Path]
    missing: tuple[str, ...]


def _mounts() -> list[tuple[str, str, set[str]]]:
    """(mount point, filesystem type, options) of every cgroup mount."""
    found = []
    for line in Path("/proc/self/mountinfo").read_text().splitlines():
        fields, _, tail = line.partition(" - ")
        kind, _, options = tail.split(" ")[:3]
        if kind in ("cgroup", "cgroup2"):
            found.append((fields.split(" ")[4], kind, set(options.split(","))))
    return found


def _own_paths() -> dict[str, str]:
    """This process's group per v1 controller, and under ``""`` its v2 group."""
    own: dict[str, str] = {}
    for line in Path("/proc/self/cgroup").read_text().splitlines():
        _, controllers, path = line.split(":", 2)
        for controller in controllers.split(",") if controllers else [""]:
            own[controller] = path
    return own


@cache
def layout() -> Layout | None:
    """How this machine's control groups are laid out, or ``None`` without any cgroup mount.
    The unified (v2) hierarchy when it has every controller a bot needs, else the v1 hierarchies,
    else whichever lacks fewer."""
    try:
        mounts, own = _mounts(), _own_paths()
    except (OSError, ValueError):
        return None
    candidates: list[Layout] = []
    for point, kind, _ in mounts:
        if kind != "cgroup2" or "" not in own:
            continue
        base = Path(point + own[""])
        try:
            available = (base / "cgroup.controllers").read_text().split()
        except OSError:
            continue
        missing = tuple(c for c in V2_CONTROLLERS if c not in available)
        used = [c for c in (*V2_CONTROLLERS, WEIGHT_CONTROLLER) if c in available]
        candidates.append(Layout(2, {c: base for c in used} | {"": base}, missing))
    bases: dict[str, Path] = {}
    for point, kind, options in mounts:
        if kind == "cgroup":
            for controller in (*V1_CONTROLLERS, WEIGHT_CONTROLLER):
                if controller in options and controller in own:
                    bases[controller] = Path(point + own[controller])
    if bases:
        candidates.append(Layout(1, bases, tuple(c for c in V1_CONTROLLERS if c not in bases)))
    return min(candidates, key=lambda c: len(c.missing), default=None)


def _write(path: Path, value: str) -> None:
    try:
        path.write_text(value)
    except OSError as exc:
        raise SandboxError(f"cannot write {value!r} to {path}: {exc.strerror}") from None


def _v2_enable(base: Path, controllers: Iterable[str]) -> None:
    """Let groups beneath ``base`` use ``controllers`` (v2 ``cgroup.subtree_control``)."""
    enabled = set((base / "cgroup.subtree_control").read_text().split())
    wanted = [c for c in controllers if c not in enabled]
    if wanted:
        _write(base / "cgroup.subtree_control", " ".join(f"+{c}" for c in wanted))


@dataclass(frozen=True, slots=True)
class GroupLimits:
    """What a bot's group holds it to: processes (and threads; ``None``: unlimited), bytes of
    memory for all its processes together (``None``: unlimited), and the processors it may use
    (empty: any)."""

    pids: int | None
    memory_bytes: int | None
    cpus: frozenset[int]


def sweep_orphans(where: Layout, gone: int | None = None) -> int:
    """Kill and remove the bot groups of referees that are gone (``gone``: of that referee only,
    known to be gone); how many groups were removed.

    A bot frozen when its referee is killed outright never gets its parent-death signal (it is
    delivered only on thawing): the referee's reaper (:mod:`arena.sandbox.reaper`) removes its
    groups when it ends, and each referee also clears what dead ones left before making its own.
    """
    removed = 0
    for folder in {base for base in where.bases.values()}:
        for group in folder.glob(f"arena-bot-{'*' if gone is None else gone}-*"):
            referee = int(group.name.split("-")[2])
            if gone is None and (referee == os.getpid() or Path(f"/proc/{referee}").exists()):
                continue
            orphan = BotGroup._adopt(where, group.name)
            if orphan is None:
                continue
            try:
                orphan.remove()
            except OSError:
                continue  # another referee is sweeping it at the same time
            removed += 1
    return removed


class BotGroup:
    """The control groups of one bot process generation. Make with :meth:`create`."""

    def __init__(self, version: int, folders: tuple[Path, ...], members: Path,
                 freeze: Path, usage: Path, cpuset: Path) -> None:
        self.version = version
        self.folders = folders
        self._members = members
        self._cpuset = cpuset
        self._pinned: frozenset[int] | None = None  # what pin() last wrote
        self._freeze_fd = os.open(freeze, os.O_WRONLY | os.O_CLOEXEC)
        self._usage_fd = os.open(usage, os.O_RDONLY | os.O_CLOEXEC)
        self._frozen, self._thawed = (b"FROZEN", b"THAWED") if version == 1 else (b"1", b"0")
        self._removed = False

    @classmethod
    def create(cls, limits: GroupLimits, where: Layout | None = None) -> BotGroup:
        """Make a new group with ``limits`` in every needed hierarchy (``where``: the machine's
        :func:`layout`); raises :class:`SandboxError` if this machine or user cannot."""
        where = layout() if where is None else where
        if where is None or where.missing:
            missing = "no cgroup mount" if where is None else "no " + ", ".join(where.missing) + " controller"
            raise SandboxError(f"control groups unavailable: {missing}")
        if _sweep_pending:
            _sweep_pending.clear()
            try:
                sweep_orphans(where)
            except OSError:
                pass  # the next referee to start sweeps again
        if _reaper_pipe[0] != os.getpid():
            _start_reaper()
        name = f"arena-bot-{os.getpid()}-{next(_names)}"
        folders: dict[str, Path] = {}
        try:
            if where.version == 2:
                _v2_enable(where.bases[""], V2_CONTROLLERS)
                if WEIGHT_CONTROLLER in where.bases:
                    try:  # refused, e.g., while real-time processes run outside the root group
                        _v2_enable(where.bases[""], [WEIGHT_CONTROLLER])
                    except SandboxError:
                        pass
            for controller, base in where.bases.items():
                folder = base / name
                if folder not in folders.values():
                    folder.mkdir()
                folders[controller] = folder
            cls._limit(where.version, folders, limits)
        except (OSError, SandboxError) as exc:
            for folder in set(folders.values()):
                folder.rmdir()
            why = exc.strerror if isinstance(exc, OSError) else str(exc)
            raise SandboxError(f"cannot make a control group: {why}") from None
        group = cls._adopt(where, name)
        if group is None:
            raise SandboxError(f"cannot open the control group {name}")
        return group

    @classmethod
    def _adopt(cls, where: Layout, name: str) -> BotGroup | None:
        """The existing groups called ``name`` (``None`` if some hierarchy lacks it)."""
        folders = {controller: base / name for controller, base in where.bases.items()}
        try:
            if where.version == 1:
                return cls(1, tuple(dict.fromkeys(folders.values())), folders["freezer"] / "cgroup.procs",
                           folders["freezer"] / "freezer.state", folders["cpuacct"] / "cpuacct.usage",
                           folders["cpuset"] / "cpuset.cpus")
            folder = folders[""]
            return cls(2, (folder,), folder / "cgroup.procs", folder / "cgroup.freeze", folder / "cpu.stat",
                       folder / "cpuset.cpus")
        except (OSError, KeyError):
            return None

    @staticmethod
    def _limit(version: int, folders: dict[str, Path], limits: GroupLimits) -> None:
        if limits.pids is not None:
            _write(folders["pids"] / "pids.max", str(limits.pids))
        weight, value = EQUAL_WEIGHT[version]
        if WEIGHT_CONTROLLER in folders and (folders[WEIGHT_CONTROLLER] / weight).exists():
            _write(folders[WEIGHT_CONTROLLER] / weight, value)
        cpuset = folders["cpuset"]
        parent_cpus = _cpu_list((cpuset.parent / "cpuset.cpus.effective" if version == 2
                                 else cpuset.parent / "cpuset.effective_cpus").read_text())
        cpus = (limits.cpus & parent_cpus) or parent_cpus
        if version == 1:
            mems = (cpuset.parent / "cpuset.effective_mems").read_text().strip()
            _write(cpuset / "cpuset.mems", mems)
        _write(cpuset / "cpuset.cpus", ",".join(map(str, sorted(cpus))))
        if limits.memory_bytes is not None:
            memory = folders["memory"]
            if version == 2:
                _write(memory / "memory.max", str(limits.memory_bytes))
                if (memory / "memory.swap.max").exists():
                    _write(memory / "memory.swap.max", "0")
            else:
                _write(memory / "memory.limit_in_bytes", str(limits.memory_bytes))
                if (memory / "memory.memsw.limit_in_bytes").exists():
                    _write(memory / "memory.memsw.limit_in_bytes", str(limits.memory_bytes))

    @property
    def join_files(self) -> tuple[Path, ...]:
        """The ``cgroup.procs`` files a process writes its pid to, to join every hierarchy."""
        return tuple(folder / "cgroup.procs" for folder in self.folders)

    def admit(self, pid: int) -> bool:
        """Move the process ``pid`` into every hierarchy of the group now; whether all moves took.

        Only a head start: the launcher joins the group itself before it ``exec``s the bot, which is
        what keeps every bot process inside. The first move into a control group after a quiet
        spell waits for an RCU grace period (some 10 ms; none where the hierarchy is mounted with
        ``favordynmods``); made from the referee as soon as the launcher exists, that wait
        overlaps the launcher's own interpreter start-up, and the launcher's join then finds the
        grace period (nearly) passed.
        """
        try:
            for procs in self.join_files:
                with open(procs, "w") as file:
                    file.write(str(pid))
        except OSError:
            return False  # the launcher has already ended, or this user may not move it
        return True

    def pin(self, cpus: frozenset[int]) -> None:
        """Let the group's processes run on ``cpus`` only (a subset of the processors it was
        made with); nothing is written when that is what it has already."""
        if cpus != self._pinned:
            _write(self._cpuset, ",".join(map(str, sorted(cpus))))
            self._pinned = cpus

    def freeze(self) -> None:
        """Ask the kernel to stop every process of the group; returns without waiting for it."""
        os.pwrite(self._freeze_fd, self._frozen, 0)

    def thaw(self) -> None:
        """Let every process of the group run again."""
        os.pwrite(self._freeze_fd, self._thawed, 0)

    def frozen(self) -> bool:
        """Whether the group is frozen (or still freezing)."""
        if self.version == 1:
            return (self._members.parent / "freezer.state").read_text().strip() != "THAWED"
        return (self._members.parent / "cgroup.freeze").read_text().strip() == "1"

    def cpu_used(self) -> float:
        """Seconds of CPU used by every process of the group since it was made."""
        raw = os.pread(self._usage_fd, 4096, 0)
        if self.version == 1:
            return int(raw) / 1e9
        for line in raw.decode().splitlines():
            key, _, value = line.partition(" ")
            if key == "usage_usec":
                return int(value) / 1e6
        raise SandboxError("cpu.stat has no usage_usec")

    def members(self) -> list[int]:
        """Pids of every live process in the group."""
        try:
            return [int(pid) for pid in self._members.read_text().split()]
        except FileNotFoundError:
            return []

    def signal_all(self, signum: int, spare: int | None = None) -> None:
        """Send ``signum`` to every process of the group but ``spare``."""
        for pid in self.members():
            if pid == spare:
                continue
            try:
                os.kill(pid, signum)
            except ProcessLookupError:
                pass

    def kill(self) -> bool:
        """Kill every process of the group (frozen first, so none can fork meanwhile); whether the
        group is empty afterwards (within :data:`KILL_WAIT` seconds). Idempotent."""
        if self._removed:
            return True
        kill_file = self._members.parent / "cgroup.kill"
        if self.version == 2 and kill_file.exists():
            _write(kill_file, "1")
        else:
            self.freeze()
            self.signal_all(signal.SIGKILL)
            self.thaw()
        deadline = time.monotonic() + KILL_WAIT
        while self.members():
            if time.monotonic() >= deadline:
                return False
            self.signal_all(signal.SIGKILL)
            time.sleep(0.005)
        return True

    def remove(self) -> None:
        """Kill what is left and delete the groups; idempotent."""
        if self._removed:
            return
        self.kill()
        self._removed = True
        os.close(self._freeze_fd)
        os.close(self._usage_fd)
        for folder in self.folders:
            try:
                folder.rmdir()
            except OSError:
                pass


def _cpu_list(text: str) -> frozenset[int]:
    """The processors of a cpuset list such as ``0-3,6``."""
    cpus: set[int] = set()
    for part in text.strip().split(","):
        if part:
            low, _, high = part.partition("-")
            cpus.update(range(int(low), int(high or low) + 1))
    return frozenset(cpus)
