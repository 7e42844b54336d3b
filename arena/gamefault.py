"""Faults of a game's own code, told from Arena's: an exception whose innermost frame outside the
standard library is not in Arena's packages was raised by the game (its engine, built-in or
installed), and is reported in one line with where it was raised, never as a traceback."""

from __future__ import annotations

import sysconfig
import traceback
from pathlib import Path

from arena.errors import ArenaError

#: Folders of Arena's own code: an exception raised there is a fault of Arena, not of a game.
ARENA_CODE = tuple(str(Path(__file__).resolve().parents[1] / package) + "/"
                   for package in ("arena", "protocols"))
#: The standard library's folder: its frames are skipped when telling whose code raised.
STDLIB = str(Path(sysconfig.get_paths()["stdlib"]).resolve()) + "/"
#: Where installed packages go, which may lie inside :data:`STDLIB`: their frames are not skipped.
INSTALLED = tuple(str(Path(sysconfig.get_paths()[key]).resolve()) + "/" for key in ("purelib", "platlib"))


class GameFailure(ArenaError):
    """The game's own code raised while a match was played: the match cannot go on."""


def failure_text(exc: BaseException) -> str:
    """What went wrong, in one line: an assertion's message, or what the game raised and where."""
    if isinstance(exc, AssertionError):
        return str(exc) or "an assertion failed"
    frames = traceback.extract_tb(exc.__traceback__)
    where = f" (at {frames[-1].filename}:{frames[-1].lineno})" if frames else ""
    return f"raised {type(exc).__name__}: {exc}{where}"


def raised_by_game(exc: BaseException) -> bool:
    """Whether ``exc`` was raised by code outside Arena's packages: its innermost frame that is not
    the standard library's lies elsewhere."""
    for frame in reversed(traceback.extract_tb(exc.__traceback__)):
        filename = str(Path(frame.filename).resolve())
        if filename.startswith(STDLIB) and not filename.startswith(INSTALLED):
            continue
        return not filename.startswith(ARENA_CODE)
    return False
