"""A command line's stderr as the lines a test judges, apart from the documented note about a
missing bubblewrap."""

from __future__ import annotations

from arena.cli.app import MISSING_SANDBOX_NOTE
from arena.sandbox.probe import bwrap_path


def stderr_lines(stderr: str) -> list[str]:
    """``stderr.splitlines()`` less the note every command prints first when bubblewrap is missing:
    left out only when it is missing here too (the command inherits ``$ARENA_BWRAP``), so where
    bubblewrap is installed nothing is left out."""
    lines = stderr.splitlines()
    if bwrap_path() is None and lines[:1] == [MISSING_SANDBOX_NOTE]:
        return lines[1:]
    return lines
