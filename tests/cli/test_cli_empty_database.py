"""An empty file given as the results database is refused in one line by every command that reads
one, and left as it is: a read must not turn it into a store."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from arena.cli.app import app

runner = CliRunner()


@pytest.mark.parametrize(
    "command",
    [
        ["leaderboard"],
        ["games", "list"],
        ["tournament", "status"],
        ["tournament", "verify"],
        ["league", "status"],
        ["league", "add", "late", "random"],
        ["publish", "--out", "{tmp}/site"],
    ],
    ids=" ".join,
)
def test_an_empty_file_is_no_results_database(tmp_path: Path, command: list[str]) -> None:
    empty = tmp_path / "empty.db"
    empty.touch()
    result = runner.invoke(app, [*(a.format(tmp=tmp_path) for a in command), "--db", str(empty)])
    assert result.exit_code == 2, result.output
    assert " ".join(result.output.split()).endswith(
        f"error: {empty}: an empty file, not a results database (give --db PATH)")
    assert empty.stat().st_size == 0 and sorted(p.name for p in tmp_path.iterdir()) == ["empty.db"]
