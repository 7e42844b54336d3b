"""A live file per game in play: what the viewer reads to follow a game decision by decision.

A file is JSON lines: a header (the game's id, game, version, variant, knobs, seed, bots) and then
one line per applied decision ``[seat, action, milliseconds, fallback]``. It lives in the live
folder (owner-only: it holds the deal's seed, like the database) while the game is played and is
removed when the game ends; the stored game then takes its place.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import IO, Any

from arena.record import DecisionRecord
from engine.core import MatchConfig, State

#: File name ending of a live file.
SUFFIX = ".live.jsonl"


def live_folder(db: Path) -> Path:
    """The live folder of the database at ``db``: ``<db>.live`` beside it."""
    return db.with_name(db.name + ".live")


def make_live_folder(db: Path) -> Path:
    """Create the live folder of ``db`` (owner-only) if missing, and return it."""
    folder = live_folder(db)
    folder.mkdir(mode=0o700, exist_ok=True)
    return folder


class LiveFile:
    """The live file of one game; use as a context manager (the file is removed on exit)."""

    def __init__(self, path: Path, handle: IO[str]) -> None:
        self.path = path
        self._handle: IO[str] | None = handle

    def add(self, state: State, decision: DecisionRecord) -> None:
        """Append ``decision`` (a referee's decision observer; ``state`` is not needed)."""
        if self._handle is None:
            return
        line = [decision.seat, decision.action, round(decision.elapsed * 1000, 1), decision.fallback]
        try:
            self._handle.write(json.dumps(line) + "\n")
            self._handle.flush()
        except OSError:
            self.close()  # a full disk must not stop the game: the live view just loses it

    def close(self) -> None:
        """Stop writing and remove the file (idempotent)."""
        if self._handle is not None:
            self._handle.close()
            self._handle = None
            self.path.unlink(missing_ok=True)

    def __enter__(self) -> LiveFile:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()


def open_live(
    folder: str | None, game_id: str, config: MatchConfig, seed: int, bots: Sequence[str]
) -> LiveFile | None:
    """A live file for game ``game_id`` in ``folder``, or ``None`` when nobody watches (no folder:
    one ``stat``, nothing written) or the file cannot be made."""
    if folder is None or not os.path.isdir(folder):
        return None
    path = Path(folder) / f"{game_id}{SUFFIX}"
    header = {
        "id": game_id, "game": config.game, "version": config.version, "variant": config.variant,
        "knobs": dict(config.knobs), "seed": str(seed), "bots": list(bots),
    }
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        handle = os.fdopen(fd, "w", encoding="utf-8")
        handle.write(json.dumps(header) + "\n")
        handle.flush()
    except OSError:
        return None
    return LiveFile(path, handle)


@dataclass(frozen=True, slots=True)
class LiveGame:
    """A live file as read: its header and the decisions so far ``(seat, action, ms, fallback)``."""

    header: Mapping[str, Any]
    decisions: tuple[tuple[int, int, float, bool], ...]


def read_live(path: Path) -> LiveGame | None:
    """The live file at ``path``, its last line ignored while half written; ``None`` if it is gone
    or not a live file."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError:
        return None
    lines = text.split("\n")[:-1]  # only whole lines
    if not lines:
        return None
    try:
        header = json.loads(lines[0])
        decisions = tuple((int(s), int(a), float(ms), bool(f)) for s, a, ms, f in map(json.loads, lines[1:]))
    except (ValueError, TypeError):
        return None
    if not isinstance(header, dict) or not {"id", "game", "version", "seed", "bots"} <= header.keys():
        return None
    return LiveGame(header, decisions)
