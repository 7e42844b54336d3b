"""``arena games show``: a setup's action table and an example observation, as JSON or text."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from reference_doc import read_reference
from typer.testing import CliRunner

from arena.cli.app import app
from engine.registry import games, get_game

ROOT = Path(__file__).resolve().parents[2]
runner = CliRunner()
SETUPS = [
    (g.name, v.name, p)
    for g in games().values()
    for v in g.variants
    for p in (g.min_players, g.max_players)
]


@pytest.mark.parametrize(("name", "variant", "players"), SETUPS)
def test_json_gives_the_table_bots_receive_and_a_documented_observation(name: str, variant: str, players: int) -> None:
    result = runner.invoke(app, ["games", "show", name, "--variant", variant, "--players", str(players), "--json"])
    assert result.exit_code == 0, result.output
    shown = json.loads(result.stdout)
    game = get_game(name)
    assert (shown["game"], shown["version"], shown["variant"], shown["players"]) == (name, game.version, variant, players)
    assert shown["knobs"] == {k.name: k.default for k in game.knobs}
    ids = [entry[0] for entry in shown["actions"]]
    assert ids == list(range(len(ids))), "ids are positions"
    forms = [tuple(entry[1]) for entry in shown["actions"]]
    assert len(set(forms)) == len(forms) and all(isinstance(entry[2], str) for entry in shown["actions"])
    state = game.start(game.configure(players, variant), 0)
    legal = state.legal_actions(shown["observation"]["seat"])
    assert legal and max(legal) < len(ids), "the first decision's legal ids index the table"
    assert (ROOT / shown["reference"]).is_file()
    reference = read_reference(ROOT / shown["reference"], None)
    for key in shown["observation"]["value"]:
        assert reference.documents(key), f"{key} is not in {shown['reference']}"


def test_player_count_changes_the_table() -> None:
    three = json.loads(runner.invoke(app, ["games", "show", "waroong", "--players", "3", "--json"]).stdout)
    five = json.loads(runner.invoke(app, ["games", "show", "waroong", "--players", "5", "--json"]).stdout)
    assert len(five["actions"]) == len(three["actions"]) + 4, "one more Thief and Charmer target per extra seat"
    vendor = json.loads(
        runner.invoke(app, ["games", "show", "waroong", "--variant", "street-vendor", "--json"]).stdout
    )
    assert [a[1][0] for a in vendor["actions"]].count("thief") == 0 and len(vendor["actions"]) == 25


def test_text_lists_every_action_and_the_observation() -> None:
    result = runner.invoke(app, ["games", "show", "wongar", "--variant", "initiated", "--players", "4"])
    assert result.exit_code == 0, result.output
    assert "wongar@2 (Wongar), variant initiated, 4 players" in result.stdout
    assert '["play_card", "Ancestor"]' in result.stdout and "play your Ancestor card" in result.stdout
    assert '  pending: {"decision": "setup_place"' in result.stdout


def test_knobs_and_seed_are_honoured() -> None:
    result = runner.invoke(
        app, ["games", "show", "wongar", "-k", "scorpion_track=4/4/4", "--seed", "5", "--json"]
    )
    shown = json.loads(result.stdout)
    assert shown["knobs"]["scorpion_track"] == "4/4/4"
    assert shown["observation"]["seed"] == 5 and shown["observation"]["value"]["scorpion"]["last"] == 12


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["chess"], "unknown game 'chess'"),
        (["wongar", "--players", "9"], "wongar is for 3-5 players, not 9"),
        (["waroong", "--variant", "royal"], "waroong has no variant 'royal'"),
        (["wongar", "-k", "nope=1"], "nope"),
    ],
)
def test_bad_input_is_one_line_and_status_2(args: list[str], message: str) -> None:
    done = subprocess.run(
        [str(Path(sys.executable).with_name("arena")), "games", "show", *args],
        capture_output=True, text=True, timeout=60, env={"COLUMNS": "300", "PATH": ""},
    )
    assert done.returncode == 2, done.stderr
    assert done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and message in lines[0]
