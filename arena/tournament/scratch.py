"""Each local worker, and the runner itself while it plays, keeps everything temporary (hub sockets,
bot logs, bots' private folders) in one folder of its own in the system's temporary folder,
``arena-worker-<pid>-*`` or ``arena-runner-<pid>-*``, which it locks (``flock``) while it lives. A
process that is killed cannot remove its folder; the next runner removes every such folder whose
lock is free (:func:`sweep`), since its owner is gone.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

PREFIX = "arena-worker-"
#: The prefix of the runner's own scratch folder (:func:`runner_scratch`).
RUNNER_PREFIX = "arena-runner-"
_LOCK = ".lock"


def claim() -> Path:
    """Make this process's scratch folder, lock it for the life of the process, and make it the
    folder :mod:`tempfile` uses from now on. Returns it."""
    return _locked(PREFIX)[0]  # the lock's descriptor is never closed


def _locked(prefix: str) -> tuple[Path, int]:
    """A new scratch folder named ``prefix<pid>-*``, :mod:`tempfile`'s folder from now on, and the
    descriptor holding its lock (held until it is closed or this process ends)."""
    starting = Path(tempfile.mkdtemp(prefix="arena-starting-"))
    fd = os.open(starting / _LOCK, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
    fcntl.flock(fd, fcntl.LOCK_EX)
    folder = Path(tempfile.mkdtemp(prefix=f"{prefix}{os.getpid()}-"))
    os.rename(starting, folder)  # replaces the empty folder: only locked folders carry the prefix
    folder.chmod(0o711)  # bots of another identity may need to pass through to their sockets
    tempfile.tempdir = str(folder)
    return folder, fd


@contextmanager
def runner_scratch() -> Iterator[Path]:
    """The runner's scratch folder for the span of the block: :mod:`tempfile`'s folder meanwhile
    (what the runner starts itself, such as the bots of its start check, lives there), removed at
    the end with :mod:`tempfile`'s folder as it was. A runner killed inside leaves it to the
    :func:`sweep` the next one makes first."""
    sweep()
    before = tempfile.tempdir
    folder, fd = _locked(RUNNER_PREFIX)
    try:
        yield folder
    finally:
        tempfile.tempdir = before
        shutil.rmtree(folder, ignore_errors=True)
        os.close(fd)


def sweep() -> list[Path]:
    """Remove the scratch folders of workers and runners that are gone (their lock is free);
    returns them."""
    removed: list[Path] = []
    where = Path(tempfile.gettempdir())
    for folder in sorted([*where.glob(f"{PREFIX}*"), *where.glob(f"{RUNNER_PREFIX}*")]):
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
