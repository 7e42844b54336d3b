"""Log records of local worker processes, shown by the runner.

A worker's records (a bot lost, a process killed) travel to the runner over the worker's pipe as
:class:`LogLine` values and are logged there, so they reach the runner's one log handler and are
printed above its live view (see :func:`arena.inert.log_inertly`) instead of being written into the
middle of it by another process.
"""

from __future__ import annotations

import logging
import sys
import threading
from dataclasses import dataclass
from multiprocessing.connection import Connection


@dataclass(frozen=True, slots=True)
class LogLine:
    """One log record of a worker: its level, logger name and message (traceback included)."""

    level: int
    name: str
    message: str

    def emit(self) -> None:
        """Log it in this process, under the same logger name and level."""
        logging.getLogger(self.name).log(self.level, "%s", self.message)


class WorkerPipe:
    """A worker's end of its pipe to the runner, safe to send on from several threads."""

    def __init__(self, connection: Connection) -> None:
        self.connection = connection
        self._lock = threading.Lock()

    def send(self, value: object) -> None:
        """Send ``value`` whole: no other thread's value is written into the middle of it."""
        with self._lock:
            self.connection.send(value)


class PipeLogHandler(logging.Handler):
    """Sends each record to the runner as a :class:`LogLine`; once the runner is gone, writes it to
    stderr instead."""

    def __init__(self, pipe: WorkerPipe) -> None:
        super().__init__()
        self.pipe = pipe

    def emit(self, record: logging.LogRecord) -> None:
        try:
            message = record.getMessage()
            if record.exc_info:
                message += "\n" + logging.Formatter().formatException(record.exc_info)
            line = LogLine(record.levelno, record.name, message)
        except Exception:  # noqa: BLE001 (logging's contract: report, never raise)
            self.handleError(record)
            return
        try:
            self.pipe.send(line)
        except OSError:
            sys.stderr.write(f"{line.name} {logging.getLevelName(line.level)} {line.message}\n")


def forward_logs(pipe: WorkerPipe, level: int) -> None:
    """Send this process's records of ``level`` and above to the runner over ``pipe``."""
    handler = PipeLogHandler(pipe)
    logging.basicConfig(level=level, handlers=[handler])
