"""One runner per database: a second runner is refused naming the first, read-only commands work
meanwhile, a runner killed with SIGKILL leaves a lock the next runner takes over, and a lock file
removed or replaced under its holder is never kept: the holder stops before its next write and
leaves the new file alone."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from cli_messages import stderr_lines
from polling import wait_until
from stored_rows import stored_count
from test_tournament_resume import sigkill_runner_once_stored, start_runner
from tournament_league import league_toml, processes_with, results, run_arena
from typer.testing import CliRunner

from arena.cli.app import app
from arena.store import StoreError
from arena.store.db import Store
from arena.store.lock import (
    RunnerBusy,
    RunnerLock,
    RunnerLockLost,
    _describe,
    _lock_current,
    lock_path,
)
from arena.tournament.config import parse_config
from arena.tournament.executors import LocalExecutor
from arena.tournament.runner import run_tournament


@pytest.mark.slow
def test_a_second_runner_is_refused_and_readers_keep_working(
    tmp_path: Path, marker: str, reference_db: Path
) -> None:
    gate = tmp_path / "gate"
    gate.touch()  # the first runner's bots wait while it exists
    config = tmp_path / "league.toml"
    config.write_text(league_toml(marker, gate=gate))
    db = tmp_path / "two.db"
    first = start_runner(config, db)
    try:
        assert wait_until(lambda: stored_count(db, "tournaments") == 1, timeout=90), "runner did not start"
        second = run_arena("tournament", "run", str(config), "--db", str(db), cwd=tmp_path)
        resumed = run_arena("tournament", "resume", "--db", str(db), cwd=tmp_path)
        status = run_arena("tournament", "status", "--db", str(db), cwd=tmp_path)
        listed = run_arena("games", "list", "--db", str(db), "--json", cwd=tmp_path)
        gate.unlink()
        _, first_err = first.communicate(timeout=120)
    finally:
        first.kill()
        first.wait()
    for refused in (second, resumed):
        assert refused.returncode == 2, refused.stderr
        assert len(refused.stderr.strip().splitlines()) == 1
        assert "another runner is playing into this database" in refused.stderr
        assert f"pid {first.pid} on {socket.gethostname()}, since " in refused.stderr
        assert "played" not in refused.stdout
    assert status.returncode == 0, status.stderr
    assert "0 of 12 games stored" in status.stdout
    assert listed.returncode == 0, listed.stderr
    assert first.returncode == 0, first_err
    assert results(db) == results(reference_db), "every game played once, by the first runner"
    assert not lock_path(db).exists(), "a finished runner removes its lock file"


@pytest.mark.slow
def test_a_sigkilled_runner_s_lock_is_taken_over(
    tmp_path: Path, marker: str, reference_db: Path
) -> None:
    config = tmp_path / "league.toml"
    config.write_text(league_toml(marker))
    db = tmp_path / "k.db"
    pid = sigkill_runner_once_stored(config, db, stored=2)
    assert lock_path(db).exists(), "SIGKILL leaves the lock file behind"
    assert wait_until(lambda: processes_with(marker) == [], timeout=20)
    again = run_arena("tournament", "run", str(config), "--db", str(db), cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    assert f"the previous runner (pid {pid} on " in again.stderr
    assert "taking over" in again.stderr
    assert results(db) == results(reference_db)


HOLD = """
import sys, time
from pathlib import Path
from arena.store.lock import RunnerLock
RunnerLock(Path(sys.argv[1])).acquire()
print("held", flush=True)
time.sleep(60)
"""


def test_the_lock_dies_with_its_holder(tmp_path: Path) -> None:
    db = tmp_path / "x.db"
    holder = subprocess.Popen([sys.executable, "-c", HOLD, str(db)], stdout=subprocess.PIPE,
                              text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "held\n"
        try:
            RunnerLock(db).acquire()
            raise AssertionError("a held lock was taken")
        except RunnerBusy as busy:
            assert f"pid {holder.pid} on {socket.gethostname()}" in str(busy)
        holder.send_signal(signal.SIGKILL)
        holder.wait()
    finally:
        holder.kill()
        holder.wait()
    assert json.loads(lock_path(db).read_text())["pid"] == holder.pid
    with RunnerLock(db) as lock:
        assert lock.taken_over is not None and f"pid {holder.pid}" in lock.taken_over
        assert json.loads(lock_path(db).read_text())["pid"] == os.getpid()
    assert not lock_path(db).exists()


def test_a_folder_that_cannot_hold_the_lock_is_a_clear_error(tmp_path: Path) -> None:
    try:
        RunnerLock(tmp_path / "missing" / "x.db").acquire()
        raise AssertionError("a lock was taken in a missing folder")
    except StoreError as exc:
        assert "cannot take the runner lock" in str(exc)


def test_a_lock_on_a_file_no_longer_at_its_path_is_not_kept(tmp_path: Path) -> None:
    path = lock_path(tmp_path / "x.db")
    old = os.open(path, os.O_RDWR | os.O_CREAT)
    path.unlink()
    path.touch()  # replaced, as by another runner, between the open and the lock
    new = os.open(path, os.O_RDWR)
    other = os.open(path, os.O_RDWR)
    try:
        assert _lock_current(old, path) is False
        assert _lock_current(new, path) is True
        with pytest.raises(BlockingIOError):
            _lock_current(other, path)
        path.unlink()
        assert _lock_current(new, path) is False
    finally:
        for fd in (old, new, other):
            os.close(fd)


def test_a_replaced_lock_file_is_noticed_by_its_holder_and_left_to_the_new_one(
    tmp_path: Path,
) -> None:
    db = tmp_path / "x.db"
    lock = RunnerLock(db).acquire()
    lock.check()  # held: nothing to say
    lock_path(db).unlink()
    with pytest.raises(RunnerLockLost):
        lock.check()
    second = subprocess.Popen([sys.executable, "-c", HOLD, str(db)], stdout=subprocess.PIPE,
                              text=True)
    try:
        assert second.stdout is not None and second.stdout.readline() == "held\n"
        with pytest.raises(RunnerLockLost) as lost:
            lock.check()
        assert str(lost.value) == (
            f"{db}: the runner lock file x.db.runner was removed or replaced while this runner "
            "held it, so another runner may be playing into this database; this one stopped "
            f"(every stored game is whole). Once no other runner plays: "
            f"arena tournament resume --db {db}"
        )
        lock.release()
        assert json.loads(lock_path(db).read_text())["pid"] == second.pid, "the new file stays"
        with pytest.raises(RunnerBusy, match=f"pid {second.pid} on "):
            RunnerLock(db).acquire()
    finally:
        second.kill()
        second.wait()


def test_a_runner_whose_lock_file_is_replaced_stores_no_further_game(tmp_path: Path) -> None:
    config = parse_config(
        {"name": "t", "game": "wongar", "table_size": 3, "deals": 1, "seed": 3,
         "time_control": "1s", "concurrency": 1,
         "bots": [{"name": f"r{i}", "bot": "random"} for i in range(3)]},
        source="test", base=tmp_path,
    )
    db = tmp_path / "t.db"
    with RunnerLock(db) as lock, Store(db) as store:

        def guard() -> None:
            """The lock's check; once a game is stored, the lock file is replaced first."""
            if store.tournaments() and store.stored_ids("t") and lock_path(db).exists():
                lock_path(db).unlink()
                lock_path(db).write_text("{}")
            lock.check()

        with pytest.raises(RunnerLockLost):
            run_tournament(config, store, LocalExecutor(1, pin_cpus=False), guard=guard)
        assert len(store.stored_ids("t")) == 1, "of 3 games, none stored once the lock was lost"


