"""``arena games`` and ``arena --version`` through the real Typer app."""

from __future__ import annotations

import json

import typer

from typer.testing import CliRunner

from arena import __version__
from arena.cli.app import app
from engine.registry import games

runner = CliRunner()


def test_version() -> None:
    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0
    assert result.stdout.strip() == f"arena {__version__}"


def test_games_lists_every_game_with_variants_and_knobs() -> None:
    result = runner.invoke(app, ["games", "--json"])
    assert result.exit_code == 0, result.output
    listed = {entry["key"]: entry for entry in json.loads(result.stdout)}
    assert set(listed) == set(games())
    for key, game in games().items():
        entry = listed[key]
        assert entry["players"] == [game.min_players, game.max_players]
        assert list(entry["variants"]) == [v.name for v in game.variants]
        assert {k: v["default"] for k, v in entry["knobs"].items()} == {k.name: k.default for k in game.knobs}


def test_games_table_names_every_game() -> None:
    result = runner.invoke(app, ["games"], env={"COLUMNS": "200"})
    assert result.exit_code == 0
    for key in games():
        assert key in result.stdout


def test_unknown_command_is_a_usage_error() -> None:
    result = runner.invoke(app, ["no-such-command"])
    assert result.exit_code == 2


def _command_paths(command: object, prefix: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    paths = [prefix]
    subcommands: dict[str, object] = getattr(command, "commands", {})
    for name, sub in subcommands.items():
        paths.extend(_command_paths(sub, (*prefix, name)))
    return paths


def test_every_command_has_working_help() -> None:
    """Help texts are printed verbatim: brackets such as ``[/BANK]`` in them must not break it."""
    paths = _command_paths(typer.main.get_command(app))
    assert ("play",) in paths and ("tournament", "run") in paths
    for path in paths:
        result = runner.invoke(app, [*path, "--help"])
        assert result.exit_code == 0, f"arena {' '.join(path)} --help: {result.output}"
        assert "Usage:" in result.output


def test_error_messages_are_printed_verbatim() -> None:
    """A message with brackets (a user's file name, a time control) is shown as written."""
    result = runner.invoke(app, ["tournament", "plan", "no-such-[/BANK]-file.toml"])
    assert result.exit_code == 2
    assert "no-such-[/BANK]-file.toml" in result.output.replace("\n", "")
    assert "Traceback" not in result.output
