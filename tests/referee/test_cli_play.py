"""``arena play`` and ``arena bot check`` through the CLI: exit codes and output."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from arena.cli.app import app
from arena.deals import DealSecret, read_secret_file
from arena.record import MatchRecord
from engine.core import Game, replay
from engine.registry import get_game
from referee_helpers import BOTS

runner = CliRunner()


def test_play_prints_a_result_table_and_writes_a_replayable_record(first_game: Game,
                                                                     tmp_path: Path) -> None:
    bots = ["--bot", "random"] * first_game.min_players
    path = tmp_path / "match.json"
    result = runner.invoke(app, ["play", first_game.name, *bots, "--seed", "12", "--tc", "500ms",
                                 "--record", str(path)])
    assert result.exit_code == 0, result.output
    assert "seed 12" in result.output and "place" in result.output
    record = MatchRecord.from_wire(json.loads(path.read_text()))
    assert record.seed == 12 and record.faults == ()
    game = get_game(first_game.key)
    state = replay(game, record.config, 12, [(d.seat, d.action) for d in record.decisions])
    assert state.result().scores == record.scores


def test_watch_shows_the_board(first_game: Game) -> None:
    bots = ["--bot", "random"] * first_game.min_players
    result = runner.invoke(app, ["play", first_game.name, *bots, "--seed", "2", "--watch", "--delay", "0"])
    assert result.exit_code == 0, result.output
    # off a terminal the live view leaves its last frame: scores, the final decision, the board
    assert re.search(r"decision \d+: seat \d \(random\): .+ \(\d+ ms\)", result.output), result.output
    assert "place now" in result.output and "next: game over" in result.output
    # and the result table starts on a line of its own, not after the board's last border
    assert all(line.rstrip().endswith("╯") for line in result.output.splitlines() if "╰" in line), result.output


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["play", "nosuchgame", "--bot", "random"], "unknown game 'nosuchgame'"),
        (["play", "{game}", "--bot", "random"], "players, not 1"),
        (["play", "{game}", "--bot", "random", "--bot", "random", "--bot", "nosuchbot-cmd"], "not found on PATH"),
        (["play", "{game}", "--bot", "random", "--bot", "random", "--bot", "random", "--tc", "fast"],
         "does not parse"),
        (["play", "{game}", "--bot", "random", "--bot", "random", "--bot", "random", "--knob", "x"],
         "NAME=VALUE"),
        (["play", "{game}", "--bot", "random", "--bot", "random", "--bot", "random", "--variant", "nope"],
         "no variant 'nope'"),
        (["play", "{game}", "--bot", "random", "--bot", "random", "--bot", "random", "--strikes", "0"],
         "strikes must be at least 1"),
        (["play", "{game}", "--bot", "random", "--bot", "random", "--bot", "random", "--seed", "-1"],
         "Invalid value for '--seed'"),
        (["play", "{game}", "--bot", "random", "--bot", "random", "--bot", "random", "--seed", str(2**64)],
         "Invalid value for '--seed'"),
        (["play", "{game}", "--bot", "random", "--bot", "random", "--bot", "random", "--tc", "100000s"],
         "cannot be over 24 hours"),
        (["bot", "check", "random", "--game", "nosuchgame"], "unknown game"),
        (["bot", "check", "nosuchbot-cmd", "--game", "{game}"], "not found on PATH"),
    ],
)
def test_bad_input_exits_2_with_a_message(first_game: Game, args: list[str], fragment: str) -> None:
    result = runner.invoke(app, [a.replace("{game}", first_game.name) for a in args])
    assert result.exit_code == 2, result.output
    assert fragment in result.output
    assert "Traceback" not in result.output


def test_bot_check_passes_a_good_bot(first_game: Game) -> None:
    result = runner.invoke(app, ["bot", "check", "random", "--game", first_game.name, "--tc", "500ms"])
    assert result.exit_code == 0, result.output
    assert "reply p50" in result.output and "reply p99" in result.output and "passed" in result.output


@pytest.mark.usefixtures("working_sandbox")
@pytest.mark.parametrize(("mode", "fragment"), [("illegal", "illegal ×"), ("stubborn", "after bye")])
def test_bot_check_fails_a_bad_bot_and_says_what_to_fix(first_game: Game, mode: str,
                                                       fragment: str) -> None:
    command = f"{sys.executable} {BOTS / 'misbehave.py'} {mode}"
    result = runner.invoke(app, ["bot", "check", command, "--game", first_game.name, "--matches", "1",
                                 "--tc", "200ms"])
    assert result.exit_code == 1, result.output
    assert fragment in result.output and "fix:" in result.output


def test_play_with_an_untrusted_bot_keys_the_deal_and_a_supplied_secret_repeats_it(
    tmp_path: Path,
) -> None:
    outsider = f"{sys.executable} -m bots.random"
    secret_file = tmp_path / "deal.secret"  # made by the first run that names it
    records = []
    for extra in ([], ["--deal-secret", str(secret_file)], ["--deal-secret", str(secret_file)]):
        path = tmp_path / "match.json"
        result = runner.invoke(app, ["play", "wongar", "-b", outsider, "-b", "random", "-b", "random",
                                     "--seed", "7", "--tc", "2s", "--no-sandbox", "--record",
                                     str(path), *extra])
        assert result.exit_code == 0, result.output
        assert "deal seed 7, keyed" in result.output
        records.append(MatchRecord.from_wire(json.loads(path.read_text())))
    fresh, supplied, again = records
    assert secret_file.stat().st_mode & 0o777 == 0o600
    secret = read_secret_file(secret_file)
    # A fresh secret per run, kept in the record; a supplied one keeps only its commitment.
    deal = fresh.detail["deal"]
    assert isinstance(deal, dict) and deal["seed"] == 7
    drawn = DealSecret.from_hex(str(deal["secret"]))
    assert drawn != secret and fresh.seed == drawn.engine_seed(7) != 7
    assert deal["commitment"] == drawn.commitment()
    assert supplied.detail["deal"] == {"seed": 7, "commitment": secret.commitment()}
    assert supplied.seed == again.seed == secret.engine_seed(7)
    assert [d.action for d in supplied.decisions] == [d.action for d in again.decisions]


def test_a_deal_secret_file_others_may_read_is_refused(tmp_path: Path) -> None:
    secret_file = tmp_path / "deal.secret"
    secret_file.write_text(DealSecret.draw().hex())
    secret_file.chmod(0o644)
    result = runner.invoke(app, ["play", "wongar", "-b", "random", "-b", "random", "-b", "random",
                                 "--deal-secret", str(secret_file)])
    assert result.exit_code == 2
    assert "others may read it: chmod 600" in result.output
