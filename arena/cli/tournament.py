"""``arena tournament``: plan, run, resume and follow a tournament."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from arena.cli.common import console, user_errors
from arena.tournament.config import TournamentConfig, load_config
from arena.tournament.plan import make_plan
from arena.tournament.schedule import build_schedule

tournament_app = typer.Typer(
    help="Plan, run and resume tournaments (round-robins and gauntlets, played in duplicate).",
    no_args_is_help=True,
)

ConfigArg = Annotated[Path, typer.Argument(help="The tournament config (TOML).", show_default=False)]
Seed = Annotated[int | None, typer.Option("--seed", help="Master seed (overrides the config).")]
Deals = Annotated[int | None, typer.Option("--deals", help="Deals per table (overrides the config).")]
Concurrency = Annotated[
    int | None, typer.Option("--concurrency", "-j", help="Matches in parallel; 0: from the cores.")
]
TableSize = Annotated[int | None, typer.Option("--table-size", help="Bots per table.")]
TimeControlOpt = Annotated[
    str | None, typer.Option("--time-control", help="BANK+INC[/MOVE] in seconds, e.g. 60+0.5/2.")
]
Strikes = Annotated[int | None, typer.Option("--strikes", help="Faults before a seat is forfeited.")]
Trusted = Annotated[
    bool | None,
    typer.Option("--trusted/--untrusted", help="Trusted bots keep one process for every deal."),
]


def overrides(**given: Any) -> dict[str, Any]:
    """Config keys set on the command line (``None``: not given)."""
    return {key: value for key, value in given.items() if value is not None}


def read_config(path: Path, changes: dict[str, Any]) -> TournamentConfig:
    """Load the config with the command line's changes; user errors exit 2."""
    with user_errors():
        return load_config(path, changes)


@tournament_app.command("plan")
def plan_command(
    config_path: ConfigArg,
    seed: Seed = None,
    deals: Deals = None,
    concurrency: Concurrency = None,
    table_size: TableSize = None,
    time_control: TimeControlOpt = None,
    trusted: Trusted = None,
    show_games: Annotated[bool, typer.Option("--games", help="List every game.")] = False,
) -> None:
    """Print the schedule: tables, games, process generations and the longest it can take.

    Example: arena tournament plan examples/tournament.toml --games
    """
    config = read_config(
        config_path,
        overrides(
            seed=seed,
            deals=deals,
            concurrency=concurrency,
            table_size=table_size,
            time_control=time_control,
            trusted=trusted,
        ),
    )
    schedule = build_schedule(config)
    with user_errors():
        plan = make_plan(config, schedule)
    console.print(f"[bold]{config.name}[/]: {config.game}, {config.format.value}, "
                  f"{config.table_size} bots a table, time control {config.time_control}")
    console.print(f"tables {plan.tables}, deals per table {plan.deals}, games {plan.games}")
    restarts = "one process each (trusted)" if config.trusted else (
        f"{plan.generations} generations: each bot process meets every deal at most once"
    )
    console.print(f"bot processes: {restarts}")
    console.print(
        f"about {plan.decisions_per_game} decisions a game; at most "
        f"{plan.max_thinking_per_game:.1f} s thinking a game; "
        f"at most {_duration(plan.max_duration)} at concurrency {plan.concurrency}"
    )
    if show_games:
        table = Table("id", "gen", "table", "deal", "seed", "seats")
        for game in schedule:
            table.add_row(
                game.id,
                str(game.generation),
                str(game.table),
                str(game.deal),
                str(game.seed),
                ", ".join(game.bots),
            )
        console.print(table)


def _duration(seconds: float) -> str:
    if seconds == float("inf"):
        return "unbounded time (no bank and no per-move limit)"
    minutes, secs = divmod(int(round(seconds)), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}h{minutes:02d}m{secs:02d}s"
