"""A league's submissions folder without playing: the content hash that decides when a folder
changed, the two looks before a folder is taken, refusals stored with their reason (in the store
and the owner's folder) and never made entrants, a fixed upload taken again, owner tokens and
folders, and where the games' output of an owned entrant goes."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest
from typer.testing import CliRunner

from arena.cli.app import app
from arena.league.book import add_entrant, entrants, league
from arena.league.config import LeagueError, load_league_config, table_config
from arena.league.owners import owners_root
from arena.league.submissions import (
    ACCEPTED,
    MANIFEST,
    REFUSED,
    SEEN,
    Unfit,
    folder_hash,
    intake,
    submissions,
    submitted_root,
)
from arena.store.db import Store
from arena.tournament.config import BotEntry

runner = CliRunner()

CONFIG = """name = "dice"
game = "liars_dice"
table_size = 2
time_control = "1s"
seed = 5
{intake}
[[bots]]
name = "r1"
bot = "random"

[[bots]]
name = "r2"
bot = "random"
"""
INTAKE = '[submissions]\nfolder = "uploads"\nsettle_seconds = {settle}\n'


def arena(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, " ".join(result.output.split())


def make_league(tmp_path: Path, settle: float = 0) -> Path:
    (tmp_path / "league.toml").write_text(CONFIG.format(intake=INTAKE.format(settle=settle)))
    (tmp_path / "uploads").mkdir()
    db = tmp_path / "l.db"
    code, out = arena("league", "init", str(tmp_path / "league.toml"), "--db", str(db))
    assert code == 0, out
    return db


def look(db: Path) -> list[str]:
    """One intake, as the run loop makes it; the lines it says."""
    said: list[str] = []
    with Store(db) as store:
        intake(store, league(store, None), lambda: None, said.append)
    return said


def states(db: Path) -> list[tuple[str, str, str | None]]:
    with Store(db) as store:
        return [(s.bot, s.state, s.reason) for s in submissions(store, "dice")]


def test_the_content_hash_changes_with_any_path_byte_or_execute_bit(tmp_path: Path) -> None:
    folder = tmp_path / "bot"
    (folder / "lib").mkdir(parents=True)
    (folder / "bot.py").write_text("print(1)\n")
    (folder / "lib" / "book.bin").write_bytes(b"\x00\x01")
    first = folder_hash(folder)
    assert folder_hash(folder) == first
    (folder / "lib" / "book.bin").write_bytes(b"\x00\x02")
    second = folder_hash(folder)
    (folder / "bot.py").chmod(0o755)
    third = folder_hash(folder)
    (folder / "lib" / "book.bin").rename(folder / "lib" / "book2.bin")
    fourth = folder_hash(folder)
    (folder / "empty").mkdir()
    assert len({first, second, third, fourth, folder_hash(folder)}) == 5
    (folder / "link").symlink_to("/etc/passwd")
    with pytest.raises(Unfit, match="link: a submission holds only files and folders"):
        folder_hash(folder)


def test_a_folder_is_taken_only_when_two_looks_see_the_same_content(tmp_path: Path) -> None:
    db = make_league(tmp_path)
    alice = tmp_path / "uploads" / "alice"
    alice.mkdir()
    (alice / "bot.py").write_text("half")
    assert look(db)[0].startswith("submission alice: new content ")
    (alice / "bot.py").write_text("half copied, then more")  # still being copied
    assert look(db)[0].startswith("submission alice: new content ")
    assert states(db) == [("alice", SEEN, None)], "the content first seen is forgotten"
    assert look(db) == ["submission alice: refused: no bot.toml manifest in the submitted folder"]
    assert states(db) == [("alice", REFUSED, "no bot.toml manifest in the submitted folder")]
    assert look(db) == [], "content decided once is not taken again"
    assert not list((db.parent / "l.db.submitted" / "dice" / "alice").iterdir()), "copy removed"
    code, out = arena("league", "status", "--db", str(db))
    assert code == 0 and out.endswith(
        "submission alice: refused: no bot.toml manifest in the submitted folder")
    with Store(db) as store:
        assert [v.bot for v in entrants(store, "dice")] == ["r1", "r2"], "never an entrant"
        (token,) = store.rows("SELECT token FROM league_owners WHERE bot = 'alice'")
    owner = owners_root(db) / token[0]
    assert stat.S_IMODE(owner.stat().st_mode) == stat.S_IMODE(owner.parent.stat().st_mode) == 0o700
    (verdict,) = (owner / "validation").glob("*.txt")
    assert "refused: no bot.toml manifest in the submitted folder" in verdict.read_text()
    assert stat.S_IMODE(verdict.stat().st_mode) == 0o600


def test_a_fixed_upload_of_a_refused_bot_is_taken_again(tmp_path: Path) -> None:
    db = make_league(tmp_path)
    alice = tmp_path / "uploads" / "alice"
    alice.mkdir()
    (alice / "bot.py").write_text("import bots\n")
    (alice / "bot.toml").write_text('name = "alice"\ncommand = "python3 bot.py"\ntrusted = true\n')
    look(db)
    assert look(db) == ["submission alice: refused: bot.toml: a submitted bot cannot be trusted "
                        "(remove 'trusted')"]
    (alice / "bot.toml").write_text('name = "alice"\ncommand = "python3 bot.py"\nnetwork = true\n')
    look(db)
    assert look(db)[-1].endswith("a submitted bot plays without the network (remove 'network')")
    (alice / "bot.toml").write_text('name = "alice"\ncommand = "python3 bot.py"\nspeed = 3\n')
    look(db)
    assert look(db)[-1] == ("submission alice: refused: bot manifest bot.toml: unknown key "
                            "'speed'"), "the copy's folder is not shown"
    assert [s for _, s, _ in states(db)] == [REFUSED] * 3


def test_a_folder_is_not_taken_before_it_settles_and_links_are_refused_at_once(
        tmp_path: Path) -> None:
    db = make_league(tmp_path, settle=3600)
    alice = tmp_path / "uploads" / "alice"
    alice.mkdir()
    (alice / "bot.toml").write_text("")
    look(db)
    assert look(db) == [] and states(db) == [("alice", SEEN, None)]
    bad = tmp_path / "uploads" / "bad@name"
    bad.mkdir()
    (bad / "secret").symlink_to(tmp_path / "l.db")
    assert look(db) == ["submission bad@name: refused: secret: a submission holds only files "
                        "and folders (no links)"]
    assert [s for _, s, _ in states(db)] == [SEEN, REFUSED]


def test_a_bad_name_is_refused_with_its_reason(tmp_path: Path) -> None:
    db = make_league(tmp_path)
    (tmp_path / "uploads" / "bad@name").mkdir()
    look(db)
    assert look(db) == ["submission bad@name: refused: bot name 'bad@name': must be non-empty, "
                        "without spaces, control characters, '@', '/' or '\\', and not start with '.'"]
    assert [s for _, s, _ in states(db)] == [REFUSED]


def test_the_submissions_settings_are_checked(tmp_path: Path) -> None:
    path = tmp_path / "league.toml"
    for table, message in [
        ('[submissions]\nsettle_seconds = 1\n', "submissions.folder: expected a folder, got None"),
        ('[submissions]\nfolder = "u"\nsettle_seconds = -1\n',
         "submissions.settle_seconds: expected a number of at least 0, got -1"),
        ('[submissions]\nfolder = "u"\nwatch = 1\n', "submissions.watch: unknown setting"),
        ('submissions = "u"\n', "submissions: expected a table, got 'u'"),
        ('sandbox = false\n' + INTAKE.format(settle=1),
         "submissions: a league that plays unsandboxed takes no submissions"),
    ]:
        path.write_text(CONFIG.format(intake=table))
        with pytest.raises(LeagueError, match=message.replace("(", r"\(").replace(")", r"\)")):
            load_league_config(path)
    path.write_text(CONFIG.format(intake=INTAKE.format(settle=2.5)))
    intake_settings = load_league_config(path).submissions
    assert intake_settings is not None
    assert (intake_settings.folder, intake_settings.settle) == (str(tmp_path / "uploads"), 2.5)


def test_token_makes_an_owner_folder_that_receives_the_owned_entrants_game_output(
        tmp_path: Path) -> None:
    (tmp_path / "league.toml").write_text(CONFIG.format(intake=""))
    db = tmp_path / "l.db"
    assert arena("league", "init", str(tmp_path / "league.toml"), "--db", str(db))[0] == 0
    code, out = arena("league", "intake", "--db", str(db))
    assert code == 2 and "watches no submissions folder" in out
    code, out = arena("league", "token", "nobody", "--db", str(db))
    assert (code, out) == (2, "error: league 'dice' has no bot 'nobody'")
    done = runner.invoke(app, ["league", "token", "r1", "--db", str(db)])
    token = done.stdout.strip()
    assert done.exit_code == 0 and len(token) == 32
    assert f"owner folder: {owners_root(db).resolve() / token}" in done.stderr
    again = runner.invoke(app, ["league", "token", "r1", "--db", str(db)])
    assert again.stdout.strip() == token, "kept"
    (tmp_path / "up").mkdir()
    code, out = arena("league", "intake", "--db", str(db), "--submissions", str(tmp_path / "up"))
    assert (code, out) == (0, "intake done")
    with Store(db) as store:
        row = league(store, None)
        owned = {v.bot: v.entry for v in entrants(store, "dice")}
    assert owned["r1"].log_folder == str(owners_root(db) / token / "games")
    assert owned["r2"].log_folder is None
    config = table_config(row.template, "dice", 0, [(("r1", 1), owned["r1"]),
                                                    (("r2", 1), owned["r2"])], 1)
    specs = [bot.spec() for bot in config.bots]
    assert [s.log_dir for s in specs] == [owners_root(db) / token / "games", None]
    assert "log_folder" not in str(config.to_plain()), "never stored with the table"


def test_a_version_added_by_a_run_stopped_before_its_verdict_is_not_added_twice(
        tmp_path: Path) -> None:
    db = make_league(tmp_path)
    alice = tmp_path / "uploads" / "alice"
    alice.mkdir()
    (alice / "bot.toml").write_text('name = "alice"\ncommand = "python3 bot.py"\n')
    look(db)
    copy = submitted_root(db) / "dice" / "alice" / folder_hash(alice)[:16]
    with Store(db) as store:
        add_entrant(store, league(store, None), BotEntry("alice", str(copy / MANIFEST)))
    assert look(db) == ["submission alice: accepted as alice@1"]
    assert [s for _, s, _ in states(db)] == [ACCEPTED]
    with Store(db) as store:
        assert [v.key for v in entrants(store, "dice")] == [("r1", 1), ("r2", 1), ("alice", 1)]


def test_a_submissions_folder_that_is_missing_or_a_file_is_refused(tmp_path: Path) -> None:
    db = make_league(tmp_path)
    code, out = arena("league", "intake", "--db", str(db), "--submissions", str(tmp_path / "uplaods"))
    assert code == 2 and f"the submissions folder {tmp_path / 'uplaods'} is missing: make it" in out, out
    (tmp_path / "notes.txt").write_text("x")
    code, out = arena("league", "intake", "--db", str(db), "--submissions", str(tmp_path / "notes.txt"))
    assert code == 2 and "is a file" in out, out
    code, out = arena("league", "intake", "--db", str(db), "--submissions", str(tmp_path / "uploads"))
    assert code == 0, out


def test_an_upload_named_after_an_entrant_the_organiser_added_is_refused(tmp_path: Path) -> None:
    db = make_league(tmp_path)
    r1 = tmp_path / "uploads" / "r1"
    r1.mkdir()
    (r1 / "bot.py").write_text("from bots.random import main\nmain()\n")
    (r1 / "bot.toml").write_text('name = "r1"\ncommand = "python3 bot.py"\n')
    look(db)
    assert look(db) == ["submission r1: refused: r1 is an entrant the organiser added, not one taken "
                        "from submissions: a submission cannot replace it"]
    with Store(db) as store:
        assert [(v.bot, v.version, v.active) for v in entrants(store, "dice")] == [("r1", 1, True), ("r2", 1, True)]
