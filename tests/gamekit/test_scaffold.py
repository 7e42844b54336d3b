"""``arena game new``: the files of a new game package, and the names and folders it refuses."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from typer.testing import CliRunner

from arena.cli.app import app

runner = CliRunner()


def test_a_new_game_is_a_package_with_its_entry_point(tmp_path: Path) -> None:
    result = runner.invoke(app, ["game", "new", "fresh_trick", "--dir", str(tmp_path)])
    assert result.exit_code == 0, result.output
    root = tmp_path / "fresh_trick"
    files = sorted(str(p.relative_to(root)) for p in root.rglob("*") if p.is_file())
    assert files == ["README.md", "fresh_trick/__init__.py", "fresh_trick/game.py", "fresh_trick/presentation.py",
                     "fresh_trick/viewer.css", "fresh_trick/viewer.js", "pyproject.toml", "tests/test_fresh_trick.py"]
    project = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))
    assert project["project"]["entry-points"]["arena.games"] == {"fresh_trick": "fresh_trick:GAME"}
    assert project["tool"]["setuptools"]["package-data"]["fresh_trick"] == ["playthroughs/*.txt", "viewer.js", "viewer.css"]
    viewer = (root / "fresh_trick" / "viewer.js").read_text(encoding="utf-8")
    assert 'R.games["fresh_trick"] = function (container, ctx)' in viewer and "innerHTML" not in viewer
    game = (root / "fresh_trick" / "game.py").read_text(encoding="utf-8")
    assert 'name = "fresh_trick"' in game and 'title = "Fresh Trick"' in game and "{{" not in game
    assert f"pip install -e {root}" in result.stdout


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("Bad-Name", "'Bad-Name' is not a game name"),
        ("class", "'class' is not a game name"),
        ("wongar", "a game named 'wongar' is already registered"),
        ("json", "a module named 'json' is already importable here"),
    ],
)
def test_a_name_that_cannot_be_a_new_game_is_refused(tmp_path: Path, name: str, message: str) -> None:
    result = runner.invoke(app, ["game", "new", name, "--dir", str(tmp_path)])
    assert result.exit_code == 2
    assert message in result.output
    assert list(tmp_path.iterdir()) == []


def test_an_existing_folder_is_never_written_into(tmp_path: Path) -> None:
    (tmp_path / "taken_trick").mkdir()
    (tmp_path / "taken_trick" / "mine.txt").write_text("keep me", encoding="utf-8")
    result = runner.invoke(app, ["game", "new", "taken_trick", "--dir", str(tmp_path)])
    assert result.exit_code == 2 and "already exists" in result.output
    assert [p.name for p in (tmp_path / "taken_trick").iterdir()] == ["mine.txt"]
