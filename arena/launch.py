"""The launcher every local bot starts through: set its limits in a fresh process, then ``exec`` it.

Limits are set here, in a single-threaded interpreter of its own, rather than in a ``preexec_fn``:
the referee runs threads (one log copier per bot, and a Dask worker's pool), and running Python
code between ``fork`` and ``exec`` of a threaded process can deadlock on a lock another thread held.
Setting them from outside after the start (``prlimit`` on the child's pid) would race the bot, which
could fork or allocate before they land.

Run as a script with the standard library only (``python -I -S launch.py SETTINGS COMMAND...``) so
that it starts in a few milliseconds. ``SETTINGS`` is the JSON of :meth:`LaunchSettings.to_json`.
Both the soft and the hard limit are lowered, so an unprivileged bot cannot raise them again.
A failure to execute the bot is reported on stderr with exit status 127.
"""

from __future__ import annotations

import ctypes
import json
import os
import resource
import subprocess
import sys
from dataclasses import asdict, dataclass
from functools import cache

#: ``unshare(2)`` flag for a new network namespace (from <sched.h>).
CLONE_NEWNET = 0x40000000
#: Exit status when the bot's program cannot be executed (as a shell reports it).
EXEC_FAILED = 127
#: Seconds between SIGXCPU at the CPU limit and SIGKILL, for a bot that catches SIGXCPU.
CPU_KILL_AFTER = 2

_LIMITS = {
    "address_space": resource.RLIMIT_AS,
    "cpu_seconds": resource.RLIMIT_CPU,
    "open_files": resource.RLIMIT_NOFILE,
    "processes": resource.RLIMIT_NPROC,
}


@dataclass(frozen=True, slots=True)
class LaunchSettings:
    """What the launcher applies before ``exec``: limits (``None`` keeps the inherited one;
    ``address_space`` in bytes, ``cpu_seconds`` in seconds) and whether to cut off the network."""

    address_space: int | None = None
    cpu_seconds: int | None = None
    open_files: int | None = None
    processes: int | None = None
    no_network: bool = False

    def to_json(self) -> str:
        """The settings as the launcher's first argument."""
        return json.dumps(asdict(self), separators=(",", ":"))


def launcher_command(settings: LaunchSettings, command: tuple[str, ...]) -> list[str]:
    """The command line that runs ``command`` under ``settings``."""
    return [sys.executable, "-I", "-S", os.path.abspath(__file__), settings.to_json(), *command]


def _unshare_network() -> str | None:
    """Move this process into a new, empty network namespace; ``None`` on success, else why not."""
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.unshare(CLONE_NEWNET) != 0:
        return os.strerror(ctypes.get_errno())
    return None


@cache
def network_isolation_problem() -> str | None:
    """Why this machine cannot give bots a private network namespace, or ``None`` if it can.

    Probed once per process by running the launcher in a child (never in this process).
    """
    probe = subprocess.run(
        [sys.executable, "-I", "-S", os.path.abspath(__file__), "--probe"],
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    return None if probe.returncode == 0 else (probe.stderr.strip() or f"probe exit {probe.returncode}")


def _apply_limit(which: int, value: int, hard_extra: int = 0) -> None:
    _, hard = resource.getrlimit(which)
    soft = value if hard == resource.RLIM_INFINITY else min(value, hard)
    ceiling = soft + hard_extra
    if hard != resource.RLIM_INFINITY:
        ceiling = min(ceiling, hard)
    resource.setrlimit(which, (soft, ceiling))


def _apply(settings: dict[str, object]) -> None:
    for key, which in _LIMITS.items():
        value = settings.get(key)
        if isinstance(value, int):
            _apply_limit(which, value, CPU_KILL_AFTER if which == resource.RLIMIT_CPU else 0)
    if settings.get("no_network"):
        problem = _unshare_network()
        if problem is not None:
            sys.stderr.write(f"arena-launch: running without network isolation: {problem}\n")
            sys.stderr.flush()


def main(argv: list[str]) -> int:
    """Apply the settings in ``argv[0]`` and ``exec`` ``argv[1:]``; returns only on failure."""
    if argv == ["--probe"]:
        problem = _unshare_network()
        if problem is not None:
            sys.stderr.write(f"unshare(CLONE_NEWNET) failed: {problem}\n")
        return 0 if problem is None else 1
    if len(argv) < 2:
        sys.stderr.write("usage: launch.py SETTINGS COMMAND [ARG...]\n")
        return 2
    try:
        _apply(json.loads(argv[0]))
    except (ValueError, OSError) as exc:
        sys.stderr.write(f"arena-launch: cannot apply limits {argv[0]}: {exc}\n")
        return EXEC_FAILED
    try:
        os.execvp(argv[1], argv[1:])
    except OSError as exc:
        sys.stderr.write(f"arena-launch: cannot execute {argv[1]!r}: {exc.strerror}\n")
    return EXEC_FAILED


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
