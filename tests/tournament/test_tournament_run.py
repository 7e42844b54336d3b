"""A tournament played end to end with real bot processes, the real referee and a real store."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import pytest
from cli_messages import stderr_lines
from typer.testing import CliRunner

from arena.cli.app import app
from arena.store.db import Store
from arena.tournament.config import load_config
from arena.tournament.schedule import build_schedule
from engine.core import replay
from engine.registry import get_game
from tournament_league import league_toml, processes_with, results, run_arena

@pytest.mark.slow
def test_run_stores_every_game_replayable_with_no_process_meeting_a_deal_twice(
    tmp_path: Path, marker: str, reference_db: Path
) -> None:
    config_path = tmp_path / "league.toml"
    config_path.write_text(league_toml(marker))
    done = run_arena("tournament", "run", str(config_path), "--db", "r.db", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "played 12 games" in done.stdout
    assert processes_with(marker) == [], "every bot process is reaped"

    schedule = build_schedule(load_config(config_path))
    with Store(tmp_path / "r.db") as store:
        stored = {g.placement.game_id: g for g in store.games("league")}
        bots = store.bots("league")
    assert set(stored) == {g.id for g in schedule}
    assert {b.name for b in bots} == {"r0", "r1", "r2", "r3"}
    assert len({b.files_hash for b in bots}) == 1, "the same built-in bot, the same files"
    game = get_game("wongar")
    seeds_by_process: dict[str, list[int]] = defaultdict(list)
    generation_of: dict[str, set[int]] = defaultdict(set)
    for planned in schedule:
        got = stored[planned.id]
        assert got.record.bots == planned.bots and got.record.seed == planned.seed
        assert not got.record.faults
        state = replay(game, got.record.config, got.record.seed,
                       [(d.seat, d.action) for d in got.record.decisions])
        assert state.result().scores == got.record.scores
        for label in got.processes:
            seeds_by_process[label].append(planned.seed)
            generation_of[label].add(planned.generation)
    assert all(len(s) == len(set(s)) for s in seeds_by_process.values()), "a deal met twice"
    assert all(len(g) == 1 for g in generation_of.values())
    assert len(seeds_by_process) < 12 * 3, "processes are reused across games"

    assert results(tmp_path / "r.db") == results(reference_db), "seeded bots: same results"

    again = CliRunner().invoke(app, ["tournament", "status", "--db", str(tmp_path / "r.db")])
    assert again.exit_code == 0
    assert "12 of 12 games stored, 0 to play" in again.stdout
    listed = CliRunner().invoke(app, ["games", "list", "--db", str(tmp_path / "r.db"),
                                      "--bot", "r0", "--json"])
    assert listed.exit_code == 0
    assert len(listed.stdout.splitlines()) == 9
    first = schedule.games[0].id
    shown = CliRunner().invoke(app, ["replay", first, "--db", str(tmp_path / "r.db"),
                                     "--seat", "1", "--no-step"])
    assert shown.exit_code == 0, shown.output
    assert "decision 1/" in shown.stdout and "result" in shown.stdout


def test_a_bot_that_cannot_start_at_all_stops_the_run_before_any_game(tmp_path: Path) -> None:
    (tmp_path / "broken.toml").write_text(
        'name = "broken"\nversion = "0"\ntrusted = true\n'
        'command = ["sh", "-c", "echo no luck; exit 3"]\n'
    )
    text = league_toml("broken", bots=2, table_size=3) + '[[bots]]\nbot = "broken.toml"\n'
    (tmp_path / "league.toml").write_text(text)
    done = run_arena("tournament", "run", "league.toml", "--db", "b.db", cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    assert len(stderr_lines(done.stderr.strip())) == 1, done.stderr
    assert "bot 'broken' cannot start" in done.stderr and "no luck" in done.stderr
    assert "Nothing was played" in done.stderr
    assert not (tmp_path / "b.db").exists(), "no empty database is left behind"

