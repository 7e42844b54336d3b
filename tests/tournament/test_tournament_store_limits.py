"""A store on a read-only mount serves every read-only command and refuses writes by saying so; a
full disk mid-run says how many games are stored and resumes to the uninterrupted results."""

from __future__ import annotations

import os
import resource
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from tournament_league import league_toml, results

from arena.store.db import Store

pytestmark = pytest.mark.slow

ARENA = f"{sys.executable} -c 'from arena.cli.app import main; main()'"


def read_only(folder: Path, command: str) -> subprocess.CompletedProcess[str]:
    """Run ``command`` (shell) with ``folder`` bind-mounted read-only over itself."""
    script = f"mount --bind -o ro {folder} {folder} && cd {folder} && {command}"
    return subprocess.run(["unshare", "-r", "--mount", "sh", "-c", script],
                          capture_output=True, text=True, timeout=120)


def test_a_read_only_store_serves_reads_and_refuses_writes(
    tmp_path: Path, reference_db: Path
) -> None:
    if shutil.which("unshare") is None or read_only(tmp_path, "true").returncode != 0:
        pytest.skip("no read-only bind mounts here (unshare -r --mount)")
    folder = tmp_path / "ro"
    folder.mkdir()
    shutil.copy(reference_db, folder / "league.db")
    (folder / "league.toml").write_text(league_toml(f"ro-{os.getpid()}"))
    before = (folder / "league.db").read_bytes()
    for command, expect in [
        ("tournament status --db league.db", "12 of 12 games stored"),
        ("leaderboard --db league.db --format md", "| r0 |"),
        ("games list --db league.db --json", '"tournament": "league"'),
        (f"publish --db league.db --out {tmp_path / 'site'}", "index.html"),
    ]:
        done = read_only(folder, f"{ARENA} {command}")
        assert done.returncode == 0, (command, done.stderr)
        assert expect in done.stdout, command
    for command in ("tournament run league.toml --db league.db", "tournament resume --db league.db"):
        done = read_only(folder, f"{ARENA} {command}")
        assert done.returncode == 2, (command, done.stderr)
        assert len(done.stderr.strip().splitlines()) == 1, done.stderr
        assert "league.db" in done.stderr and "writable" in done.stderr, done.stderr
    assert (folder / "league.db").read_bytes() == before
    assert sorted(p.name for p in folder.iterdir()) == ["league.db", "league.toml"]


def _limit_file_size(limit: int) -> None:
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails instead
    resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))


def test_a_full_disk_mid_run_says_what_is_stored(tmp_path: Path, reference_db: Path) -> None:
    config = tmp_path / "league.toml"
    config.write_text(league_toml(f"full-{os.getpid()}"))
    db = tmp_path / "full.db"
    Store(db).close()  # the schema is in place, so the limit bites on games, not on migrations
    full = subprocess.run(
        [sys.executable, "-c", "from arena.cli.app import main; main()", "tournament", "run",
         str(config), "--db", str(db)],
        cwd=tmp_path, capture_output=True, text=True, timeout=120,
        preexec_fn=lambda: _limit_file_size(200 * 1024),
    )
    with Store(db) as store:
        stored = len(store.stored_ids("league"))
    assert full.returncode == 2, full.stderr
    assert 0 < stored < 12
    assert len(full.stderr.strip().splitlines()) == 1, full.stderr
    assert "write failed" in full.stderr and "nothing stored" not in full.stderr
    assert f"{stored} of 12 games are stored" in full.stderr
    assert f"arena tournament resume --db {db}" in full.stderr
    resumed = subprocess.run(
        [sys.executable, "-c", "from arena.cli.app import main; main()", "tournament", "resume",
         "--db", str(db)], cwd=tmp_path, capture_output=True, text=True, timeout=120,
    )
    assert resumed.returncode == 0, resumed.stderr
    assert results(db) == results(reference_db)
