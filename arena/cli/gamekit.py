"""``arena game``: the game author's kit: ``new`` (scaffold a game package), ``check`` (the engine
contract as a command) and ``playthrough`` (a whole seeded game written out)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table
from rich.text import Text

from arena.cli.common import SEED_MAX, console, fail, say, user_errors
from arena.cli.play import parse_knobs
from arena.errors import ArenaError
from arena.gamefault import failure_text
from arena.gamekit.checks import CheckReport, run_checks
from arena.gamekit.playthrough import (
    difference,
    file_name,
    playthrough_dir,
    playthrough_text,
    stored_playthroughs,
)
from arena.gamekit.scaffold import scaffold
from engine.core import EngineError, Game
from engine.registry import get_game, origin

game_app = typer.Typer(
    help="Write a game: scaffold a package, check it against the engine contract, record playthroughs.\n\n"
    "\b\nExamples:\n"
    "  arena game new high_card --dir ~/games\n"
    "  arena game check GAME --seeds 5\n"
    "  arena game playthrough GAME --seed 1 --players 4 -o GAME.txt",
    no_args_is_help=True,
)

#: Diff lines shown per stored playthrough that no longer matches.
DIFF_LINES = 60


def _game(spec: str) -> Game:
    with user_errors():
        return get_game(spec)


@game_app.command("new")
def new_command(
    name: Annotated[str, typer.Argument(help="The game's name: a Python module name, e.g. high_card.")],
    directory: Annotated[Path, typer.Option("--dir", help="Where to create the package's folder.")] = Path("."),
) -> None:
    """Scaffold an installable game package NAME: a small, real card game to edit, its tests and README.

    Then install it where Arena is installed (pip install -e DIR/NAME) and check it.

    \b
    Examples:
      arena game new high_card --dir ~/games
      arena game check high_card
      arena play high_card --bot random --bot random --bot random
    """
    with user_errors():
        made = scaffold(name, directory)
    say(f"created {made}; next: pip install -e {made} && arena game check {name}")


def _print_report(report: CheckReport, played: int, stale: list[tuple[str, str]], seconds: float) -> None:
    table = Table(title=f"{report.game}: {report.setups} setups, seeds {', '.join(map(str, report.seeds))}")
    table.add_column("check")
    table.add_column("result")
    table.add_column("seconds", justify="right")
    for name, spent in report.seconds.items():
        failed = sum(1 for f in report.failures if f.check == name)
        verdict = Text(f"{failed} setups failed", "bold red") if failed else Text("passed", "green")
        table.add_row(name, verdict, f"{spent:.2f}")
    if stale:
        table.add_row("stored playthroughs", Text(f"{len(stale)} of {played} differ", "bold red"), "")
    else:
        table.add_row("stored playthroughs", Text(f"{played} match", "green") if played else "none stored", "")
    console.print(table)
    for failure in report.failures:
        console.print(Text.assemble(("FAIL ", "bold red"), f"{failure.check} [{failure.setup}]: {failure.detail}"))
    for name, diff in stale:
        console.print(Text.assemble(("FAIL ", "bold red"), f"stored playthrough {name}:"))
        lines = diff.splitlines()
        console.print(Text("\n".join(lines[:DIFF_LINES])), highlight=False)
        if len(lines) > DIFF_LINES:
            console.print(f"... {len(lines) - DIFF_LINES} more diff lines")
    sizes = report.sizes
    console.print(f"largest observation {sizes.observation:,} bytes, largest event batch {sizes.events:,} bytes "
                  f"(msgpack); {report.playouts_per_second:,.1f} random playouts/s "
                  f"({report.decisions_per_second:,.0f} decisions/s); checked in {seconds:.1f} s")


@game_app.command("check")
def check_command(
    game: Annotated[str, typer.Argument(help="The game: a name, or name@version.")],
    seeds: Annotated[int, typer.Option("--seeds", min=1, help="Seeds per variant and player count.")] = 3,
) -> None:
    """Check a game against the engine contract, and replay its stored playthroughs.

    Every variant and player count: seeded random playouts with every invariant at every step,
    determinism, replay, clone independence, illegal actions refused, the hidden-information audit
    (determinize and sample_state), msgpack/JSON views and their size, error messages of bad setups;
    then the playout speed. Exits 1 on any failure.

    \b
    Examples:
      arena game check GAME --seeds 5
    """
    chosen = _game(game)
    started = time.perf_counter()
    report = run_checks(chosen, tuple(range(1, seeds + 1)))
    stored = stored_playthroughs(chosen)
    stale: list[tuple[str, str]] = []
    for path in stored:
        try:
            diff = difference(chosen, path)
        except (ValueError, OSError) as exc:
            diff = f"cannot be replayed: {exc}"
        except Exception as exc:  # noqa: BLE001 (whatever the game raises is a failure to report)
            diff = f"cannot be replayed: the game {failure_text(exc)}"
        if diff is not None:
            stale.append((path.name, diff))
    say(f"{chosen.key}: {origin(chosen)}")
    _print_report(report, len(stored), stale, time.perf_counter() - started)
    if not report.passed or stale:
        raise typer.Exit(1)


@game_app.command("playthrough")
def playthrough_command(
    game: Annotated[str, typer.Argument(help="The game: a name, or name@version.")],
    seed: Annotated[int, typer.Option("--seed", min=0, max=SEED_MAX, help="The deal, and the random policy's seed.")] = 1,
    players: Annotated[int | None, typer.Option("--players", help="Seats (default: the fewest allowed).")] = None,
    variant: Annotated[str | None, typer.Option("--variant", help="The variant (default: the game's first).")] = None,
    knob: Annotated[list[str], typer.Option("--knob", "-k", help="A rules knob, NAME=VALUE.")] = [],  # noqa: B006
    output: Annotated[Path | None, typer.Option("--output", "-o", help="Write to this file, not stdout.")] = None,
    save: Annotated[bool, typer.Option("--save", help="Store it with the game (what check replays).")] = False,
) -> None:
    """Write a whole seeded game as text: each decision with who decides, the legal actions by label,
    the choice of a seeded random policy, what every seat sees, and the final scores.

    With --save it goes into the game's playthroughs/ folder, and arena game check replays it.

    \b
    Examples:
      arena game playthrough GAME --seed 2 --players 5 --variant VARIANT -o GAME.txt
    """
    chosen = _game(game)
    with user_errors():
        config = chosen.configure(chosen.min_players if players is None else players, variant, parse_knobs(knob))
        try:
            text = playthrough_text(chosen, config, seed)
        except (ArenaError, EngineError):
            raise
        except Exception as exc:  # noqa: BLE001 (a fault of the game's code, reported in one line)
            raise fail(f"{chosen.key}: the game {failure_text(exc)}", code=1) from None
    if save:
        if output is not None:
            raise fail("give --save or --output, not both")
        output = playthrough_dir(chosen) / file_name(config, seed)
        output.parent.mkdir(exist_ok=True)
    if output is None:
        print(text, end="")
        return
    try:
        output.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise fail(f"{output}: {exc.strerror or exc}") from None
    say(f"wrote {output} ({text.count(chr(10))} lines)")
