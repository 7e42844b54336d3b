"""System V shared memory from outside any jail, to show that a jailed bot's IPC namespace is its
own: a segment the test makes that a bot must not see, and the keys this namespace holds."""

from __future__ import annotations

import ctypes
import errno
import os
import random
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

#: ``shmget`` flags and ``shmctl``'s removal command (from <sys/ipc.h>).
IPC_CREAT, IPC_EXCL, IPC_RMID = 0o1000, 0o2000, 0


def _libc() -> ctypes.CDLL:
    return ctypes.CDLL(None, use_errno=True)


def keys_here() -> dict[int, int]:
    """The shared memory segments of this IPC namespace: key to id."""
    lines = Path("/proc/sysvipc/shm").read_text().splitlines()[1:]
    return {int(line.split()[0]): int(line.split()[1]) for line in lines}


def remove(key: int) -> None:
    """Remove the segment at ``key`` from this namespace, if there is one."""
    segment = keys_here().get(key)
    if segment is not None:
        _libc().shmctl(segment, IPC_RMID, None)


@contextmanager
def host_segment() -> Iterator[int]:
    """A fresh segment in this namespace, at a key whose successor is free too; yields the key and
    removes both keys' segments at the end (the successor is the one a jailed bot makes)."""
    libc = _libc()
    while True:
        key = random.randrange(1 << 20, 1 << 30)
        if key + 1 in keys_here():
            continue
        if libc.shmget(key, 4096, IPC_CREAT | IPC_EXCL | 0o600) != -1:
            break
        if ctypes.get_errno() != errno.EEXIST:
            raise OSError(ctypes.get_errno(), os.strerror(ctypes.get_errno()))
    try:
        yield key
    finally:
        remove(key)
        remove(key + 1)
