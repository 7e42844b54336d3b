"""The tournament command line: plans, and a user's bad input exits 2 with a clear message."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from arena.cli.app import app
from arena.store.db import Store
from arena.tournament.cpus import slot_pinnings
from tournament_league import league_toml

runner = CliRunner()


def flat(text: str) -> str:
    """Output with Rich's line wrapping undone."""
    return "".join(text.split())


def says(output: str, message: str) -> bool:
    return flat(message) in flat(output)


def test_plan_prints_tables_games_and_generations(tmp_path: Path) -> None:
    path = tmp_path / "league.toml"
    path.write_text(league_toml("plan"))
    result = runner.invoke(app, ["tournament", "plan", str(path), "--deals", "2", "--games"],
                           env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert "tables 4, deals per table 2, games 24" in result.stdout
    assert "3 generations" in result.stdout
    trusted = runner.invoke(app, ["tournament", "plan", str(path), "--trusted"])
    assert "one process each (trusted)" in trusted.stdout
    slots = slot_pinnings(2, True)
    pinned = runner.invoke(app, ["tournament", "plan", str(path), "-j", "2", "--pin-cpus"])
    says_pinned = "each match slot runs on a processor of its own" in pinned.stdout
    assert says_pinned == (None not in slots)
    unpinned = runner.invoke(app, ["tournament", "plan", str(path), "-j", "2", "--no-pin-cpus"])
    assert unpinned.exit_code == 0 and "processor of its own" not in unpinned.stdout
    gauntlet = runner.invoke(app, ["tournament", "plan", str(path), "--format", "gauntlet",
                                   "--candidate", "r0", "--knob", "ceremony_points=off"])
    assert gauntlet.exit_code == 2
    assert says(gauntlet.stderr, "knob 'ceremony_points'")
    gauntlet = runner.invoke(app, ["tournament", "plan", str(path), "--format", "gauntlet",
                                   "--candidate", "r0"])
    assert gauntlet.exit_code == 0, gauntlet.output
    assert "tables 3, deals per table 1, games 9" in gauntlet.stdout


def test_bad_config_and_flags_exit_2_naming_the_problem(tmp_path: Path) -> None:
    path = tmp_path / "league.toml"
    path.write_text(league_toml("bad").replace("table_size = 3", "table_size = 9"))
    result = runner.invoke(app, ["tournament", "plan", str(path)])
    assert result.exit_code == 2
    assert says(result.stderr, "league.toml: table_size: 9 is larger than the field of 4")
    path.write_text(league_toml("bad"))
    result = runner.invoke(app, ["tournament", "run", str(path), "--db", str(tmp_path / "x.db"),
                                 "--time-control", "soon"])
    assert result.exit_code == 2
    assert says(result.stderr, "time_control") and says(result.stderr, "does not parse")
    assert not (tmp_path / "x.db").exists()


def test_missing_or_foreign_database_and_unknown_ids_exit_2(tmp_path: Path) -> None:
    absent = str(tmp_path / "absent.db")
    for args in (["games", "list", "--db", absent], ["tournament", "resume", "--db", absent]):
        result = runner.invoke(app, args)
        assert result.exit_code == 2 and says(result.stderr, "no results database")
    text = tmp_path / "notes.db"
    text.write_text("not a database")
    result = runner.invoke(app, ["tournament", "status", "--db", str(text)])
    assert result.exit_code == 2 and says(result.stderr, "not an SQLite database")
    empty = tmp_path / "empty.db"
    Store(empty).close()
    result = runner.invoke(app, ["replay", "abc123", "--db", str(empty)])
    assert result.exit_code == 2 and says(result.stderr, "no stored game 'abc123'")
    result = runner.invoke(app, ["tournament", "resume", "--db", str(empty)])
    assert result.exit_code == 2 and says(result.stderr, "name a tournament; stored: none")
