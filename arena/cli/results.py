"""Stored results: ``arena games list`` and ``arena replay GAME_ID``.

``arena games`` alone still lists the registered games (what can be played); ``arena games list``
lists what was played.
"""

from __future__ import annotations

import enum
import json
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.console import JustifyMethod, OverflowMethod
from rich.table import Table
from rich.text import Text

from arena.cli.common import console, fail, inert, user_errors
from arena.cli.games import games_command
from arena.record import FaultKind
from arena.store.db import Store, StoredGame
from arena.tournament.replay import ReplayStep, replay_steps
from leaderboards.narrow import NarrowingTable, left_out_note

#: The results database when ``--db`` is not given.
DEFAULT_DB = Path("arena.db")

DbOpt = Annotated[Path, typer.Option("--db", help="The results database (SQLite).")]
TournamentOpt = Annotated[
    str | None, typer.Option("--tournament", "-t", help="Only this tournament.")
]

games_app = typer.Typer(
    help="Games: what can be played, and what was played.\n\n"
    "\b\nExamples:\n"
    "  arena games\n"
    "  arena games show GAME --players 4\n"
    "  arena games list --db league.db",
)


class FaultFilter(str, enum.Enum):
    """A fault kind to filter by, or ``any`` fault or forfeit."""

    ANY = "any"
    TIMEOUT = FaultKind.TIMEOUT.value
    CRASH = FaultKind.CRASH.value
    MALFORMED = FaultKind.MALFORMED.value
    ILLEGAL = FaultKind.ILLEGAL.value
    START = FaultKind.START.value


@games_app.callback(invoke_without_command=True)
def games_root(
    ctx: typer.Context,
    as_json: Annotated[bool, typer.Option("--json", help="Print plain JSON instead of a table.")] = False,
) -> None:
    """List every registered game (``arena games``), or stored games (``arena games list``)."""
    if ctx.invoked_subcommand is None:
        games_command(as_json)


def open_store(db: Path, must_exist: bool = True) -> Store:
    """Open the results database; a missing file or a bad one exits 2 with a message (as does an
    empty file where the database must exist: it is left as it is, not made a store)."""
    if must_exist and not db.exists():
        raise fail(f"{db}: no results database here (give --db PATH)")
    if must_exist and db.is_file() and db.stat().st_size == 0:
        raise fail(f"{db}: an empty file, not a results database (give --db PATH)")
    with user_errors():
        return Store(db)


@games_app.command("list")
def list_command(
    db: DbOpt = DEFAULT_DB,
    tournament: TournamentOpt = None,
    bot: Annotated[str | None, typer.Option("--bot", help="Only games this bot played.")] = None,
    fault: Annotated[
        FaultFilter | None, typer.Option("--fault", help="Only games with this fault kind (or any).")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON lines.")] = False,
) -> None:
    """List stored games, oldest first: id, seats, scores, ranks and faults.

    \b
    Examples:
      arena games list --db league.db --bot random --fault timeout
    """
    with open_store(db) as store, user_errors():
        kind = None if fault in (None, FaultFilter.ANY) else FaultKind(fault.value)
        found = store.games(tournament, bot=bot, fault=kind, flagged=fault is FaultFilter.ANY)
    if as_json:
        for game in found:
            print(json.dumps(_plain(game)))
        return
    console.print(NarrowingTable(lambda left_out: _games_table(found, left_out), ("seed", "tournament", "seat")))
    console.print(f"{len(found)} games")


def _games_table(found: list[StoredGame], left_out: tuple[str, ...]) -> Table:
    """One row per game: its id, then a line per seat (seat, bot, score, place, its faults), the
    tournament and the seed, less the columns ``left_out``."""
    table = Table(caption=left_out_note(left_out, "--json") if left_out else None)
    columns = [column for column in _GAME_COLUMNS if column[0] not in left_out]
    for name, justify, overflow in columns:
        table.add_column(name, justify=justify, overflow=overflow, no_wrap=overflow == "ellipsis")
    for game in found:
        record = game.record
        seats = range(len(record.bots))
        cells: dict[str, str | Text] = {
            "id": game.placement.game_id,
            "seat": "\n".join(map(str, seats)),
            "bot": Text("\n").join(inert(bot) for bot in record.bots),
            "score": "\n".join(map(str, record.scores)),
            "rank": "\n".join(map(str, record.ranks)),
            "faults": "\n".join(
                ",".join(f.kind.value for f in record.faults if f.seat == seat) for seat in seats
            ),
            "tournament": inert(game.tournament),
            "seed": str(record.seed),
        }
        table.add_row(*(cells[name] for name, _, _ in columns))
    return table


#: The columns of ``games list``: name, justification, overflow ("ellipsis": never wrapped).
_GAME_COLUMNS: tuple[tuple[str, JustifyMethod, OverflowMethod], ...] = (
    ("id", "left", "ellipsis"),
    ("seat", "right", "ellipsis"),
    ("bot", "left", "fold"),
    ("score", "right", "ellipsis"),
    ("rank", "right", "ellipsis"),
    ("faults", "left", "fold"),
    ("tournament", "left", "fold"),
    ("seed", "left", "fold"),
)


def _plain(game: StoredGame) -> dict[str, object]:
    record = game.record
    return {
        "id": game.placement.game_id,
        "tournament": game.tournament,
        "seed": record.seed,
        "bots": list(record.bots),
        "scores": list(record.scores),
        "ranks": list(record.ranks),
        "faults": [[f.seat, f.kind.value, f.ply, f.detail] for f in record.faults],
        "forfeited": list(record.forfeited),
    }


def replay_command(
    game_id: Annotated[str, typer.Argument(help="A stored game's id (see arena games list).")],
    db: DbOpt = DEFAULT_DB,
    tournament: TournamentOpt = None,
    seat: Annotated[
        int | None, typer.Option("--seat", help="Show the game as this seat saw it.")
    ] = None,
    step: Annotated[
        bool | None, typer.Option("--step/--no-step", help="Wait for Enter after each decision.")
    ] = None,
) -> None:
    """Step through a stored game, rebuilt from its seed and decisions.

    Omniscient by default; with --seat N only what seat N saw. Waits for Enter between decisions on
    a terminal (--no-step prints it all).

    \b
    Examples:
      arena replay 0cc948490e87 --db league.db --seat 1
    """
    with open_store(db) as store, user_errors():
        stored = store.game(game_id, tournament)
    interactive = sys.stdin.isatty() if step is None else step
    with user_errors():
        for item in replay_steps(stored.record, seat):
            _show(item)
            if interactive and not item.final:
                try:
                    input("-- Enter for the next decision, Ctrl-D to stop --")
                except EOFError:
                    return


def _show(item: ReplayStep) -> None:
    console.rule(inert(item.title), style="dim")
    for line in item.happened:
        console.print(Text.assemble("  ", inert(line)))
    console.print(item.picture, highlight=False, markup=False)
