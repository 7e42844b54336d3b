"""Before a tournament plays: does every bot start and greet at all?

A bot that cannot start (a missing script, a broken interpreter) would otherwise forfeit every one
of its games as a start fault, stored for good. Each bot is started once, without a match (it
meets no deal), and closed.
"""

from __future__ import annotations

import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path

from arena import __version__
from arena.errors import ArenaError
from arena.handle import BotHandle, close_all
from arena.tournament.config import BotEntry
from protocols.transport import Hub

#: Bots started at once by :func:`start_failures`.
BATCH = 8


def start_failures(entries: Sequence[BotEntry]) -> dict[str, str]:
    """Each bot of ``entries`` that cannot be resolved, started or greet, by name, with why."""
    failures: dict[str, str] = {}
    with (
        Hub(server=f"arena {__version__}") as hub,
        tempfile.TemporaryDirectory(prefix="arena-logs-") as logs,
    ):
        for first in range(0, len(entries), BATCH):
            specs = []
            for entry in entries[first : first + BATCH]:
                try:
                    specs.append(entry.spec())
                except ArenaError as exc:
                    failures[entry.name] = str(exc)
            handles = BotHandle.launch_all(specs, hub, Path(logs))
            try:
                for handle in handles:
                    if handle.failure is not None:
                        failures[handle.name] = handle.failure
            finally:
                close_all(handles)
    return failures


def start_refusal(failures: Mapping[str, str]) -> str:
    """One line naming each bot of ``failures`` (from :func:`start_failures`) and why it cannot start."""
    return "; ".join(f"bot {name!r} cannot start: {_one_line(why)}" for name, why in failures.items())


def _one_line(text: str) -> str:
    """``text`` (a start failure, with the end of a bot's output) on one line."""
    return " ".join(line.strip() for line in text.splitlines() if line.strip())
