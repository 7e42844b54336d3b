"""Late entries: `arena tournament add-bot` adds tables for a new bot and changes no stored game."""

from __future__ import annotations

import itertools
import shutil
from collections import Counter
from pathlib import Path

import pytest
from tournament_league import results, run_arena
from typer.testing import CliRunner

from arena.cli.app import app
from arena.store.db import Store
from arena.tournament.config import config_from_plain, parse_config
from arena.tournament.schedule import build_schedule

runner = CliRunner()


def copy_db(source: Path, folder: Path) -> Path:
    """A copy of a results database (and its WAL files, if any)."""
    for suffix in ("", "-wal", "-shm"):
        found = source.with_name(source.name + suffix)
        if found.exists():
            shutil.copy(found, folder / ("l.db" + suffix))
    return folder / "l.db"


@pytest.mark.slow
def test_add_bot_keeps_every_stored_game_and_records_the_entry(
    tmp_path: Path, reference_db: Path
) -> None:
    db = copy_db(reference_db, tmp_path)
    with Store(db) as store:
        before = store.tournament("league")
    done = runner.invoke(app, ["tournament", "add-bot", "random", "--name", "late", "--db", str(db)])
    assert done.exit_code == 0, done.output
    assert "added late to league: 18 new games (30 in all)" in " ".join(done.output.split())
    assert results(db) == results(reference_db)  # no stored game changed
    with Store(db) as store:
        row = store.tournament("league")
        stored = store.games("league")
        assert "late" in {b.name for b in store.bots("league")}
        assert [b.build for b in store.builds("league") if b.bot == "late"] == [1]
    config = config_from_plain(row.config)
    assert config.late_entries == ("late",) and config.bots[-1].name == "late"
    assert row.fingerprint == config.fingerprint() != before.fingerprint
    schedule = build_schedule(config).by_id()
    for game in stored:  # same id, same place in the schedule
        planned = schedule[game.placement.game_id]
        assert (planned.table, planned.deal, planned.rotation, planned.generation, planned.bots) == (
            game.placement.table, game.placement.deal, game.placement.rotation,
            game.placement.generation, game.record.bots)
    new = [g for g in schedule.values() if g.id not in {s.placement.game_id for s in stored}]
    assert len(new) == 18 and all("late" in g.bots for g in new)
    assert {frozenset(g.bots) for g in new} == {
        frozenset({*pair, "late"}) for pair in itertools.combinations(["r0", "r1", "r2", "r3"], 2)
    }


@pytest.mark.slow
def test_add_bot_refusals_leave_the_store_unchanged(tmp_path: Path, reference_db: Path) -> None:
    db = copy_db(reference_db, tmp_path)
    with Store(db) as store:
        before = store.tournament("league")
    same = runner.invoke(app, ["tournament", "add-bot", "random", "--name", "r1", "--db", str(db)])
    assert same.exit_code == 2 and "already has a bot named 'r1'" in same.output
    missing = runner.invoke(app, ["tournament", "add-bot", "./no-such-bot", "--db", str(db)])
    assert missing.exit_code == 2 and "add-bot:" in missing.output
    with Store(db) as store:
        assert store.tournament("league") == before
        gauntlet = parse_config(
            {"name": "g", "game": "wongar", "table_size": 2, "format": "gauntlet",
             "candidates": ["a"], "time_control": "1s", "seed": 1,
             "bots": [{"name": "a", "bot": "random"}, {"name": "b", "bot": "random"}]},
            "t", Path.cwd())
        store.add_tournament("g", gauntlet.fingerprint(), gauntlet.to_plain(), [])
    refused = runner.invoke(app, ["tournament", "add-bot", "random", "--name", "c", "-t", "g",
                                  "--db", str(db)])
    assert refused.exit_code == 2 and "a gauntlet tournament takes no late entries" in refused.output


def test_late_entries_of_a_sampled_draw_follow_its_tables() -> None:
    bots = [{"name": f"b{i}", "bot": "random"} for i in range(12)]
    raw: dict[str, object] = {
        "name": "s", "game": "wongar", "table_size": 4, "format": "sampled", "tables_per_bot": 6,
        "time_control": "1s", "seed": 2, "bots": bots,
    }
    first = build_schedule(parse_config(raw, "t", Path.cwd()))
    raw["bots"] = [*bots, {"name": "x", "bot": "random"}]
    raw["late_entries"] = ["x"]
    later = build_schedule(parse_config(raw, "t", Path.cwd()))
    assert later.tables[: len(first.tables)] == first.tables
    assert {g.id for g in first} < {g.id for g in later}
    extra = later.tables[len(first.tables):]
    assert len(extra) == 6 and all("x" in t for t in extra)
    met = Counter(b for t in extra for b in t if b != "x")
    assert len(met) == 12 and set(met.values()) == {1, 2}  # 18 seats, 12 bots: as even as can be


@pytest.mark.slow
def test_resume_plays_only_the_late_entrys_games(tmp_path: Path, reference_db: Path) -> None:
    db = copy_db(reference_db, tmp_path)
    added = run_arena("tournament", "add-bot", "random", "--name", "late", "--db", "l.db",
                      cwd=tmp_path)
    assert added.returncode == 0, added.stderr
    done = run_arena("tournament", "resume", "--db", "l.db", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "played 18 games (12 were already stored); 30 of 30 stored" in " ".join(
        done.stdout.split())
    now = results(db)
    old = results(reference_db)
    assert {k: now[k] for k in old} == old
    assert all("late" in str(game[2]) for key, game in now.items() if key not in old)
