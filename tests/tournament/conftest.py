"""Fixtures for tournament tests."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from tournament_league import league_toml, run_arena


@pytest.fixture
def marker(tmp_path: Path) -> str:
    """A string unique to this test, put in every bot's environment."""
    return f"arena-test-{os.getpid()}-{tmp_path.name}"


@pytest.fixture(scope="session")
def reference_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The small league played once, uninterrupted, by the command line: the expected results."""
    folder = tmp_path_factory.mktemp("reference")
    config = folder / "league.toml"
    config.write_text(league_toml(f"arena-test-{os.getpid()}-reference"))
    done = run_arena("tournament", "run", str(config), "--db", "ref.db", cwd=folder)
    assert done.returncode == 0, done.stderr
    return folder / "ref.db"
