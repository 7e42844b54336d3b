"""``arena games`` and ``arena --version`` through the real Typer app."""

from __future__ import annotations

import json

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
