"""What isolation this machine provides: bubblewrap, user namespaces, control groups, root.

:func:`machine_report` gathers the facts (cheap, no bot started); ``arena doctor`` shows them and
runs the self-test of :mod:`arena.sandbox.selftest`.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from arena.sandbox.cgroups import Layout, layout

#: The one-line fix named wherever bubblewrap is missing.
INSTALL_HINT = "install it with: apt-get install bubblewrap (Fedora: dnf install bubblewrap)"


#: Environment variable naming the bubblewrap program, where it is not ``bwrap`` on ``PATH``.
ENV_BWRAP = "ARENA_BWRAP"


def bwrap_path() -> str | None:
    """Where the ``bwrap`` program is (``$ARENA_BWRAP`` if set, else on ``PATH`` or in
    ``/usr/bin``), or ``None`` if it is not installed there."""
    given = os.environ.get(ENV_BWRAP)
    if given is not None:
        return given if os.access(given, os.X_OK) else None
    return shutil.which("bwrap") or next(
        (p for p in ("/usr/bin/bwrap", "/usr/local/bin/bwrap") if os.access(p, os.X_OK)), None
    )


@dataclass(frozen=True, slots=True)
class MachineReport:
    """The isolation facts of this machine: bubblewrap's path and version (``None`` if missing),
    whether user namespaces can be made (``userns_problem`` is ``None`` if they can), the control
    group layout (``None`` without cgroups), and whether the arena runs as root."""

    bwrap: str | None
    bwrap_version: str | None
    userns_problem: str | None
    cgroups: Layout | None
    root: bool


def _userns_problem(bwrap: str | None) -> str | None:
    """Why no user namespace can be made here (tried with bubblewrap), or ``None``."""
    limit = Path("/proc/sys/user/max_user_namespaces")
    if limit.exists() and limit.read_text().strip() == "0":
        return "user.max_user_namespaces is 0"
    if bwrap is None:
        return "not tried: bubblewrap is missing"
    trial = subprocess.run([bwrap, "--unshare-user", "--ro-bind", "/", "/", "true"],
                           capture_output=True, text=True, timeout=30, check=False)
    return None if trial.returncode == 0 else (trial.stderr.strip() or f"exit {trial.returncode}")


@cache
def machine_report() -> MachineReport:
    """The facts about this machine (looked up once per process)."""
    bwrap = bwrap_path()
    version = None
    if bwrap is not None:
        out = subprocess.run([bwrap, "--version"], capture_output=True, text=True, timeout=30, check=False)
        version = out.stdout.strip().removeprefix("bubblewrap ") or None
    return MachineReport(bwrap, version, _userns_problem(bwrap), layout(), os.geteuid() == 0)
