"""The ``arena`` Typer app: joins the command modules; holds ``--version`` and ``--verbose``."""

from __future__ import annotations

import logging
import signal
from typing import Annotated

import typer

from arena import __version__
from arena.cli import previous_sigint
from arena.cli.bot import bot_app
from arena.cli.common import say
from arena.cli.doctor import doctor_command
from arena.cli.gamekit import game_app
from arena.cli.games import show_command
from arena.cli.headtohead import head_to_head_command
from arena.cli.leaderboard import leaderboard_command, publish_command
from arena.cli.league import league_app
from arena.cli.play import play_command
from arena.cli.results import games_app, replay_command
from arena.cli.serve import serve_command
from arena.cli.tournament import tournament_app
from arena.sandbox.probe import INSTALL_HINT, bwrap_path
from arena.inert import log_inertly

app = typer.Typer(
    name="arena",
    help="Run bot competitions for multiplayer board and card games.\n\n"
    "\b\nExamples:\n"
    "  arena games\n"
    "  arena play GAME --bot random --bot greedy --bot ismcts\n"
    "  arena tournament run",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    add_completion=False,
)

#: The line every command prints first on stderr when bubblewrap is missing (on one line, unwrapped).
MISSING_SANDBOX_NOTE = f"note: bubblewrap is missing, so untrusted bots cannot run sandboxed; {INSTALL_HINT}"


def _version(value: bool) -> None:
    if value:
        print(f"arena {__version__}")
        raise typer.Exit()


@app.callback()
def root(
    version: Annotated[
        bool,
        typer.Option("--version", callback=_version, is_eager=True, help="Print the version and exit."),
    ] = False,
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help="Log debug detail to stderr.")] = False,
) -> None:
    """Run bot competitions for multiplayer board and card games."""
    log_inertly(logging.DEBUG if verbose else logging.WARNING)
    if bwrap_path() is None:
        say(MISSING_SANDBOX_NOTE, err=True)


games_app.command("show")(show_command)
app.add_typer(games_app, name="games")
app.add_typer(game_app, name="game")
app.command("replay")(replay_command)
app.add_typer(tournament_app, name="tournament")
app.add_typer(league_app, name="league")
app.command("leaderboard")(leaderboard_command)
app.command("publish")(publish_command)
app.command("serve")(serve_command)
app.command("play")(play_command)
app.command("test")(head_to_head_command)
app.add_typer(bot_app, name="bot")
app.command("doctor")(doctor_command)


def main() -> None:
    """Console-script entry point. Ctrl-C while starting (see :mod:`arena.cli`) or outside a
    command's own handling stops quietly with status 130."""
    try:
        app()
    except KeyboardInterrupt:
        raise SystemExit(130) from None


if previous_sigint is not None:  # the command line is imported: Ctrl-C as before
    signal.signal(signal.SIGINT, previous_sigint)
