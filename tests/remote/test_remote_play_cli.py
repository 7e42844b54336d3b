"""``arena play --listen`` with remote seats: connection files, the countdown, a bot joining late,
a bot that never comes, and bad usage."""

from __future__ import annotations

import json
import stat
from pathlib import Path

import pytest
from typer.testing import CliRunner

from arena.cli.app import app
from arena.record import MatchRecord
from remote_helpers import sdk_bot, stop, when_file_appears
from engine.core import Game
from engine.registry import games

runner = CliRunner()


@pytest.fixture(scope="module")
def game() -> Game:
    return next(iter(games().values()))


def local_seats(game: Game) -> list[str]:
    return ["-b", "random"] * (game.min_players - 1)


def test_a_remote_sdk_bot_joins_late_with_its_connection_file_and_is_watched(game: Game, tmp_path: Path) -> None:
    file = tmp_path / "alice.env"
    thread, started = when_file_appears(file, sdk_bot("--connect", "{file}"), delay=0.5)
    record = tmp_path / "match.json"
    try:
        result = runner.invoke(app, [
            "play", game.name, "--listen", "tcp://127.0.0.1:*", "-b", "remote:alice",
            *local_seats(game), "--connect-dir", str(tmp_path), "--wait", "20", "--seed", "5",
            "--record", str(record), "--watch", "--delay", "0"])
        thread.join(10)
    finally:
        outputs = [stop(process, wait=10) for process in started]
    assert result.exit_code == 0, result.output
    assert "waiting for alice: 0:1" in result.output  # the countdown, before it joined
    assert "env $(cat " in result.output and "--connect" in result.output
    assert result.output.index("waiting for alice") < result.output.index("╭")  # then watched
    assert started and started[0].returncode == 0, outputs
    assert not file.exists()  # removed once the match is over: its token is spent
    played = MatchRecord.from_wire(json.loads(record.read_text()))
    assert played.bots[0] == "alice" and played.faults == ()
    assert any(d.seat == 0 and not d.fallback for d in played.decisions)
    deal = played.detail["deal"]  # a remote seat is never trusted: the deal is keyed
    assert isinstance(deal, dict) and deal["seed"] == 5 and played.seed != 5


def test_a_remote_seat_that_never_connects_fails_and_plays_nothing(game: Game, tmp_path: Path) -> None:
    result = runner.invoke(app, [
        "play", game.name, "--listen", "tcp://127.0.0.1:*", "-b", "remote:bob", *local_seats(game),
        "--connect-dir", str(tmp_path), "--wait", "0.3"])
    assert result.exit_code == 2 and not (tmp_path / "bob.env").exists()
    assert "bob did not connect within 0.3 s; nothing was played" in " ".join(result.output.split())


def test_connection_file_contents(tmp_path: Path) -> None:
    from arena.remote.connection import write_connection_file
    from arena.remote.keys import new_keys

    keys = new_keys()
    path = write_connection_file(tmp_path, "carol", "tcp://example.org:7777", "ab" * 16, keys.public.decode())
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    lines = path.read_text().splitlines()
    assert lines == ["ARENA_ENDPOINT=tcp://example.org:7777", f"ARENA_TOKEN={'ab' * 16}",
                     f"ARENA_SERVER_KEY={keys.public.decode()}"]
    assert not set(keys.public.decode()) & set("*?[]$`'\"\\ ;&|<>(){}#!~")  # safe unquoted in a shell


@pytest.mark.parametrize(("arguments", "message"), [
    (["-b", "remote:alice"], "remote:NAME seats need --listen tcp://HOST:PORT"),
    (["--listen", "tcp://127.0.0.1:*"], "--listen needs at least one remote:NAME seat"),
    (["--listen", "ipc:///tmp/x", "-b", "remote:alice"], "expected tcp://HOST:PORT"),
    (["--listen", "tcp://127.0.0.1:*", "-b", "remote:../x"], "remote bot name '../x'"),
    (["--listen", "tcp://127.0.0.1:*", "-b", "remote:a", "-b", "remote:a"], "a name of its own"),
    (["--listen", "tcp://127.0.0.1:*", "-b", "remote:a", "--wait", "0"], "--wait must be a positive"),
    (["--listen", "tcp://127.0.0.1:*", "-b", "remote:a", "--clock", "cpu"], "--clock cpu cannot time them"),
])
def test_bad_remote_usage_is_one_clear_line(game: Game, tmp_path: Path, arguments: list[str],
                                            message: str) -> None:
    seats = ["-b", "random"] * max(0, game.min_players - sum(a.startswith("remote:") for a in arguments))
    result = runner.invoke(app, ["play", game.name, *arguments, *seats, "--connect-dir", str(tmp_path)])
    assert result.exit_code == 2
    assert message in " ".join(result.output.split())
    assert list(tmp_path.iterdir()) == []
