"""Each local worker keeps everything temporary (hub sockets, bot logs, bots' private folders) in
one folder of its own, ``arena-worker-<pid>-*`` in the system's temporary folder, which it locks
(``flock``) while it lives. A worker that is killed cannot remove its folder; the next runner
removes every such folder whose lock is free (:func:`sweep`), since its owner is gone.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import tempfile
from pathlib import Path

PREFIX = "arena-worker-"
_LOCK = ".lock"


def claim() -> Path:
    """Make this process's scratch folder, lock it for the life of the process, and make it the
    folder :mod:`tempfile` uses from now on. Returns it."""
    starting = Path(tempfile.mkdtemp(prefix="arena-starting-"))
    fd = os.open(starting / _LOCK, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
    fcntl.flock(fd, fcntl.LOCK_EX)  # held until this process ends; never closed
    folder = Path(tempfile.mkdtemp(prefix=f"{PREFIX}{os.getpid()}-"))
    os.rename(starting, folder)  # replaces the empty folder: only locked folders carry the prefix
    folder.chmod(0o711)  # bots of another identity may need to pass through to their sockets
    tempfile.tempdir = str(folder)
    return folder


def sweep() -> list[Path]:
    """Remove the scratch folders of workers that are gone (their lock is free); returns them."""
    removed: list[Path] = []
    for folder in sorted(Path(tempfile.gettempdir()).glob(f"{PREFIX}*")):
        try:
            fd = os.open(folder / _LOCK, os.O_RDWR | os.O_CLOEXEC)
        except OSError:
            continue
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            continue
        finally:
            os.close(fd)
        shutil.rmtree(folder, ignore_errors=True)
        removed.append(folder)
    return removed
