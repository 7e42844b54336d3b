"""The remote book, known answers on real files: only its owner may read it (any other permission
bit is refused with the chmod to run, and nothing is changed), tokens are 128 random bits that a
new invitation replaces (a running lane then drops the old one) and a revocation ends, keys are per
tournament and shell-safe, and every write replaces the whole file."""

from __future__ import annotations

import stat
import subprocess
from pathlib import Path

import pytest
from cli_messages import stderr_lines
from remote_helpers import sdk_bot, start, stop
from test_remote_tournament import jobs, wait_for, write_league
from typer.testing import CliRunner

from arena.cli.app import app
from arena.remote import RemoteError
from arena.remote.book import book_path, book_version, invite, read_book, revoke, tournament_keys
from arena.remote.keys import SHELL_SAFE
from arena.remote.lane import RemoteLane
from arena.tournament.config import load_config
from arena.tournament.jobs import JobDone

runner = CliRunner()


@pytest.mark.parametrize("mode", [0o640, 0o620, 0o610, 0o604, 0o602, 0o601, 0o644, 0o666])
def test_a_book_others_may_use_is_refused_naming_the_chmod(tmp_path: Path, mode: int) -> None:
    db = tmp_path / "league.db"
    invite(db, "t", "alice")
    path = book_path(db)
    before = path.read_bytes()
    path.chmod(mode)
    expected = (f"{path} holds secret keys and tokens but others may read it: chmod 600 {path}")
    for use in (lambda: read_book(db), lambda: invite(db, "t", "bob"),
                lambda: revoke(db, "t", "alice"), lambda: tournament_keys(db, "t")):
        with pytest.raises(RemoteError) as refused:
            use()
        assert str(refused.value) == expected
    assert path.read_bytes() == before and stat.S_IMODE(path.stat().st_mode) == mode


@pytest.mark.parametrize("mode", [0o600, 0o400, 0o700])
def test_a_book_only_its_owner_may_use_is_read(tmp_path: Path, mode: int) -> None:
    db = tmp_path / "league.db"
    token = invite(db, "t", "alice")
    book_path(db).chmod(mode)
    assert read_book(db)["t"].tokens == {"alice": token}


def test_invite_refuses_a_group_readable_book_in_one_line(tmp_path: Path) -> None:
    config = write_league(tmp_path)
    db = tmp_path / "league.db"
    invite(db, "remote-league", "alice")
    book_path(db).chmod(0o640)
    refused = runner.invoke(app, ["tournament", "invite", "--db", str(db), "--config", str(config),
                                  "alice", "--connect-dir", str(tmp_path)])
    assert refused.exit_code == 2
    assert refused.stdout == ""
    assert " ".join(" ".join(stderr_lines(refused.stderr)).split()) == (
        f"error: {book_path(db)} holds secret keys and tokens but others may read it: "
        f"chmod 600 {book_path(db)}"
    )
    assert not (tmp_path / "alice.env").exists()


def test_tokens_are_128_random_bits_replaced_by_each_invitation(tmp_path: Path) -> None:
    db = tmp_path / "league.db"
    tokens = [invite(db, "t", "alice") for _ in range(3)]
    assert all(len(t) == 32 and int(t, 16) >= 0 for t in tokens) and len(set(tokens)) == 3
    assert read_book(db)["t"].tokens == {"alice": tokens[-1]}
    bob = invite(db, "t", "bob")
    assert read_book(db)["t"].tokens == {"alice": tokens[-1], "bob": bob}


def test_a_revocation_ends_one_token_and_an_invitation_lifts_it(tmp_path: Path) -> None:
    db = tmp_path / "league.db"
    alice, bob = invite(db, "t", "alice"), invite(db, "t", "bob")
    assert revoke(db, "t", "alice") is True
    book = read_book(db)["t"]
    assert (book.tokens, book.revoked) == ({"bob": bob}, ["alice"])
    assert revoke(db, "t", "alice") is False  # no token left to end
    assert revoke(db, "t", "carol") is False  # never invited: refused until invited
    assert read_book(db)["t"].revoked == ["alice", "carol"]
    again = invite(db, "t", "alice")
    book = read_book(db)["t"]
    assert again != alice and (book.tokens, book.revoked) == ({"bob": bob, "alice": again},
                                                              ["carol"])


