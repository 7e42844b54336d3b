"""Remote entrants in tournaments: config keys, invitations and revocations, the lane that hosts
them (games waiting, postponed and handed back), and a whole run with one remote entrant."""

from __future__ import annotations

import socket
import sqlite3
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from arena.cli.app import app
from arena.rating_input import stored_leaderboard
from arena.remote.book import book_path, invite, read_book, revoke, tournament_keys
from arena.remote.lane import RemoteLane
from arena.store.db import Store
from arena.tournament import TournamentError
from arena.tournament.config import TournamentConfig, config_from_plain, load_config
from arena.tournament.jobs import JobDone, JobFailed, MatchJob
from arena.tournament.schedule import build_schedule
from remote_helpers import sdk_bot, start, stop
from leaderboards.model import Flag
from protocols.guard import ConnectionCaps

runner = CliRunner()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def write_league(folder: Path, extra: str = "", port: int | None = None) -> Path:
    path = folder / "league.toml"
    path.write_text(f'''name = "remote-league"
game = "wongar"
table_size = 3
deals = 1
time_control = "500ms"
seed = 7
concurrency = 1
listen = "tcp://127.0.0.1:{port or free_port()}"
{extra}
[[bots]]
bot = "random"
name = "r1"

[[bots]]
bot = "random"
name = "r2"

[[bots]]
name = "alice"
remote = true
''')
    return path


@pytest.mark.parametrize(("change", "message"), [
    (("listen = ", "# "), "listen: remote bots need a tcp://HOST:PORT to connect to"),
    (("listen = \"tcp://", "listen = \"ipc://"), "listen: cannot listen on"),
    (("listen = \"tcp://127.0.0.1:", "listen = \"tcp://127.0.0.1:*\"\n# "), "a tournament listens on a fixed port"),
    (("remote = true", "remote = true\nbot = \"random\""), "bots[2].bot: a remote bot runs on its owner's machine"),
    (("name = \"alice\"", "name = \"../alice\""), "bots[2].name: remote bot name '../alice'"),
    (("seed = 7", "seed = 7\nclock = \"cpu\""), "clock: remote bots are timed on the wall clock"),
    (("seed = 7", "seed = 7\nconnections_per_address = 0"), "connections_per_address: must be at least 1"),
    (("seed = 7", "seed = 7\nhello_within = 2.5"), "hello_within"),
    (("listen = ", "connections = 9\n# "), "connections: only a tournament that sets listen has it"),
])
def test_config_errors_name_the_key(tmp_path: Path, change: tuple[str, str], message: str) -> None:
    path = write_league(tmp_path)
    path.write_text(path.read_text().replace(*change))
    with pytest.raises(TournamentError) as caught:
        load_config(path)
    assert message in str(caught.value)


def test_connection_caps_come_from_the_config_and_do_not_change_its_fingerprint(tmp_path: Path) -> None:
    plain = load_config(write_league(tmp_path, port=7777))
    path = write_league(tmp_path, "connections_per_address = 64\nconnections = 4000\nhello_within = 20", 7777)
    capped = load_config(path)
    assert capped.remote is not None and plain.remote is not None
    assert (capped.remote.caps.per_address, capped.remote.caps.connections,
            capped.remote.caps.hello_within) == (64, 4000, 20.0)
    assert plain.remote.caps == ConnectionCaps()
    assert capped.fingerprint() == plain.fingerprint()
    assert config_from_plain(capped.to_plain(), source="stored").remote == capped.remote


def test_the_book_is_private_and_a_new_invitation_replaces_the_token(tmp_path: Path) -> None:
    db = tmp_path / "league.db"
    keys = tournament_keys(db, "t")
    first = invite(db, "t", "alice")
    second = invite(db, "t", "alice")
    assert stat.S_IMODE(book_path(db).stat().st_mode) == 0o600
    book = read_book(db)["t"]
    assert first != second and book.tokens == {"alice": second} and book.keys == keys
    assert revoke(db, "t", "alice") and read_book(db)["t"].tokens == {}
    assert read_book(db)["t"].revoked == ["alice"]
    book_path(db).chmod(0o644)
    with pytest.raises(Exception, match="others may read it: chmod 600"):
        read_book(db)


def jobs(config: TournamentConfig) -> list[MatchJob]:
    return [MatchJob.of(config, game) for game in build_schedule(config)]


