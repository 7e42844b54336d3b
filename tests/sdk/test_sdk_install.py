"""The bot SDK installed alone into a fresh virtual environment (``pip install ./sdk/python``, its
two dependencies from the package index or pip's cache) plays a whole match as a remote seat of
``arena play --listen``, joining with its connection file, as a bot author's friend would."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from polling import wait_until

from arena.record import MatchRecord

SDK = Path(__file__).resolve().parents[2] / "sdk" / "python"


def clean_env() -> dict[str, str]:
    """This environment without Arena's settings or an import path."""
    return {k: v for k, v in os.environ.items() if not k.startswith("ARENA_") and k != "PYTHONPATH"}


@pytest.mark.slow
def test_the_sdk_installed_alone_plays_a_match_from_a_connection_file(tmp_path: Path) -> None:
    sdk = shutil.copytree(SDK, tmp_path / "sdk-python",
                          ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__"))
    subprocess.run([sys.executable, "-m", "venv", str(tmp_path / "venv")], check=True, timeout=120)
    python = str(tmp_path / "venv" / "bin" / "python")
    install = subprocess.run([python, "-m", "pip", "install", "--quiet", str(sdk)], env=clean_env(),
                             capture_output=True, text=True, timeout=600)
    assert install.returncode == 0, install.stderr
    for package in ("engine", "protocols", "arena"):
        probe = subprocess.run([python, "-c", f"import {package}"], cwd=tmp_path, env=clean_env(),
                               capture_output=True, text=True, timeout=60)
        assert f"No module named '{package}'" in probe.stderr, "the fresh environment must lack Arena"

    record = tmp_path / "match.json"
    referee = subprocess.Popen(
        [sys.executable, "-c", "from arena.cli.app import main; main()", "play", "wongar",
         "--listen", "tcp://127.0.0.1:*", "-b", "remote:alice", "-b", "random", "-b", "random",
         "--connect-dir", str(tmp_path), "--wait", "120", "--seed", "5", "--record", str(record)],
        cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        connection = tmp_path / "alice.env"
        assert wait_until(connection.exists, timeout=60), "arena play wrote no connection file"
        bot = subprocess.run([python, str(sdk / "examples" / "random_bot.py"), "--connect", str(connection)],
                             cwd=tmp_path, env=clean_env(), capture_output=True, text=True, timeout=300)
        out, err = referee.communicate(timeout=120)
    finally:
        referee.kill()
        referee.wait()
    assert bot.returncode == 0, bot.stderr
    assert referee.returncode == 0, err
    played = MatchRecord.from_wire(json.loads(record.read_text()))
    assert played.bots[0] == "alice" and played.faults == ()
    mine = [d for d in played.decisions if d.seat == 0]
    assert mine and not any(d.fallback for d in mine)
    assert all(d.info is not None and d.info["options"] >= 1 for d in mine)
