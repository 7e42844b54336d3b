"""``arena bot check``: conformance of a bot with the protocol, for bot authors."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table
from rich.text import Text

from arena.cli.common import SEED_MAX, console, err_console, inert, user_errors
from arena.cli.play import parse_knobs
from arena.clock import CLOCK_HELP, ClockRule, TimeControl
from arena.conformance import CheckReport, check_bot
from arena.manifest import resolve_bot
from engine.registry import get_game

bot_app = typer.Typer(
    help="Bots: check that a bot speaks the protocol.\n\n"
    "\b\nExamples:\n"
    '  arena bot check "python3 mybot.py" --game GAME',
    no_args_is_help=True,
)

#: Exit status of ``arena bot check`` when the bot breaks the protocol.
BOT_FAILED = 1


@bot_app.command("check")
def check_command(
    bot: Annotated[str, typer.Argument(help="A built-in name, a command line, or a manifest .toml.")],
    game: Annotated[str, typer.Option("--game", "-g", help="The game to check with.")],
    variant: Annotated[str | None, typer.Option("--variant", help="The game variant.")] = None,
    knob: Annotated[list[str], typer.Option("--knob", "-k", help="A rules knob, NAME=VALUE.")] = [],  # noqa: B006
    players: Annotated[int | None, typer.Option("--players", help="Seats (the game's minimum by default).")] = None,
    matches: Annotated[int, typer.Option("--matches", min=1, help="Matches to play.")] = 2,
    seed: Annotated[int, typer.Option("--seed", min=0, max=SEED_MAX, help="Seed of the first match.")] = 1,
    tc: Annotated[str, typer.Option("--tc", help="Time control, e.g. 1s or 200ms+50ms/5s.")] = "1s",
    clock: Annotated[str, typer.Option("--clock", help=CLOCK_HELP)] = "auto",
    logs: Annotated[Path | None, typer.Option("--logs", help="Keep the bot's output in this folder.")] = None,
) -> None:
    """Check a bot: handshake, ping, several matches (start, decisions, end) in one process, bye.

    Prints reply latency p50/p99 (the time each reply was charged: CPU time under the CPU clock,
    elapsed time under the wall clock), a warning if the p99 is over half the move time, and every
    breach of the protocol with what to fix (a reply over the move time plus the bank is one);
    exits 1 if there is any.

    \b
    Examples:
      arena bot check "python3 mybot.py" --game GAME
    """
    with user_errors():
        spec = resolve_bot(bot)
        chosen = get_game(game)
        seats = chosen.min_players if players is None else players
        config = chosen.configure(seats, variant, parse_knobs(knob))
        control = TimeControl.parse(tc)
        rule = ClockRule(clock)
        report = check_bot(spec, chosen, config, seed=seed, matches=matches, time_control=control,
                           clock=rule, log_dir=logs)
    _print(report)
    if not report.passed:
        raise typer.Exit(BOT_FAILED)


def _print(report: CheckReport) -> None:
    p50, p99 = report.percentile(50), report.percentile(99)
    table = Table(title=Text.assemble("bot check: ", inert(report.bot)), show_header=False)
    table.add_row("copies (one per seat)", str(report.copies))
    table.add_row("matches played", str(report.matches))
    table.add_row("decisions answered", str(report.decisions))
    table.add_row("clock", report.clock or "-")
    table.add_row("reply p50", "-" if p50 is None else f"{p50 * 1000:.2f} ms")
    table.add_row("reply p99", "-" if p99 is None else f"{p99 * 1000:.2f} ms")
    console.print(table)
    warning = report.margin_warning()
    if warning is not None:
        err_console.print(Text.assemble(("warning:", "bold yellow"), " ", warning))
    for breach in report.breaches:
        what = Text("\n  ").join(inert(line) for line in breach.what.splitlines())
        err_console.print(Text.assemble(
            ("breach:", "bold red"), " ", what, "\n  ", ("fix:", "bold"), " ", breach.fix,
        ))
    if report.passed:
        console.print("[bold green]passed[/]: the bot follows the protocol")
    elif not report.breaches:
        err_console.print("[bold red]failed:[/] the bot answered no decision")