def wait_for(outcomes: list[object], lane: RemoteLane, count: int, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while len(outcomes) < count and time.monotonic() < deadline:
        while not lane.outcomes.empty():
            outcomes.append(lane.outcomes.get())
        time.sleep(0.05)


def test_the_lane_plays_when_the_entrant_connects_and_drops_it_when_revoked(tmp_path: Path) -> None:
    config = load_config(write_league(tmp_path, "postpone_after = 60"))
    db = tmp_path / "league.db"
    lane = RemoteLane(config, db)
    lane.start()
    bots: list[subprocess.Popen[str]] = []
    try:
        job = jobs(config)[0]
        lane.submit(job)
        time.sleep(0.5)
        assert lane.outcomes.empty() and lane.queued == 1  # waits: alice is not invited yet
        token = invite(db, config.name, "alice")
        keys = tournament_keys(db, config.name)
        assert config.remote is not None
        env = {"ARENA_ENDPOINT": config.remote.listen, "ARENA_TOKEN": token,
               "ARENA_SERVER_KEY": keys.public.decode()}
        bots.append(start(sdk_bot(), env))
        outcomes: list[object] = []
        wait_for(outcomes, lane, 1, 20)
        assert len(outcomes) == 1 and isinstance(outcomes[0], JobDone), outcomes
        assert any(label.startswith("remote:alice.") for label in outcomes[0].processes)
        revoke(db, config.name, "alice")
        _, err = bots[0].communicate(timeout=10)
        assert bots[0].returncode == 0  # told bye: its token was revoked
        bots.append(start(sdk_bot(), env))
        _, err = bots[1].communicate(timeout=10)
        assert bots[1].returncode == 1 and "unknown token" in err
    finally:
        lane.stop(5)
        for bot in bots:
            stop(bot)


def test_a_game_waiting_too_long_is_postponed_then_handed_back_unplayed(tmp_path: Path) -> None:
    config = load_config(write_league(tmp_path, "postpone_after = 1"))
    lane = RemoteLane(config, tmp_path / "league.db")
    lane.start()
    try:
        job = jobs(config)[0]
        lane.submit(job)
        lane.nothing_else.set()
        outcomes: list[object] = []
        wait_for(outcomes, lane, 1, 10)
        assert len(outcomes) == 1 and isinstance(outcomes[0], JobFailed)
        assert outcomes[0].game_id == job.game_id
        assert "postponed: alice not connected" in outcomes[0].reason
    finally:
        lane.stop(5)


def test_invite_and_revoke_need_a_remote_entrant(tmp_path: Path) -> None:
    result = runner.invoke(app, ["tournament", "invite", "--db", str(tmp_path / "none.db"), "alice"])
    assert result.exit_code == 2 and "no results database here" in result.output
    config = write_league(tmp_path)
    result = runner.invoke(app, ["tournament", "invite", "--db", str(tmp_path / "league.db"),
                                 "--config", str(config), "r1"])
    assert result.exit_code == 2
    assert "'r1' is not a remote entrant (remote = true); remote entrants: alice" in result.output


def test_invite_before_the_first_run_and_revoke(tmp_path: Path) -> None:
    config_path = write_league(tmp_path, 'address = "arena.example.org"', port=7777)
    db = tmp_path / "league.db"
    invited = runner.invoke(app, ["tournament", "invite", "--db", str(db), "--config", str(config_path),
                                  "alice", "--connect-dir", str(tmp_path)])
    assert invited.exit_code == 0, invited.output
    file = tmp_path / "alice.env"
    assert stat.S_IMODE(file.stat().st_mode) == 0o600
    values = dict(line.split("=", 1) for line in file.read_text().splitlines())
    book = read_book(db)["remote-league"]
    assert values == {"ARENA_ENDPOINT": "tcp://arena.example.org:7777",
                      "ARENA_TOKEN": book.tokens["alice"],
                      "ARENA_SERVER_KEY": book.keys.public.decode()}
    assert not db.exists()  # nothing stored: the run stores the tournament
    revoked = runner.invoke(app, ["tournament", "revoke", "--db", str(db), "--config", str(config_path),
                                  "alice"])
    assert revoked.exit_code == 0 and "alice: token revoked" in revoked.output
    assert read_book(db)["remote-league"].tokens == {}


@pytest.mark.slow
def test_a_tournament_with_a_remote_entrant_stores_every_game_once(tmp_path: Path) -> None:
    config_path = write_league(tmp_path, "postpone_after = 120")
    db = tmp_path / "league.db"
    run = subprocess.Popen([str(Path(sys.executable).parent / "arena"), "tournament", "run", str(config_path),
                            "--db", str(db)], cwd=tmp_path, text=True,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    bot = None
    try:
        deadline = time.monotonic() + 60
        invited = None
        while invited is None and time.monotonic() < deadline:
            time.sleep(0.3)
            result = runner.invoke(app, ["tournament", "invite", "--db", str(db), "alice",
                                         "--connect-dir", str(tmp_path)])
            invited = result if result.exit_code == 0 else None
        assert invited is not None, "the tournament was never stored"
        assert "env $(cat " in invited.output
        waiting = "alice: invited, not connected; 3 games wait on it"
        deadline = time.monotonic() + 10
        status = runner.invoke(app, ["tournament", "status", "--db", str(db)])
        while waiting not in status.output and time.monotonic() < deadline:
            time.sleep(0.2)
            status = runner.invoke(app, ["tournament", "status", "--db", str(db)])
        assert waiting in status.output and "3 of their games queued" in status.output
        bot = start(sdk_bot("--connect", str(tmp_path / "alice.env")), {})
        output, _ = run.communicate(timeout=180)
        assert run.returncode == 0, output
        assert bot.wait(10) == 0  # told bye at the end
    finally:
        if run.poll() is None:
            run.kill()
        if bot is not None:
            stop(bot)
    schedule = build_schedule(load_config(config_path))
    with sqlite3.connect(db) as connection:
        ids = [row[0] for row in connection.execute("SELECT id FROM games")]
    assert sorted(ids) == sorted(game.id for game in schedule)  # every game, each once
    assert sum("alice" in game.bots for game in schedule) > 0
    with Store(db) as store:
        board = stored_leaderboard(store)
    flagged = {s.bot: Flag.REMOTE in s.flags for s in board.standings}
    assert flagged == {"alice": True, "r1": False, "r2": False}  # the leaderboard marks it
