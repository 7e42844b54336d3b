"""Nothing left behind: no resource-tracker warnings however the runner ends, and the temporary
folders of a killed worker or runner are removed when the next runner starts."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from polling import wait_until
from stored_rows import stored_count
from tournament_league import league_toml, processes_with, results

pytestmark = pytest.mark.slow

ARENA = [sys.executable, "-c", "from arena.cli.app import main; main()"]


@pytest.fixture
def short_tmp() -> Iterator[Path]:
    """A temporary folder with a short path (socket paths inside it must stay short)."""
    folder = Path(tempfile.mkdtemp(prefix="at-", dir="/tmp"))
    yield folder
    subprocess.run(["rm", "-rf", str(folder)], check=False)


def runner(config: Path, db: Path, tmp: Path | None = None) -> subprocess.Popen[str]:
    env = dict(os.environ)
    if tmp is not None:
        env["TMPDIR"] = str(tmp)
    return subprocess.Popen([*ARENA, "tournament", "run", str(config), "--db", str(db)],
                            cwd=config.parent, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            text=True, env=env)


def resumer(db: Path, tmp: Path) -> subprocess.Popen[str]:
    """``arena tournament resume`` of ``db`` with ``tmp`` as its temporary folder."""
    return subprocess.Popen([*ARENA, "tournament", "resume", "--db", str(db)], cwd=db.parent,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "TMPDIR": str(tmp)})


@pytest.mark.parametrize("stop", [
    None,
    signal.SIGKILL,
    signal.SIGTERM,
    signal.SIGHUP,
    signal.SIGINT,
])
def test_no_resource_tracker_warnings(
    tmp_path: Path, marker: str, stop: signal.Signals | None
) -> None:
    config = tmp_path / "league.toml"
    config.write_text(league_toml(marker, pause=0.01 if stop else 0.0))
    db = tmp_path / "w.db"
    running = runner(config, db)
    try:
        if stop is not None:
            assert wait_until(lambda: stored_count(db) >= 1, timeout=90)
            running.send_signal(stop)
        _, stderr = running.communicate(timeout=120)  # until every holder of stderr is gone
    finally:
        running.kill()
        running.wait()
    assert "resource_tracker:" not in stderr and "leaked semaphore" not in stderr, stderr
    assert wait_until(lambda: processes_with(marker) == [], timeout=20)


def test_a_killed_worker_s_folders_are_removed_at_the_next_start(
    tmp_path: Path, marker: str, short_tmp: Path, reference_db: Path
) -> None:
    config = tmp_path / "league.toml"
    config.write_text(league_toml(marker, pause=0.02))
    db = tmp_path / "f.db"
    running = runner(config, db, short_tmp)
    try:
        assert wait_until(lambda: stored_count(db) >= 1, timeout=90)
        folders = sorted(short_tmp.glob("arena-worker-*"))
        assert len(folders) == 2 and all(any(f.glob("arena-hub-*")) for f in folders)
        victim = folders[0]
        os.kill(int(victim.name.split("-")[2]), signal.SIGKILL)
        _, stderr = running.communicate(timeout=60)
    finally:
        running.kill()
        running.wait()
    assert running.returncode == 2
    assert "stopped (exit status -9)" in stderr and "arena tournament resume" in stderr
    assert victim.exists(), "a killed worker cannot clean up"
    assert wait_until(lambda: processes_with(marker) == [], timeout=20)

    resumed = subprocess.run([*ARENA, "tournament", "resume", "--db", str(db)], cwd=tmp_path,
                             capture_output=True, text=True, timeout=120,
                             env={**os.environ, "TMPDIR": str(short_tmp)})
    assert resumed.returncode == 0, resumed.stderr
    assert list(short_tmp.iterdir()) == [], "the next start removed what the killed worker left"
    assert results(db) == results(reference_db)



def start_check_folders(tmp: Path) -> int:
    """Private folders under ``tmp`` of bots the runner itself started (its start check), not a
    worker's."""
    try:
        found = [p for p in tmp.rglob("arena-bot-*")
                 if not p.relative_to(tmp).parts[0].startswith("arena-worker-")]
    except OSError:  # a folder vanished while it was read
        return 0
    return len(found)



@pytest.mark.parametrize("when", ["in its start check", "after a stored game"])
def test_a_killed_runner_leaves_nothing_in_the_temporary_folder_after_the_next_start(
    tmp_path: Path, marker: str, short_tmp: Path, when: str
) -> None:
    gate = tmp_path / "hold-hello"
    config = tmp_path / "league.toml"
    if when == "in its start check":
        gate.touch()
        config.write_text(league_toml(marker, bots=3, hello_gate=gate))
    else:
        config.write_text(league_toml(marker, bots=3, pause=0.02))
    db = tmp_path / "k.db"
    running = runner(config, db, short_tmp)
    try:
        if gate.exists():  # its three bots started, each held before its hello
            assert wait_until(lambda: start_check_folders(short_tmp) == 3, timeout=90)
        else:
            assert wait_until(lambda: stored_count(db) >= 1, timeout=90)
        running.kill()
        running.wait()
    finally:
        running.kill()
        running.wait()
        gate.unlink(missing_ok=True)
    assert wait_until(lambda: processes_with(marker) == [], timeout=20)
    assert any(short_tmp.iterdir()), "a killed runner cannot clean up"

    # Killed before its tournament was stored, the next start is a run again; else a resume.
    stored = stored_count(db)
    again = runner(config, db, short_tmp) if stored == 0 else resumer(db, short_tmp)
    _, stderr = again.communicate(timeout=300)
    assert again.returncode == 0, stderr
    assert stored_count(db) > max(stored, 1)
    assert list(short_tmp.iterdir()) == [], "the next start removed what the killed runner left"
