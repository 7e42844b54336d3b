"""Helpers every command uses: user-facing errors and the shared consoles."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import typer
from rich.console import Console
from rich.markup import escape

from arena.errors import ArenaError
from engine.core import EngineError
from leaderboards.errors import LeaderboardError

console = Console()
err_console = Console(stderr=True)

#: Exit status for a user's bad input (arguments, config files, unknown names).
USAGE_ERROR = 2


def fail(message: str, code: int = USAGE_ERROR) -> typer.Exit:
    """Print ``message`` (plain text, shown verbatim) on stderr and return the ``typer.Exit`` to raise."""
    err_console.print(f"[bold red]error:[/] {escape(message)}", highlight=False)
    return typer.Exit(code)


@contextmanager
def user_errors() -> Iterator[None]:
    """Turn the domain errors a user can cause into a message on stderr and exit status 2."""
    try:
        yield
    except (ArenaError, EngineError, LeaderboardError) as exc:
        raise fail(str(exc)) from None
