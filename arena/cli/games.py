"""``arena games``: what can be played."""

from __future__ import annotations

import json
from typing import Annotated

import typer
from rich.table import Table

from arena.cli.common import console
from engine.core import Game
from engine.registry import games


def describe(game: Game) -> dict[str, object]:
    """A game's public metadata as plain data."""
    return {
        "key": game.key,
        "name": game.name,
        "version": game.version,
        "title": game.title,
        "players": [game.min_players, game.max_players],
        "variants": {v.name: v.doc for v in game.variants},
        "knobs": {
            k.name: {"default": k.default, "choices": list(k.choices), "doc": k.doc}
            for k in game.knobs
        },
    }


def games_command(
    as_json: Annotated[bool, typer.Option("--json", help="Print plain JSON instead of a table.")] = False,
) -> None:
    """List every registered game: versions, variants, player counts and knobs with defaults.

    Example: arena games --json
    """
    registered = list(games().values())
    if as_json:
        print(json.dumps([describe(g) for g in registered], indent=2))
        return
    table = Table(title="Games")
    table.add_column("game")
    table.add_column("players", justify="center")
    table.add_column("variants")
    table.add_column("knobs (default)")
    for game in registered:
        table.add_row(
            f"[bold]{game.key}[/]\n{game.title}",
            f"{game.min_players}-{game.max_players}",
            "\n".join(f"{v.name}: {v.doc}" for v in game.variants),
            "\n".join(f"{k.name} = {k.default!r}: {k.doc}" for k in game.knobs) or "-",
        )
    console.print(table)
