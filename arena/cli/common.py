"""Helpers every command uses: user-facing errors and the shared consoles."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import typer
from rich.console import Console
from rich.text import Text

from arena.errors import ArenaError
from arena.gamefault import GameFailure
from arena.inert import terminal
from engine.core import EngineError
from leaderboards.errors import LeaderboardError

console = Console()
err_console = Console(stderr=True)

#: Exit status for a user's bad input (arguments, config files, unknown names).
USAGE_ERROR = 2


#: The largest seed a command takes: the largest whole number a TOML config can hold.
SEED_MAX = 2**63 - 1


def fail(message: str, code: int = USAGE_ERROR) -> typer.Exit:
    """Print ``message`` (plain text, shown verbatim but inert: see :func:`arena.inert.terminal`) on
    stderr and return the ``typer.Exit`` to raise. Lines are never wrapped except by a terminal,
    so a log keeps each message on one line."""
    err_console.print(
        Text.assemble(("error:", "bold red"), " ", terminal(message, lines=True)), soft_wrap=True
    )
    return typer.Exit(code)


def say(message: str, err: bool = False) -> None:
    """Print plain, inert ``message`` on stdout (stderr with ``err``), unwrapped like :func:`fail`."""
    (err_console if err else console).print(
        Text(terminal(message, lines=True)), soft_wrap=True, highlight=False
    )


def inert(text: str) -> Text:
    """``text`` (a bot's or anyone's) as Rich text that no markup, control or escape sequence in it
    can drive: see :func:`arena.inert.terminal`."""
    return Text(terminal(text))


@contextmanager
def user_errors() -> Iterator[None]:
    """Turn the domain errors a user can cause into a message on stderr and exit status 2 (1 where
    a game's own code failed)."""
    try:
        yield
    except GameFailure as exc:
        raise fail(str(exc), code=1) from None
    except (ArenaError, EngineError, LeaderboardError) as exc:
        raise fail(str(exc)) from None
