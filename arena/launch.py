"""The launcher every local bot starts through: set its limits in a fresh process, then ``exec`` it.

Limits are set here, in a single-threaded interpreter of its own, rather than in a ``preexec_fn``:
the referee runs threads (one log copier per bot, and a Dask worker's pool), and running Python
code between ``fork`` and ``exec`` of a threaded process can deadlock on a lock another thread held.
Setting them from outside after the start (``prlimit`` on the child's pid) would race the bot, which
could fork or allocate before they land.

Run as a script (``python -I -S launch.py SETTINGS COMMAND...``, see :mod:`arena.process`), it
imports almost nothing so that it starts in a few milliseconds. ``SETTINGS`` is the text of
:func:`encode_settings`, e.g. ``as=4294967296,cpu=3600,nofile=256,net=1,parent=4242``. Both the
soft and the hard limit are lowered, so an unprivileged bot cannot raise them again. With a
``parent``, the bot is killed when the thread that started it ends (Linux ``PR_SET_PDEATHSIG``), so
a referee killed outright cannot leave its bots running; the launcher exits at once if that parent
is already gone. A failure to execute the bot is reported on stderr with exit status 127;
``--probe`` exits 0 if a network namespace can be made here, else 1 saying why.
"""

from __future__ import annotations

import os
import resource
import signal
import sys

#: ``unshare(2)`` flag for a new network namespace (from <sched.h>).
CLONE_NEWNET = 0x40000000
#: Exit status when the bot's program cannot be executed (as a shell reports it).
EXEC_FAILED = 127
#: ``prctl(2)`` option: the signal this process gets when its parent thread ends.
PR_SET_PDEATHSIG = 1
#: Seconds between SIGXCPU at the CPU limit and SIGKILL, for a bot that catches SIGXCPU.
CPU_KILL_AFTER = 2
#: The path to run this file as a script.
SCRIPT = os.path.abspath(__file__)

#: Setting names: address space (bytes), CPU seconds, open files, processes.
LIMITS = {
    "as": resource.RLIMIT_AS,
    "cpu": resource.RLIMIT_CPU,
    "nofile": resource.RLIMIT_NOFILE,
    "nproc": resource.RLIMIT_NPROC,
}


def encode_settings(limits: dict[str, int], no_network: bool, parent: int | None = None) -> str:
    """The launcher's first argument: ``limits`` by the names of :data:`LIMITS`, the network, and
    the pid of the process whose end kills the bot."""
    unknown = sorted(set(limits) - set(LIMITS))
    if unknown:
        raise ValueError(f"unknown limit {unknown[0]!r}")
    parts = [f"{name}={value}" for name, value in sorted(limits.items())]
    parts.append(f"net={0 if no_network else 1}")
    if parent is not None:
        parts.append(f"parent={parent}")
    return ",".join(parts)


def parse_settings(text: str) -> tuple[dict[str, int], bool, int | None]:
    """The limits, whether to cut the network, and the parent, from :func:`encode_settings`'s text."""
    limits: dict[str, int] = {}
    no_network = False
    parent: int | None = None
    for part in text.split(","):
        name, _, value = part.partition("=")
        if name == "net":
            no_network = value == "0"
        elif name == "parent":
            parent = int(value)
        elif name in LIMITS:
            limits[name] = int(value)
        else:
            raise ValueError(f"unknown setting {part!r}")
    return limits, no_network, parent


def unshare_network() -> str | None:
    """Move this process into a new, empty network namespace; ``None`` on success, else why not."""
    import ctypes  # only when asked: it costs more to import than the rest of this script

    libc = ctypes.CDLL(None, use_errno=True)
    if libc.unshare(CLONE_NEWNET) != 0:
        return os.strerror(ctypes.get_errno())
    return None


def _apply_limit(which: int, value: int, hard_extra: int) -> None:
    _, hard = resource.getrlimit(which)
    soft = value if hard == resource.RLIM_INFINITY else min(value, hard)
    ceiling = soft + hard_extra
    if hard != resource.RLIM_INFINITY:
        ceiling = min(ceiling, hard)
    resource.setrlimit(which, (soft, ceiling))


def signal_on_parent_death(signum: int) -> bool:
    """Ask Linux to send ``signum`` to this process when the thread that started it ends;
    ``False`` where the system cannot (no ``prctl``)."""
    import ctypes  # only when asked: it costs more to import than the rest of this script

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return bool(libc.prctl(PR_SET_PDEATHSIG, signum) == 0)
    except (OSError, AttributeError):
        return False


def die_with(parent: int) -> bool:
    """Be killed when the thread that started this process ends; ``False`` if ``parent`` has
    already gone (the launcher then exits). Where ``prctl`` is missing, only the check is made."""
    signal_on_parent_death(signal.SIGKILL)
    return os.getppid() == parent


def apply(limits: dict[str, int], no_network: bool, parent: int | None) -> None:
    """Set ``limits`` on this process, leave the network if asked (noting on stderr if not
    possible), and die with ``parent``; raises ``ProcessLookupError`` if ``parent`` is gone."""
    if parent is not None and not die_with(parent):
        raise ProcessLookupError(f"the referee (pid {parent}) is gone")
    for name, value in limits.items():
        _apply_limit(LIMITS[name], value, CPU_KILL_AFTER if name == "cpu" else 0)
    if no_network:
        problem = unshare_network()
        if problem is not None:
            sys.stderr.write(f"arena-launch: running without network isolation: {problem}\n")
            sys.stderr.flush()


def main(argv: list[str]) -> int:
    """Apply the settings in ``argv[0]`` and ``exec`` ``argv[1:]``; returns only on failure."""
    if argv == ["--probe"]:
        problem = unshare_network()
        if problem is not None:
            sys.stderr.write(f"unshare(CLONE_NEWNET) failed: {problem}\n")
        return 0 if problem is None else 1
    if len(argv) < 2:
        sys.stderr.write("usage: launch.py SETTINGS COMMAND [ARG...]\n")
        return 2
    try:
        apply(*parse_settings(argv[0]))
    except (ValueError, OSError) as exc:
        sys.stderr.write(f"arena-launch: cannot apply {argv[0]!r}: {exc}\n")
        return EXEC_FAILED
    try:
        os.execvp(argv[1], argv[1:])
    except OSError as exc:
        sys.stderr.write(f"arena-launch: cannot execute {argv[1]!r}: {exc.strerror}\n")
    return EXEC_FAILED


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
