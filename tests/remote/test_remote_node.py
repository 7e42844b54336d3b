"""The Node.js example bot as a remote seat of ``arena play --listen``, started exactly as
docs/remote.md tells an entrant: ``env $(cat alice.env) node bot.js``, or with ``--connect``."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from typer.testing import CliRunner

from arena.cli.app import app
from arena.record import MatchRecord
from remote_helpers import ROOT, stop, when_file_appears
from engine.registry import games

EXAMPLE = ROOT / "docs" / "examples" / "node-bot"
runner = CliRunner()


@pytest.fixture(scope="module")
def node_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A runnable copy of the example (its packages installed with npm)."""
    if shutil.which("node") is None or shutil.which("npm") is None:
        if os.environ.get("CI") == "true":
            pytest.fail("node and npm are needed to run the Node.js example bot")
        pytest.skip("node and npm are not installed")
    if (EXAMPLE / "node_modules" / "zeromq").is_dir():
        return EXAMPLE
    folder = tmp_path_factory.mktemp("node-bot")
    for name in ("bot.js", "package.json"):
        shutil.copy(EXAMPLE / name, folder / name)
    installed = subprocess.run(["npm", "install", "--no-audit", "--no-fund", "--loglevel=error"],
                               cwd=folder, capture_output=True, text=True, timeout=300, check=False)
    assert installed.returncode == 0, installed.stderr
    return folder


@pytest.mark.slow
@pytest.mark.parametrize("start", ["env $(cat {file}) node bot.js", "node bot.js --connect {file}"])
def test_the_node_example_plays_a_remote_seat(node_folder: Path, tmp_path: Path, start: str) -> None:
    game = next(iter(games().values()))
    file = tmp_path / "alice.env"
    command = f"cd {node_folder} && " + start.format(file=file)
    thread, started = when_file_appears(file, ["sh", "-c", command])
    record = tmp_path / "match.json"
    try:
        result = runner.invoke(app, [
            "play", game.name, "--listen", "tcp://127.0.0.1:*", "-b", "remote:alice",
            *(["-b", "random"] * (game.min_players - 1)), "--connect-dir", str(tmp_path),
            "--wait", "30", "--record", str(record)])
        thread.join(10)
    finally:
        outputs = [stop(process, wait=10) for process in started]
    assert result.exit_code == 0, (result.output, outputs)
    assert started and started[0].returncode == 0, outputs
    played = MatchRecord.from_wire(json.loads(record.read_text()))
    assert played.faults == () and played.bots[0] == "alice"
    mine = [d for d in played.decisions if d.seat == 0]
    assert mine and all(not d.fallback and d.info is not None and "form" in d.info for d in mine)
