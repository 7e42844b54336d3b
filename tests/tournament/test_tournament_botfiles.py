"""Changed-bot detection, known answers: which files make a bot's fingerprint, and that a change to
any of them is refused by name against the builds in a real store.

A ``-m`` module is looked up in the bot's own folder first, as ``python -m`` does there, whatever
folder the arena itself runs in: these bots live in a temporary folder this process's import path
does not hold."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from arena.store.db import Store
from arena.tournament import TournamentError
from arena.tournament.botfiles import build_hash, changes, file_digests, files_hash
from arena.tournament.builds import check_builds, current_build, record_builds
from arena.tournament.config import BotEntry


#: blake2b, 12 bytes, of ``print(1)\n``; of the digests of that bot; the older hash over its files.
DIGEST_OF_PRINT_1 = "f549fe1ac991be66adc5b9d4"
BUILD_HASH = "9976525a47c440f67756330b"
LEGACY_HASH = "919209f9563ea4e6577b8fb2"


def package_bot(folder: Path) -> BotEntry:
    """A bot run as ``python -m pkgbot`` in ``folder``, its code spread over a package."""
    for name, text in {
        "pkgbot/__init__.py": "",
        "pkgbot/__main__.py": "from pkgbot.brain import main\nmain()\n",
        "pkgbot/brain.py": "def main() -> None:\n    pass\n",
        "pkgbot/tables/weights.py": "W = 1\n",
        "pkgbot/notes.txt": "not code\n",
    }.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text)
    return BotEntry("p", f"{sys.executable} -m pkgbot", folder=str(folder))


def test_a_package_bot_s_fingerprint_covers_every_module_of_its_package(tmp_path: Path) -> None:
    entry = package_bot(tmp_path)
    before = current_build(entry).row
    assert {"command", "version", sys.executable} <= set(before.files)
    assert {name for name in before.files if name.endswith(".py")} == {
        "pkgbot/__init__.py", "pkgbot/__main__.py", "pkgbot/brain.py", "pkgbot/tables/weights.py"
    }
    (tmp_path / "pkgbot" / "tables" / "weights.py").write_text("W = 2\n")
    after = current_build(entry).row
    assert after.files_hash != before.files_hash
    assert {k for k in before.files if before.files[k] != after.files[k]} == {
        "pkgbot/tables/weights.py"
    }
    (tmp_path / "pkgbot" / "extra.py").write_text("")
    assert "pkgbot/extra.py" in current_build(entry).row.files


def test_a_changed_package_module_is_refused_by_name_then_stored_as_build_two(
    tmp_path: Path,
) -> None:
    entry = package_bot(tmp_path / "league")
    first = current_build(entry)
    with Store(tmp_path / "r.db") as store:
        store.add_tournament("t", "f", {}, [first.row])
        assert record_builds(store, "t", {"p": first}) == {"p": 1}
        check_builds(store, "t", {"p": first}, allow=False)  # unchanged: accepted
        (tmp_path / "league" / "pkgbot" / "brain.py").write_text("def main() -> None:\n    1\n")
        changed = current_build(entry)
        with pytest.raises(TournamentError) as refused:
            check_builds(store, "t", {"p": changed}, allow=False)
        assert str(refused.value).startswith(
            "bot 'p' changed since build 1 (pkgbot/brain.py changed). "
        )
        check_builds(store, "t", {"p": changed}, allow=True)
        assert record_builds(store, "t", {"p": changed}) == {"p": 2}


def test_a_single_module_bot_is_its_file_in_the_bot_s_folder(tmp_path: Path) -> None:
    (tmp_path / "solo.py").write_text("print(1)\n")
    (tmp_path / "other.py").write_text("print(2)\n")
    entry = BotEntry("s", f"{sys.executable} -m solo", folder=str(tmp_path))
    assert set(current_build(entry).row.files) == {"command", "version", sys.executable, "solo.py"}


def test_a_built_in_bot_is_fingerprinted_by_its_module_wherever_the_arena_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    here = current_build(BotEntry("r", "random")).row.files
    monkeypatch.chdir(tmp_path)
    assert current_build(BotEntry("r", "random")).row.files == here
    assert [Path(name).name for name in here if name.endswith(".py")] == ["random.py"]


def test_an_installed_package_bot_s_fingerprint_covers_its_whole_package(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    site = tmp_path / "site"
    for name in ("__init__.py", "__main__.py", "brain.py"):
        (site / "instbot" / name).parent.mkdir(parents=True, exist_ok=True)
        (site / "instbot" / name).write_text("")
    monkeypatch.syspath_prepend(str(site))
    (tmp_path / "league").mkdir()
    entry = BotEntry("i", f"{sys.executable} -m instbot", folder=str(tmp_path / "league"))
    files = current_build(entry).row.files
    assert {name for name in files if name.endswith(".py")} == {
        str(site / "instbot" / name) for name in ("__init__.py", "__main__.py", "brain.py")
    }


def test_changes_name_every_difference_in_a_fixed_order() -> None:
    before = {"command": "python3 -m a", "version": "1", "a/x.py": "d1", "a/y.py": "d2",
              "bot.toml": "d4"}
    now = {"command": "python3 -m b", "version": "2", "a/x.py": "d9", "a/z.py": "d3",
           "bot.toml": "d4"}
    assert changes(before, now) == [
        "command 'python3 -m a' is now 'python3 -m b'", "version '1' is now '2'",
        "a/x.py changed", "a/y.py removed", "a/z.py added",
    ]
    assert changes(now, now) == []


def test_a_dotted_module_brings_its_whole_top_level_package(tmp_path: Path) -> None:
    entry = package_bot(tmp_path)
    dotted = BotEntry("p", f"{sys.executable} -m pkgbot.brain", folder=str(tmp_path))
    whole = {name for name in current_build(entry).row.files if name.endswith(".py")}
    assert {name for name in current_build(dotted).row.files if name.endswith(".py")} == whole


def test_a_module_found_nowhere_adds_no_file(tmp_path: Path) -> None:
    entry = BotEntry("n", f"{sys.executable} -m no_such_module_here", folder=str(tmp_path))
    assert set(current_build(entry).row.files) == {"command", "version", sys.executable}


def test_digests_are_stable_across_versions(tmp_path: Path) -> None:
    """Stored builds are compared with the bot as it is now, by these digests: a change to how they
    are computed would make every stored bot look changed."""
    (tmp_path / "mybot.py").write_text("print(1)\n")
    spec = BotEntry("m", "python3 mybot.py --depth 3", folder=str(tmp_path)).spec()
    files = file_digests(spec)
    assert files == {"command": "python3 mybot.py --depth 3", "version": "",
                     "mybot.py": DIGEST_OF_PRINT_1}
    assert build_hash(files) == BUILD_HASH
    assert files_hash(spec) == LEGACY_HASH
