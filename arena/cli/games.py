"""``arena games`` and ``arena games show``: what can be played, and what a bot of a setup is sent."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table
from rich.text import Text

from arena.cli.common import SEED_MAX, console, user_errors
from arena.cli.play import parse_knobs
from engine.core import Game, MatchConfig, Wire
from engine.registry import BUILT_IN, broken_games, games, get_game, origin

#: The folder Arena was installed from, where its docs/ are (an editable install or a checkout).
SOURCE_ROOT = Path(__file__).resolve().parents[2]


def describe(game: Game) -> dict[str, object]:
    """A game's public metadata as plain data."""
    return {
        "key": game.key,
        "name": game.name,
        "version": game.version,
        "title": game.title,
        "origin": origin(game),
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

    Installed games (plugins) show the distribution they come from; an installed game that cannot be
    used is listed as broken, with why.

    \b
    Examples:
      arena games --json
    """
    registered = list(games().values())
    broken = broken_games()
    if as_json:
        listing = [describe(g) for g in registered]
        listing += [{"broken": b.source, "reason": b.reason} for b in broken]
        print(json.dumps(listing, indent=2))
        return
    table = Table(title="Games")
    table.add_column("game", overflow="fold")
    table.add_column("players", justify="center", no_wrap=True)
    table.add_column("variants", overflow="fold")
    table.add_column("knobs (default)", overflow="fold")
    for game in registered:
        table.add_row(
            Text.assemble((game.key, "bold"), "\n", game.title,
                          "" if origin(game) == BUILT_IN else f"\nfrom {origin(game)}"),
            f"{game.min_players}-{game.max_players}",
            "\n".join(f"{v.name}: {v.doc}" for v in game.variants),
            "\n".join(f"{k.name} = {k.default!r}: {k.doc}" for k in game.knobs) or "-",
        )
    for skipped in broken:
        table.add_row(Text.assemble(("broken", "bold red"), f"\n{skipped.source}"), "-",
                      Text(skipped.reason), "-")
    console.print(table)


def reference(game: Game) -> str:
    """Where ``game``'s observation keys are explained: Arena's ``docs/games/NAME.md`` for a
    built-in game or one Arena's docs describe, else the documentation of the package it comes from."""
    page = f"docs/games/{game.name}.md"
    if origin(game) == BUILT_IN or (SOURCE_ROOT / page).is_file():
        return page
    return f"the documentation of its package ({origin(game)})"


def setup_layout(game: Game, config: MatchConfig, seed: int) -> dict[str, Wire]:
    """What a bot of this setup is sent: the action table as ``start.actions`` carries it, and the
    observation of the first seat to decide in the deal of ``seed``."""
    state = game.start(config, seed)
    seat = state.to_move()[0]
    knobs: dict[str, Wire] = {name: value for name, value in config.knobs.items()}
    return {
        "game": game.name,
        "version": game.version,
        "title": game.title,
        "variant": config.variant,
        "players": config.players,
        "knobs": knobs,
        "reference": reference(game),
        "actions": game.action_table(config).to_wire(),
        "observation": {"seat": seat, "seed": seed, "value": state.observation(seat)},
    }


def show_command(
    game: Annotated[str, typer.Argument(help="The game: a name, or name@version.")],
    variant: Annotated[str | None, typer.Option("--variant", help="The variant (default: the game's first).")] = None,
    players: Annotated[int | None, typer.Option("--players", help="Seats (default: the fewest allowed).")] = None,
    knob: Annotated[list[str], typer.Option("--knob", "-k", help="A rules knob, NAME=VALUE.")] = [],  # noqa: B006
    seed: Annotated[int, typer.Option("--seed", min=0, max=SEED_MAX, help="The deal of the example observation.")] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="Print plain JSON instead of text.")] = False,
) -> None:
    """Show a setup's action table (as a bot receives it in start.actions) and an example observation.

    Every key of the observation is explained in the game's reference: docs/games/GAME.md for a
    built-in game, the package's own documentation for an installed one.

    \b
    Examples:
      arena games show GAME --players 4 --json
    """
    with user_errors():
        chosen = get_game(game)
        config = chosen.configure(chosen.min_players if players is None else players, variant, parse_knobs(knob))
        layout = setup_layout(chosen, config, seed)
    if as_json:
        print(json.dumps(layout, indent=1))
        return
    print(f"{chosen.key} ({chosen.title}), variant {config.variant}, {config.players} players; "
          f"reference: {reference(chosen)}")
    print("knobs: " + ", ".join(f"{name}={value!r}" for name, value in config.knobs.items()))
    table = chosen.action_table(config)
    print(f"\nactions ({len(table)}): id, form, label")
    for action in range(len(table)):
        spec = table[action]
        print(f"{spec.id:>4}  {json.dumps(list(spec.form)):<34} {spec.label}")
    shown = layout["observation"]
    assert isinstance(shown, dict) and isinstance(shown["value"], dict)
    print(f"\nobservation of seat {shown['seat']!r} at the first decision (seed {seed}):")
    for key, value in shown["value"].items():
        print(f"  {key}: {json.dumps(value)}")
