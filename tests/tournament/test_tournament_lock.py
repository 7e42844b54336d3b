"""One runner per database: a second runner is refused naming the first, read-only commands work
meanwhile, and a runner killed with SIGKILL leaves a lock the next runner takes over."""

from __future__ import annotations

import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from polling import wait_until
from test_tournament_resume import sigkill_runner_once_stored, start_runner
from tournament_league import league_toml, processes_with, results, run_arena

from arena.store import StoreError
from arena.store.lock import RunnerBusy, RunnerLock, lock_path


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
        assert wait_until(lambda: tournaments(db) == 1, timeout=90), "runner did not start"
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


def tournaments(db: Path) -> int:
    """Tournaments stored in ``db`` (0 while it cannot be read)."""
    try:
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
            return int(conn.execute("SELECT count(*) FROM tournaments").fetchone()[0])
    except sqlite3.Error:
        return 0


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
