"""A bot's own files: what its command names, wherever it is, and its manifest's ``files``, never
the folder they live in; and the manifest's ``files`` refused when they leave the bot's folder."""

from __future__ import annotations

from pathlib import Path

import pytest

from arena.manifest import BotSpec, ManifestError, load_manifest
from arena.own_files import CommandName, command_names, files_within, own_files


def test_a_command_line_is_read_as_its_arguments_each_a_module_after_dash_m_or_not() -> None:
    command = ("python3", "-u", "-m", "pkg.main", "--book", "-m", "../b.py")
    assert list(command_names(command)) == [
        CommandName("python3", False), CommandName("-u", False), CommandName("-m", False),
        CommandName("pkg.main", True), CommandName("--book", False), CommandName("-m", False),
        CommandName("../b.py", True),
    ]
    assert [n.module for n in command_names(("-m", "-m", "x"))] == [False, True, True]


def test_the_files_a_command_names_are_its_own_wherever_they_are(tmp_path: Path) -> None:
    league, shelf = tmp_path / "league", tmp_path / "bots"
    league.mkdir()
    shelf.mkdir()
    for name in ("bot.py", "book.bin", "league.toml"):
        (league / name).write_text(name)
    (shelf / "crashy.py").write_text("crashy")
    (league / "pkg").mkdir()
    (league / "pkg" / "__init__.py").write_text("")
    command = ("python3", "bot.py", "--book", "book.bin", "../bots/crashy.py", "--data", ".")
    spec = BotSpec("b", command, cwd=league)
    assert own_files(spec) == (league / "bot.py", league / "book.bin", shelf / "crashy.py")
    assert own_files(BotSpec("m", ("python3", "-m", "pkg.main"), cwd=league)) == (league / "pkg",)
    assert own_files(BotSpec("r", ("python3", "-m", "bots.random"), cwd=league)) == ()
    assert own_files(BotSpec("n", ("python3", "bot.py"))) == (), "relative, with no folder"


def test_a_manifest_lists_more_files_inside_its_folder(tmp_path: Path) -> None:
    (tmp_path / "weights").mkdir()
    (tmp_path / "weights" / "w1.bin").write_text("1")
    (tmp_path / "bot.py").write_text("")
    (tmp_path / "bot.toml").write_text(
        'name = "b"\ncommand = ["python3", "bot.py"]\nfiles = ["weights/", "./bot.py"]\n')
    spec = load_manifest(tmp_path / "bot.toml")
    assert spec.files == (tmp_path / "weights", tmp_path / "bot.py")
    assert own_files(spec) == (tmp_path / "bot.py", tmp_path / "weights")
    assert files_within(own_files(spec)) == [tmp_path / "bot.py", tmp_path / "weights" / "w1.bin"]


@pytest.mark.parametrize(("files", "message"), [
    ('["."]', "'.' must name a file or folder inside the bot's folder"),
    ('["../league.toml"]', "'../league.toml' must name a file or folder inside"),
    ('["/etc/passwd"]', "'/etc/passwd' must name a file or folder inside"),
    ('["gone.bin"]', "'gone.bin': .* does not exist"),
    ('"bot.py"', "'files' must be a list of paths"),
])
def test_a_manifest_naming_files_outside_its_folder_is_refused(tmp_path: Path, files: str,
                                                                message: str) -> None:
    folder = tmp_path / "bot"
    folder.mkdir()
    (tmp_path / "league.toml").write_text("")
    (folder / "bot.toml").write_text(f'name = "b"\ncommand = ["python3", "bot.py"]\nfiles = {files}\n')
    with pytest.raises(ManifestError, match=message):
        load_manifest(folder / "bot.toml")
