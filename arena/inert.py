"""Text a bot supplies, made inert for people to read: in a terminal, in logs, in Markdown.

The text functions live in :mod:`leaderboards.inert` (the published leaderboard needs them and
imports nothing of ``arena``) and are re-exported here; this module adds inert logging: a log
message quoting a bot's text cannot drive the console.
"""

from __future__ import annotations

import logging
import sys

from leaderboards.inert import html_templates, markdown, terminal

__all__ = ["InertFormatter", "StderrHandler", "html_templates", "log_inertly", "markdown", "terminal"]


class InertFormatter(logging.Formatter):
    """A log formatter whose messages are :func:`terminal` text on one line (tracebacks keep their
    lines), so a bot's text quoted in a log message cannot drive the console."""

    def formatMessage(self, record: logging.LogRecord) -> str:  # noqa: N802 (logging's name)
        record.message = terminal(record.message)
        return super().formatMessage(record)


class StderrHandler(logging.Handler):
    """Writes each record, one line, to ``sys.stderr`` as it is when the record comes (not when the
    handler was made): a live display that redirects stderr, as Rich's ``Live`` and ``Progress``
    do on a terminal, then prints the record above itself instead of being overwritten by it."""

    def emit(self, record: logging.LogRecord) -> None:
        try:
            stream = sys.stderr
            stream.write(self.format(record) + "\n")
            stream.flush()
        except Exception:  # noqa: BLE001 (logging's contract: report, never raise)
            self.handleError(record)


def log_inertly(level: int) -> None:
    """Send this process's log records of ``level`` and above to stderr (:class:`StderrHandler`),
    through an :class:`InertFormatter` (a no-op if logging is already set up)."""
    handler = StderrHandler()
    handler.setFormatter(InertFormatter("%(asctime)s %(name)s %(levelname)s %(message)s"))
    logging.basicConfig(level=level, handlers=[handler])
