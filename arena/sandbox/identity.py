"""Who a sandboxed bot runs as.

Run as root, every bot process gets a user and group id of its own, ``IDENTITY_BASE + pid`` of its
launcher: no two live processes share a pid, so no two live bots (of this or any other referee on
the machine) share an identity, and none is the referee's or any system account's (the base is far
above the ids that distributions hand out). The launcher switches to it before ``exec``; the ids
need no account. Run as an ordinary user, the bot keeps the user's id outside its user namespace:
the namespaces (its own PID and mount view) are then what separates it from rivals.
"""

from __future__ import annotations

import os

#: The first id of the range bots run as when the referee is root (pid_max is at most 2**22).
IDENTITY_BASE = 0x5A000000


def identity_base() -> int | None:
    """The base of the bots' ids where this process may switch ids (root), else ``None``."""
    return IDENTITY_BASE if os.geteuid() == 0 else None


def identity_of(launcher_pid: int) -> int:
    """The user and group id of the bot whose launcher had ``launcher_pid`` (as root)."""
    return IDENTITY_BASE + launcher_pid
