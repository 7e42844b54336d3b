"""One runner per results database: an exclusive ``flock`` on a side file ``<db>.runner``.

The lock belongs to the open file, so the kernel releases it when its holder dies in any way
(SIGKILL included): a lock left by a dead runner is never stale, the next runner simply takes it.
The file names its holder (pid, host, start time) for the refusal message; a clean release removes
it. Readers never take the lock (SQLite's WAL lets them read while the runner writes).

A lock on a file no longer at ``<db>.runner`` excludes nobody: :meth:`RunnerLock.acquire` never
keeps one (it opens the path again), and a holder whose file was removed or replaced (by hand, or
a tool cleaning up) finds out from :meth:`RunnerLock.check`, which the runner calls before every
write, and stops.
"""

from __future__ import annotations

import fcntl
import json
import os
import socket
import time
from pathlib import Path
from types import TracebackType

from arena.store import StoreError


class RunnerBusy(StoreError):
    """Another live process holds the runner lock of this database."""


class RunnerLockLost(StoreError):
    """The lock file of a held runner lock was removed or replaced: another runner may write."""


def lock_path(db: Path) -> Path:
    """The side file that holds the runner lock of ``db``."""
    return db.with_name(db.name + ".runner")


class RunnerLock:
    """The runner lock of ``db``, held from :meth:`acquire` (or ``with``) until :meth:`release`."""

    def __init__(self, db: Path) -> None:
        self.db = db
        self.path = lock_path(db)
        self._fd: int | None = None
        #: The holder named by a lock file found unlocked (its runner died without releasing).
        self.taken_over: str | None = None

    def acquire(self) -> RunnerLock:
        """Take the lock or raise :class:`RunnerBusy` naming the holder; :class:`StoreError` if the
        folder cannot hold the lock file (read-only)."""
        while self._fd is None:
            try:
                fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
            except OSError as exc:
                raise StoreError(
                    f"{self.db}: cannot take the runner lock {self.path.name} ({exc.strerror}); "
                    "run and resume write the database, which needs a writable folder"
                ) from None
            try:
                current = _lock_current(fd, self.path)
            except BlockingIOError:
                holder = _describe(_read(fd))
                os.close(fd)
                raise RunnerBusy(
                    f"{self.db}: another runner is playing into this database ({holder}); "
                    "wait for it to finish or stop it (read-only commands work meanwhile)"
                ) from None
            if not current:  # released and removed, or replaced, while we opened it: retry
                os.close(fd)
                continue
            previous = _read(fd)
            if previous:
                self.taken_over = _describe(previous)
            _write(fd)
            self._fd = fd
        return self

    def check(self) -> None:
        """Raise :class:`RunnerLockLost` if the lock file was removed or replaced since
        :meth:`acquire` (another runner may then hold a lock of its own); nothing while held."""
        if self._fd is not None and not _same_file(self._fd, self.path):
            raise RunnerLockLost(
                f"{self.db}: the runner lock file {self.path.name} was removed or replaced while "
                "this runner held it, so another runner may be playing into this database; this "
                "one stopped (every stored game is whole). Once no other runner plays: "
                f"arena tournament resume --db {self.db}"
            )

    def release(self) -> None:
        """Remove the lock file (unless it is no longer this lock's) and release the lock;
        idempotent."""
        if self._fd is None:
            return
        try:
            if _same_file(self._fd, self.path):
                self.path.unlink(missing_ok=True)
        finally:
            os.close(self._fd)
            self._fd = None

    def __enter__(self) -> RunnerLock:
        return self.acquire()

    def __exit__(
        self,
        kind: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.release()


def _lock_current(fd: int, path: Path) -> bool:
    """Lock the open file ``fd`` without waiting (:class:`BlockingIOError` if another process
    holds it) and say whether ``path`` still names it: a lock on a file removed or replaced since
    it was opened excludes nobody, so the caller closes it and opens ``path`` again."""
    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    return _same_file(fd, path)


def _same_file(fd: int, path: Path) -> bool:
    try:
        now = os.stat(path)
    except FileNotFoundError:
        return False
    mine = os.fstat(fd)
    return (mine.st_dev, mine.st_ino) == (now.st_dev, now.st_ino)


def _read(fd: int) -> dict[str, object]:
    os.lseek(fd, 0, os.SEEK_SET)
    data = os.read(fd, 4096)
    try:
        holder = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return {}
    return holder if isinstance(holder, dict) else {}


def _write(fd: int) -> None:
    holder = {"pid": os.getpid(), "host": socket.gethostname(), "since": time.time()}
    os.ftruncate(fd, 0)
    os.lseek(fd, 0, os.SEEK_SET)
    os.write(fd, json.dumps(holder).encode())
    os.fsync(fd)


def _describe(holder: dict[str, object]) -> str:
    """``pid 123 on host, since 2026-12-01 02:00:15 UTC`` (what is known of it)."""
    if not holder:
        return "holder unknown"
    since = holder.get("since")
    when = (
        time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime(since))
        if isinstance(since, (int, float))
        else "an unknown time"
    )
    return f"pid {holder.get('pid', '?')} on {holder.get('host', '?')}, since {when}"