def test_keys_are_per_tournament_kept_and_shell_safe(tmp_path: Path) -> None:
    db = tmp_path / "league.db"
    first = tournament_keys(db, "one")
    invite(db, "one", "alice")
    revoke(db, "one", "alice")
    assert tournament_keys(db, "one") == first  # made once, kept through every write
    other = tournament_keys(db, "two")
    assert other.public != first.public and other.secret != first.secret
    for keys in (first, other):
        assert len(keys.public) == 40 and len(keys.secret) == 40
        assert set(keys.public) <= SHELL_SAFE
    assert read_book(db)["one"].keys == first and read_book(db)["two"].keys == other


def test_every_write_replaces_the_whole_file_and_changes_its_version(tmp_path: Path) -> None:
    db = tmp_path / "league.db"
    assert book_version(db) == (0, 0) and read_book(db) == {}
    seen = set()
    for name in ("alice", "bob", "alice"):
        invite(db, "t", name)
        version = book_version(db)
        assert version not in seen and version[0] != 0
        seen.add(version)
        assert stat.S_IMODE(book_path(db).stat().st_mode) == 0o600
    assert sorted(p.name for p in tmp_path.iterdir()) == ["league.db.remote"]


def test_a_new_invitation_ends_the_old_token_while_the_lane_runs(tmp_path: Path) -> None:
    config = load_config(write_league(tmp_path, "postpone_after = 60"))
    assert config.remote is not None
    db = tmp_path / "league.db"
    server_key = tournament_keys(db, config.name).public.decode()

    def bot(token: str) -> subprocess.Popen[str]:
        assert config.remote is not None
        return start(sdk_bot(), {"ARENA_ENDPOINT": config.remote.listen, "ARENA_TOKEN": token,
                                 "ARENA_SERVER_KEY": server_key})

    lane = RemoteLane(config, db)
    lane.start()
    bots: list[subprocess.Popen[str]] = []
    try:
        first, second = jobs(config)[:2]
        old = invite(db, config.name, "alice")
        bots.append(bot(old))
        lane.submit(first)
        outcomes: list[object] = []
        wait_for(outcomes, lane, 1, 30)
        assert len(outcomes) == 1 and isinstance(outcomes[0], JobDone), outcomes
        new = invite(db, config.name, "alice")
        bots[0].communicate(timeout=20)
        assert bots[0].returncode == 0, "the connection on the replaced token is told bye"
        bots.append(bot(old))
        _, err = bots[1].communicate(timeout=20)
        assert bots[1].returncode == 1 and "unknown token" in err
        bots.append(bot(new))
        lane.submit(second)
        wait_for(outcomes, lane, 2, 30)
        assert len(outcomes) == 2 and isinstance(outcomes[1], JobDone), outcomes
    finally:
        lane.stop(5)
        for process in bots:
            stop(process)


@pytest.mark.parametrize(("text", "problem"), [
    ("{", "Expecting property name enclosed in double quotes"),
    ('{"tournaments": {"t": {"public": "%s", "secret": "short", "tokens": {}, "revoked": []}}}',
     "not a CURVE key pair"),
    ('{"tournaments": {"t": {"public": "short", "secret": "%s", "tokens": {}, "revoked": []}}}',
     "not a CURVE key pair"),
    ('{"books": {}}', "'tournaments'"),
])
def test_a_book_that_is_not_one_is_refused_naming_it(tmp_path: Path, text: str, problem: str) -> None:
    db = tmp_path / "league.db"
    path = book_path(db)
    path.write_text(text.replace("%s", "a" * 40))
    path.chmod(0o600)
    with pytest.raises(RemoteError) as refused:
        read_book(db)
    assert str(refused.value).startswith(f"cannot read the remote book {path}: ")
    assert problem in str(refused.value)
