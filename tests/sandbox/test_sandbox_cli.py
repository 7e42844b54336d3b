"""The command line and the sandbox: refusal without one (one line naming the fix), --no-sandbox
(stored and published as such), ``arena doctor``, trusted manifests, the database's permissions."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from arena.manifest import ManifestError, load_manifest
from arena.store.db import Store

ARENA = str(Path(sys.executable).with_name("arena"))
ROOT = Path(__file__).parents[2]
NO_BWRAP = {"ARENA_BWRAP": "/nonexistent/bwrap"}


def arena(*args: str, env: dict[str, str] | None = None, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run([ARENA, *args], capture_output=True, text=True, timeout=300, cwd=cwd,
                          env={**os.environ, "COLUMNS": "300", **(env or {})}, check=False)


def untrusted(folder: Path) -> str:
    """A manifest of an untrusted bot (raw ZeroMQ, answers with the first legal action)."""
    folder.chmod(0o755)
    bot = ROOT / "tests" / "referee" / "botprograms" / "misbehave.py"
    manifest = folder / "echo.toml"
    manifest.write_text(f'name = "echo"\ncommand = ["{sys.executable}", "{bot}", "echo"]\n')
    return str(manifest)


def test_untrusted_play_is_refused_without_bubblewrap_and_allowed_with_no_sandbox(tmp_path: Path) -> None:
    bot = untrusted(tmp_path)
    refused = arena("play", "wongar", "-b", "random", "-b", "random", "-b", bot, env=NO_BWRAP)
    assert refused.returncode == 2
    error = [line for line in refused.stderr.splitlines() if line.startswith("error:")]
    assert len(error) == 1 and "bubblewrap is missing" in error[0] and "apt-get install bubblewrap" in error[0]
    assert "--no-sandbox" in error[0]
    assert refused.stderr.startswith("note: bubblewrap is missing")
    played = arena("play", "wongar", "-b", "random", "-b", "random", "-b", bot, "--tc", "300ms",
                   "--no-sandbox", env=NO_BWRAP)
    assert played.returncode == 0, played.stderr
    assert "fault seat" not in played.stdout
    builtins = arena("play", "wongar", "-b", "random", "-b", "random", "-b", "greedy", "--tc", "100ms",
                     env=NO_BWRAP)
    assert builtins.returncode == 0, "built-in bots are trusted and need no sandbox"


def test_an_untrusted_match_records_each_decisions_cpu_time(tmp_path: Path) -> None:
    bot = untrusted(tmp_path)
    played = arena("play", "wongar", "-b", bot, "-b", "random", "-b", "random", "--tc", "300ms",
                   "--seed", "3", "--record", str(tmp_path / "match.json"))
    assert played.returncode == 0, played.stderr
    record = json.loads((tmp_path / "match.json").read_text())
    # The built-in bots' too: they have control groups of their own, outside the sandbox.
    assert len(record["cpu"]) == len(record["decisions"])
    assert all(cpu is not None and 0 <= cpu < 1 for cpu in record["cpu"])
    assert record["detail"]["clock"] == "cpu"  # every bot is, sandboxed or trusted


def test_an_unsandboxed_tournament_is_stored_and_published_as_such(tmp_path: Path) -> None:
    bot = untrusted(tmp_path)
    config = tmp_path / "t.toml"
    config.write_text(f'name = "t"\ngame = "wongar"\ntable_size = 3\ndeals = 1\nseed = 1\n'
                      f'time_control = "300ms"\nconcurrency = 1\n'
                      f'[[bots]]\nname = "echo"\nbot = "{bot}"\n'
                      f'[[bots]]\nname = "random"\nbot = "random"\n'
                      f'[[bots]]\nname = "greedy"\nbot = "greedy"\n')
    db = tmp_path / "t.db"
    refused = arena("tournament", "run", str(config), "--db", str(db), env=NO_BWRAP)
    assert refused.returncode == 2 and "--no-sandbox" in refused.stderr
    assert not db.exists(), "a refused run leaves no database"
    run = arena("tournament", "run", str(config), "--db", str(db), "--no-sandbox", env=NO_BWRAP)
    assert run.returncode == 0, run.stderr
    assert db.stat().st_mode & 0o777 == 0o600
    with Store(db) as store:
        assert store.tournament("t").config["sandbox"] is False
    site = tmp_path / "site"
    published = arena("publish", "--db", str(db), "--out", str(site))
    assert published.returncode == 0, published.stderr
    board = json.loads((site / "leaderboard.json").read_text())
    assert board["tournament"]["settings"]["sandbox"] is False


@pytest.mark.sandbox
def test_doctor_reports_the_machine_and_every_escape_held() -> None:
    done = arena("doctor")
    assert done.returncode == 0, done.stdout + done.stderr
    for layer in ("bubblewrap", "user namespaces", "control groups", "running as", "sandbox: works"):
        assert layer in done.stdout
    assert "FAILED" not in done.stdout and done.stdout.count("held: blocked") >= 7
    for observed in ("see the files beside it", "keep supplementary groups", "keep privileges"):
        assert observed in done.stdout
    missing = arena("doctor", env=NO_BWRAP)
    assert missing.returncode == 1 and "bubblewrap is missing" in missing.stdout


def test_trusted_is_a_manifest_key_of_true_or_false(tmp_path: Path) -> None:
    path = tmp_path / "bot.toml"
    path.write_text(f'name = "n"\ncommand = "{sys.executable}"\ntrusted = true\n')
    assert load_manifest(path).trusted is True
    path.write_text(f'name = "n"\ncommand = "{sys.executable}"\n')
    assert load_manifest(path).trusted is False
    path.write_text(f'name = "n"\ncommand = "{sys.executable}"\ntrusted = "yes"\n')
    with pytest.raises(ManifestError, match="'trusted' must be true or false"):
        load_manifest(path)


def test_the_database_and_its_wal_are_readable_by_the_owner_alone(tmp_path: Path) -> None:
    path = tmp_path / "new.db"
    with Store(path) as store:
        store.schema_version()
        wal = Path(f"{path}-wal")
        assert path.stat().st_mode & 0o777 == 0o600
        assert not wal.exists() or wal.stat().st_mode & 0o777 == 0o600
