"""The swiss format: each round a pure function of the config and the stored results before it."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from tournament_league import results, run_arena
from typer.testing import CliRunner

from arena.cli.app import app
from arena.store.db import Store
from arena.tournament import TournamentError
from arena.tournament.config import TournamentConfig, parse_config
from arena.tournament.schedule import ScheduledGame, build_schedule, repeated_deals
from arena.tournament.swiss import Result, points, round_tables, standing_order
from engine.core import derive_seed


def swiss(bots: int = 8, table_size: int = 3, rounds: int = 3, seed: int = 4) -> TournamentConfig:
    raw: dict[str, object] = {
        "name": "sw", "game": "wongar", "table_size": table_size, "format": "swiss",
        "rounds": rounds, "time_control": "1s", "seed": seed,
        "bots": [{"name": f"b{i}", "bot": "random"} for i in range(bots)],
    }
    return parse_config(raw, source="test", base=Path.cwd())


def strength_order(game: ScheduledGame) -> Result:
    """A made-up result: the bot with the lower number always finishes higher."""
    order = sorted(game.bots, key=lambda b: int(b[1:]))
    return Result(game.bots, tuple(order.index(b) + 1 for b in game.bots))


def test_points_are_pairwise_and_exact() -> None:
    scored, games = points([Result(("a", "b", "c"), (1, 2, 2)), Result(("b", "a"), (1, 2))])
    assert scored == {"a": 4, "b": 1 + 2, "c": 1}
    assert games == {"a": 2, "b": 2, "c": 1}


def test_pods_are_cut_from_the_standings_and_byes_rotate() -> None:
    names = [f"b{i}" for i in range(7)]
    results = [Result(tuple(names), tuple(range(1, 8)))]  # b0 first ... b6 last
    assert standing_order(names, results, seed=1) == names
    tables, bye = round_tables(names, 3, results, {}, seed=1)
    assert tables == [("b0", "b1", "b2"), ("b3", "b4", "b5")] and bye == ["b6"]
    tables, bye = round_tables(names, 3, results, {"b6": 1}, seed=1)
    assert bye == ["b5"] and tables == [("b0", "b1", "b2"), ("b3", "b4", "b6")]


def test_rounds_form_only_once_the_round_before_is_stored() -> None:
    config = swiss()
    first = build_schedule(config)
    assert (first.formed, first.rounds, len(first)) == (1, 3, 3 * 2 * 3)
    assert len(first.games) == 6 and {g.wave for g in first} == {0}
    partial = {g.id: strength_order(g) for g in first.games[:-1]}
    assert build_schedule(config, partial).formed == 1
    done = {g.id: strength_order(g) for g in first}
    second = build_schedule(config, done)
    assert second.formed == 2 and len(second.games) == 12
    assert {g.id for g in first} <= {g.id for g in second}
    assert repeated_deals(second.games) == []


def test_the_next_round_is_a_pure_function_of_config_and_results() -> None:
    config = swiss(bots=9, rounds=4)
    results: dict[str, Result] = {}
    for _ in range(4):
        schedule = build_schedule(config, results)
        results.update({g.id: strength_order(g) for g in schedule if g.id not in results})
    final = build_schedule(config, results)
    shuffled = dict(reversed(list(results.items())))
    again = build_schedule(config, shuffled)
    assert [g.id for g in final] == [g.id for g in again] and final.formed == 4
    assert final.rounds_played(set(results)) == 4
    # the last round's pods: the standings after the three rounds before, cut in threes
    before = [results[g.id] for g in final if g.wave < 3]
    names = [f"b{i}" for i in range(9)]
    order = standing_order(names, before, derive_seed(config.seed, "swiss", 3))
    pods = [tuple(sorted(order[i : i + 3], key=names.index)) for i in range(0, 9, 3)]
    assert list(final.tables[9:]) == pods
    assert order[0] == "b0"  # it finished first at every table
    assert build_schedule(swiss(bots=9, rounds=4, seed=5), {}).tables != final.tables[:3]


def test_swiss_config_needs_rounds() -> None:
    with pytest.raises(TournamentError, match="rounds: missing"):
        parse_config({"name": "s", "game": "wongar", "table_size": 3, "format": "swiss",
                      "time_control": "1s",
                      "bots": [{"name": f"b{i}", "bot": "random"} for i in range(4)]}, "t",
                     Path.cwd())


@pytest.mark.slow
def test_a_killed_swiss_run_resumes_exactly(tmp_path: Path, reference_swiss: Path) -> None:
    """A run killed in its second round, resumed, stores exactly the uninterrupted run's games."""
    (tmp_path / "sw.toml").write_text(SWISS_TOML)
    code = "from arena.cli.app import main; main()"
    proc = subprocess.Popen(
        [sys.executable, "-c", code, "tournament", "run", "sw.toml", "--db", "sw.db"],
        cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
    )
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        if (tmp_path / "sw.db").exists() and _stored(tmp_path / "sw.db") > 7:
            break
        time.sleep(0.2)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    killed_at = _stored(tmp_path / "sw.db")
    assert 7 < killed_at < 18
    done = run_arena("tournament", "resume", "--db", "sw.db", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert results(tmp_path / "sw.db") == results(reference_swiss)
    status = run_arena("tournament", "status", "--db", "sw.db", cwd=tmp_path)
    assert "swiss: 3 of 3 rounds played" in status.stdout


def _stored(path: Path) -> int:
    try:
        with Store(path) as store:
            return len(store.stored_ids("sw")) if store.tournaments() else 0
    except Exception:  # the first write may still be under way
        return 0


SWISS_TOML = "\n".join(
    ['name = "sw"', 'game = "wongar"', "table_size = 3", 'format = "swiss"', "rounds = 3",
     'time_control = "2s/20s"', "seed = 9", "concurrency = 2"]
    + [f'[[bots]]\nname = "r{i}"\nbot = "random"\nenv = {{ ARENA_SEED = "{i}" }}' for i in range(6)]
) + "\n"


@pytest.fixture(scope="module")
def reference_swiss(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("swiss")
    (folder / "sw.toml").write_text(SWISS_TOML)
    done = run_arena("tournament", "run", "sw.toml", "--db", "sw.db", cwd=folder)
    assert done.returncode == 0, done.stderr
    return folder / "sw.db"


def test_plan_counts_every_round(tmp_path: Path) -> None:
    lines = ['name = "sw"', 'game = "wongar"', "table_size = 3", 'format = "swiss"', "rounds = 4",
             'time_control = "1s"', "seed = 1"]
    lines += [f'[[bots]]\nname = "b{i}"\nbot = "random"' for i in range(7)]
    (tmp_path / "sw.toml").write_text("\n".join(lines) + "\n")
    result = CliRunner().invoke(app, ["tournament", "plan", str(tmp_path / "sw.toml")])
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    assert "tables 8, deals per table 1, games 24" in text
    assert "swiss: 4 rounds of 2 tables" in text and "1 bots sit out each round" in text
