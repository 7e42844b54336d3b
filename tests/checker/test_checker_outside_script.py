"""``arena bot check`` of a command-line bot whose script lies outside the folder it is checked
from (``python3 ../bots/bot.py``): the sandboxed bot opens its script there and passes; one whose
program ends before its hello is told that its output says why, quoted line by line."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from arena.cli.app import app

pytestmark = pytest.mark.sandbox

BOT = Path(__file__).with_name("checker_bot.py")
runner = CliRunner()


def check(folder: Path, command: str, monkeypatch: pytest.MonkeyPatch) -> tuple[int, str]:
    monkeypatch.chdir(folder)
    result = runner.invoke(app, ["bot", "check", command, "--game", "wongar", "--matches", "1"],
                           env={"COLUMNS": "400"})
    return result.exit_code, result.output


def test_a_script_outside_the_folder_is_seen_by_the_sandboxed_bot(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "league").mkdir()
    (tmp_path / "bots").mkdir()
    shutil.copy(BOT, tmp_path / "bots" / "checker_bot.py")
    status, output = check(tmp_path / "league", f"{sys.executable} ../bots/checker_bot.py ok", monkeypatch)
    assert status == 0, output
    assert "passed" in output


def test_a_bot_ending_before_its_hello_is_pointed_at_its_output(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "bots").mkdir()
    (tmp_path / "bots" / "broken.py").write_text("import sys\nprint('first line')\nsys.exit('second line')\n")
    status, output = check(tmp_path, f"{sys.executable} bots/broken.py", monkeypatch)
    assert status == 1, output
    assert "\n  first line\n  second line\n" in output and "\\n" not in output
    words = " ".join(output.split())  # however the terminal's width wraps the lines
    assert "its output ends: first line second line" in words
    assert "the program ended before its hello: its output says why" in words
