"""The runner's heartbeat in the live folder: how the live page tells a stopped runner apart from
a pause between games.

While a live folder exists (someone serves the live page), the runner of a tournament keeps
``runner.json`` in it fresh: its process id, host, the start time of that process and when it
last beat. :func:`runner_status` reads it: a runner whose process is gone (killed, crashed, or
ended without a word) is stopped, one whose beat is old is not responding, and no file at all
means no runner is playing.
"""

from __future__ import annotations

import json
import os
import socket
import threading
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

#: The heartbeat's file name in the live folder.
HEARTBEAT = "runner.json"

#: Seconds between two writes of the heartbeat (a beat in between changes nothing on disk).
EVERY = 1.0

#: Seconds without a beat after which a live runner is reported as not responding.
STALE = 30.0


def _process_start(pid: int) -> str | None:
    """The start time of process ``pid`` in clock ticks since boot (``/proc``), so that a reused
    process id is not taken for the runner; ``None`` where unknown."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text(encoding="ascii")
    except OSError:
        return None
    return stat.rsplit(")", 1)[1].split()[19]


#: Heartbeats of this process that have written their file and not stopped yet, by file (a league
#: plays several tables at once, each with its own): the file is removed when the last one stops.
_OPEN: Counter[Path] = Counter()
_OPEN_LOCK = threading.Lock()


class Heartbeat:
    """The heartbeat of this process as the runner of ``tournament``, written into ``folder``
    only while the folder exists. :meth:`beat` often (it writes at most every :data:`EVERY`
    seconds); :meth:`stop` when the run ends, however it ends. Several may beat at once in one
    process (from several threads): the file stays until the last one stops."""

    def __init__(self, folder: Path, tournament: str) -> None:
        self.path = folder / HEARTBEAT
        self.tournament = tournament
        self._written = float("-inf")
        self._open = False  # counted in _OPEN

    def beat(self) -> None:
        """Refresh the file if a beat is due and the live folder exists; never raises (a full
        disk must not stop the run)."""
        now = time.time()
        if now - self._written < EVERY or not self.path.parent.is_dir():
            return
        pid = os.getpid()
        about = {"pid": pid, "host": socket.gethostname(), "start": _process_start(pid),
                 "tournament": self.tournament, "beat": now}
        temporary = self.path.with_name(f".{HEARTBEAT}.{pid}.{threading.get_ident()}")
        try:
            fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                handle.write(json.dumps(about))
            os.replace(temporary, self.path)
        except OSError:
            return
        self._written = now
        with _OPEN_LOCK:
            if not self._open:
                self._open = True
                _OPEN[self.path] += 1

    def stop(self) -> None:
        """Remove the file if it is this process's (the run is over or stopped) and no other
        heartbeat of this process is still beating into it."""
        with _OPEN_LOCK:
            if self._open:
                self._open = False
                _OPEN[self.path] -= 1
            if _OPEN[self.path] > 0:
                return
        try:
            if json.loads(self.path.read_text(encoding="utf-8")).get("pid") == os.getpid():
                self.path.unlink()
        except (OSError, ValueError, AttributeError):
            pass


@dataclass(frozen=True, slots=True)
class RunnerStatus:
    """What the live folder says of the runner: ``state`` is ``running`` (its process is alive and
    beating), ``stopped`` (no runner, or its process is gone) or ``unresponsive`` (alive, but no
    beat for ``quiet`` seconds); ``pid`` when a heartbeat was found."""

    state: str
    pid: int | None = None
    quiet: float = 0.0


def runner_status(folder: Path, now: float | None = None) -> RunnerStatus:
    """The runner's status from ``folder``'s heartbeat (see :class:`RunnerStatus`)."""
    try:
        about = json.loads((folder / HEARTBEAT).read_text(encoding="utf-8"))
        pid, beat = int(about["pid"]), float(about["beat"])
    except (OSError, ValueError, TypeError, KeyError):
        return RunnerStatus("stopped")
    quiet = max(0.0, (time.time() if now is None else now) - beat)
    if about.get("host") == socket.gethostname() and not _alive(pid, about.get("start")):
        return RunnerStatus("stopped", pid, quiet)
    return RunnerStatus("unresponsive" if quiet > STALE else "running", pid, quiet)


def _alive(pid: int, start: object) -> bool:
    """Whether process ``pid`` exists and, where known, is the one that started at ``start``."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass  # another user's process: it exists
    return start is None or _process_start(pid) in (None, start)