def test_run_stops_in_one_line_when_its_lock_file_is_replaced(tmp_path: Path, marker: str) -> None:
    gate = tmp_path / "gate"
    gate.touch()  # the bots hold their first decision while it exists: nothing can be stored
    config = tmp_path / "league.toml"
    config.write_text(league_toml(marker, gate=gate))
    db = tmp_path / "g.db"
    first = start_runner(config, db)
    try:
        assert wait_until(lambda: stored_count(db, "tournaments") == 1, timeout=90), "runner did not start"
        lock_path(db).unlink()
        lock_path(db).write_text("{}")  # as a second runner's lock file would be
        gate.unlink()
        _, err = first.communicate(timeout=120)
    finally:
        first.kill()
        first.wait()
    assert first.returncode == 2, err
    assert len(stderr_lines(err.strip())) == 1, err
    assert "the runner lock file g.db.runner was removed or replaced" in err
    assert lock_path(db).read_text() == "{}", "the other runner's file is left alone"
    with Store(db) as store:
        assert store.stored_ids("league") == set()
    assert wait_until(lambda: processes_with(marker) == [], timeout=20)


def test_read_only_commands_work_while_another_process_holds_the_lock(tmp_path: Path) -> None:
    db = tmp_path / "x.db"
    config = parse_config(
        {"name": "t", "game": "wongar", "table_size": 3, "time_control": "1s", "seed": 3,
         "bots": [{"name": f"r{i}", "bot": "random"} for i in range(3)]},
        source="test", base=tmp_path,
    )
    with Store(db) as store:
        store.add_tournament("t", config.fingerprint(), config.to_plain(), [])
    holder = subprocess.Popen([sys.executable, "-c", HOLD, str(db)], stdout=subprocess.PIPE,
                              text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "held\n"
        status = CliRunner().invoke(app, ["tournament", "status", "--db", str(db)])
        listed = CliRunner().invoke(app, ["games", "list", "--db", str(db), "--json"])
        refused = CliRunner().invoke(app, ["tournament", "resume", "--db", str(db)])
    finally:
        holder.kill()
        holder.wait()
    assert status.exit_code == 0 and "t: 0 of 3 games stored, 3 to play" in status.output
    assert listed.exit_code == 0 and listed.stdout == "" and stderr_lines(listed.stderr) == []
    assert refused.exit_code == 2 and f"pid {holder.pid} on " in refused.output


def test_the_lock_file_names_its_holder_and_the_refusal_describes_it(tmp_path: Path) -> None:
    assert _describe({"pid": 42, "host": "h", "since": 0}) == (
        "pid 42 on h, since 1970-01-01 00:00:00 UTC")
    assert _describe({"pid": 42}) == "pid 42 on ?, since an unknown time"
    assert _describe({}) == "holder unknown"
    db = tmp_path / "x.db"
    for foreign in ("not json", "[1, 2]"):  # left by something else: no holder to name
        lock_path(db).write_text(foreign)
        with RunnerLock(db) as lock:
            assert lock.taken_over is None
    with RunnerLock(db):
        holder = json.loads(lock_path(db).read_text())
    assert set(holder) == {"pid", "host", "since"}
    assert (holder["pid"], holder["host"]) == (os.getpid(), socket.gethostname())
    assert isinstance(holder["since"], float)
