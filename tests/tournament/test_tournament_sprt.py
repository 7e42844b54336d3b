"""Early stopping: the generalised SPRT on duplicate-block scores, its blocks, its schedule, its run."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from json_schema import violations
from typer.testing import CliRunner
from tournament_league import run_arena

from arena.cli.app import app
from arena.record import MatchRecord
from arena.store.db import Placement, Store
from arena.tournament import TournamentError
from arena.tournament.builds import current_builds
from arena.tournament.config import parse_config
from arena.tournament.executors import LocalExecutor
from arena.tournament.runner import run_tournament
from arena.tournament.schedule import build_schedule, repeated_deals
from arena.tournament.sprt import SprtMonitor, stored_sprt
from leaderboards.build import build_leaderboard
from leaderboards.model import RatingSettings, Rounds, TournamentInfo
from leaderboards.render_html import render_html
from leaderboards.render_json import leaderboard_data, schema
from leaderboards.render_markdown import render_markdown
from leaderboards.results import RatedGame
from leaderboards.sprt import SprtError, SprtSettings, elo_to_score, score_to_elo, sprt

RULE = SprtSettings(elo0=0, elo1=10, alpha=0.05, beta=0.05)


def test_bounds_are_walds() -> None:
    assert math.isclose(RULE.lower, math.log(0.05 / 0.95))
    assert math.isclose(RULE.upper, math.log(0.95 / 0.05))
    assert math.isclose(RULE.upper, 2.9444389791664403)


def test_two_valued_blocks_give_the_bernoulli_llr() -> None:
    s0, s1 = 0.5, 1 / (1 + 10 ** (-10 / 400))
    expected = 60 * math.log(s1 / s0) + 40 * math.log((1 - s1) / (1 - s0))
    result = sprt("c", {0.0: 40, 1.0: 60}, RULE)
    assert math.isclose(result.llr, expected, rel_tol=1e-9)
    assert math.isclose(result.llr, 0.5342309120165980, rel_tol=1e-9)
    assert result.blocks == 100 and result.score == 0.6 and result.verdict is None


def _three_valued_llr(counts: tuple[int, int, int], s0: float, s1: float) -> float:
    """The maximum-likelihood distributions on scores 0, 1/2, 1 with a given mean, by the quadratic
    that Σ f_j d_j / (1 + λ d_j) = 0 becomes (the root keeping every 1 + λ d_j positive)."""
    total = sum(counts)
    f = [c / total for c in counts]

    def log_factors(s: float) -> list[float]:
        d = [0 - s, 0.5 - s, 1 - s]
        # Σ_j f_j d_j Π_{i≠j} (1 + λ d_i) = a λ² + b λ + c
        a = sum(f[j] * d[j] * math.prod(d[i] for i in range(3) if i != j) for j in range(3))
        b = sum(f[j] * d[j] * sum(d[i] for i in range(3) if i != j) for j in range(3))
        c = sum(f[j] * d[j] for j in range(3))
        roots = [(-b + sign * math.sqrt(b * b - 4 * a * c)) / (2 * a) for sign in (1, -1)]
        lam = next(r for r in roots if all(1 + r * dj > 0 for dj in d))
        return [math.log1p(lam * dj) for dj in d]

    l0, l1 = log_factors(s0), log_factors(s1)
    return sum(n * (a - b) for n, a, b in zip(counts, l0, l1))


@pytest.mark.parametrize("counts", [(10, 30, 20), (25, 50, 25), (3, 4, 30)])
def test_three_valued_blocks_match_the_closed_form(counts: tuple[int, int, int]) -> None:
    settings = SprtSettings(elo0=-5, elo1=20)
    expected = _three_valued_llr(counts, elo_to_score(-5), elo_to_score(20))
    result = sprt("c", dict(zip((0.0, 0.5, 1.0), counts)), settings)
    assert math.isclose(result.llr, expected, rel_tol=1e-9, abs_tol=1e-12)


def test_verdicts_at_the_bounds_and_score_elo() -> None:
    assert sprt("c", {1.0: 40, 0.0: 10}, RULE).verdict is None
    assert sprt("c", {1.0: 600, 0.0: 400}, RULE).verdict == "H1"
    assert sprt("c", {1.0: 400, 0.0: 600}, RULE).verdict == "H0"
    assert sprt("c", {}, RULE).llr == 0.0
    assert math.isclose(score_to_elo(elo_to_score(37.5)), 37.5)
    # only draws: evidence for elo0 = 0 against elo1 = 10 (the pseudo-counts keep it finite)
    draws = sprt("c", {0.5: 200}, RULE)
    assert draws.llr < 0 and math.isfinite(draws.llr)


@pytest.mark.parametrize(
    ("values", "problem"),
    [
        ({"elo0": 10, "elo1": 0}, "must be below"),
        ({"alpha": 0.0}, "alpha must be between 0 and 0.5"),
        ({"beta": 0.7}, "beta must be between 0 and 0.5"),
    ],
)
def test_bad_settings_are_refused(values: dict[str, float], problem: str) -> None:
    with pytest.raises(SprtError, match=problem):
        SprtSettings(**values)


def gauntlet(deals: int = 40, **extra: object) -> dict[str, object]:
    return {
        "name": "g", "game": "wongar", "table_size": 3, "format": "gauntlet",
        "candidates": ["c"], "deals": deals, "time_control": "1s", "seed": 3,
        "sprt": {"elo0": 0, "elo1": 10}, **extra,
        "bots": [{"name": n, "bot": "random"} for n in ("c", "p1", "p2")],
    }


def test_a_block_counts_once_all_its_rotations_are_in() -> None:
    config = parse_config(gauntlet(), source="test", base=Path.cwd())
    monitor = SprtMonitor(config)
    monitor.add(0, 0, ("c", "p1", "p2"), (1, 2, 3))  # 4 of 4 pairwise points
    monitor.add(0, 0, ("p2", "c", "p1"), (1, 2, 2))  # 1 (a tie) of 4
    assert monitor.result().blocks == 0
    monitor.add(0, 1, ("c", "p1", "p2"), (3, 1, 2))  # another block: 0 of 4
    monitor.add(0, 0, ("p1", "p2", "c"), (1, 2, 3))  # 0 of 4: block (0, 0) scores 5/12
    result = monitor.result()
    assert result.blocks == 1 and math.isclose(result.score or 0, 5 / 12)


def test_sprt_needs_a_gauntlet_of_one_candidate() -> None:
    with pytest.raises(TournamentError, match="sprt: early stopping needs a gauntlet with exactly"):
        parse_config({**gauntlet(), "format": "round-robin", "candidates": []}, "t", Path.cwd())
    with pytest.raises(TournamentError, match="sprt: elo0 .* must be below elo1"):
        parse_config(gauntlet(sprt={"elo0": 5, "elo1": 5}), "t", Path.cwd())
    with pytest.raises(TournamentError, match="sprt.elo2: unknown key"):
        parse_config(gauntlet(sprt={"elo2": 5}), "t", Path.cwd())
    config = parse_config(gauntlet(), "t", Path.cwd())
    assert config.sprt == SprtSettings(0.0, 10.0, 0.05, 0.05)
    assert parse_config(config.to_plain(), "t", Path.cwd(), stored=True).sprt == config.sprt


def test_each_block_is_a_wave_deal_by_deal() -> None:
    config = parse_config(gauntlet(deals=40), "t", Path.cwd())
    schedule = build_schedule(config)
    waves = [g.wave for g in schedule]
    assert waves == sorted(waves)  # playing order is wave order
    for game in schedule:
        assert game.wave == game.deal  # one table: block index = deal
        assert game.generation == game.rotation  # the waves share their bot processes
    assert [(g.deal, g.rotation) for g in schedule][:6] == [(0, 0), (0, 1), (0, 2),
                                                           (1, 0), (1, 1), (1, 2)]
    assert repeated_deals(schedule.games) == []
    without = {k: v for k, v in gauntlet(deals=40).items() if k != "sprt"}
    plain = build_schedule(parse_config(without, "t", Path.cwd()))
    assert {g.id for g in plain} == {g.id for g in schedule}  # the same games, in waves


@pytest.mark.slow
def test_a_gauntlet_stops_when_the_test_decides(tmp_path: Path) -> None:
    lines = ['name = "sp"', 'game = "wongar"', "table_size = 3", 'format = "gauntlet"',
             'candidates = ["greedy"]', "deals = 300", 'time_control = "2s/20s"', "seed = 5",
             "concurrency = 2", "sprt = { elo0 = 0, elo1 = 100 }",
             '[[bots]]\nname = "greedy"\nbot = "greedy"\nnodes = 4',
             '[[bots]]\nname = "r1"\nbot = "random"\nenv = { ARENA_SEED = "1" }',
             '[[bots]]\nname = "r2"\nbot = "random"\nenv = { ARENA_SEED = "2" }']
    (tmp_path / "sp.toml").write_text("\n".join(lines) + "\n")
    done = run_arena("tournament", "run", "sp.toml", "--db", "sp.db", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    out = " ".join(done.stdout.split())
    assert "H1 accepted (passed): stopped early" in out
    with Store(tmp_path / "sp.db") as store:
        games = store.games("sp")
        config = parse_config(store.tournament("sp").config, "t", Path.cwd(), stored=True)
    result = stored_sprt(config, games)
    assert result is not None and result.verdict == "H1" and result.llr >= result.upper
    assert len(games) < 900
    status = run_arena("tournament", "status", "--db", "sp.db", cwd=tmp_path)
    assert f"LLR {result.llr:.2f} (-2.94, 2.94)" in " ".join(status.stdout.split())
    assert "none to play" in status.stdout
    board = run_arena("leaderboard", "--db", "sp.db", "--format", "json", cwd=tmp_path)
    data = json.loads(board.stdout)
    assert data["provisional"] is False
    assert data["tournament"]["sprt"]["verdict"] == "H1"
    assert math.isclose(data["tournament"]["sprt"]["llr"], result.llr)
    again = run_arena("tournament", "resume", "--db", "sp.db", cwd=tmp_path)
    assert again.returncode == 0 and "played 0 games" in again.stdout


def test_every_published_form_shows_the_test_and_the_rounds() -> None:
    games = [RatedGame("wongar", "basic", deal, bots, ranks)
             for deal in range(6)
             for bots, ranks in ((("c", "p1", "p2"), (1, 2, 3)), (("p1", "p2", "c"), (2, 3, 1)))]
    result = sprt("c", {0.75: 50, 1.0: 200}, RULE)
    info = TournamentInfo("g", {"format": "gauntlet"}, provisional=False, sprt=result,
                          rounds=Rounds(2, 5))
    board = build_leaderboard(games, info, RatingSettings(bootstrap_samples=20))
    data = leaderboard_data(board)
    assert violations(data, schema(), schema()) == []
    test = data["tournament"]["sprt"]
    assert test["verdict"] == result.verdict == "H1" and test["blocks"] == 250
    assert math.isclose(test["llr"], result.llr) and math.isclose(test["upper"], RULE.upper)
    assert data["tournament"]["rounds"] == {"played": 2, "total": 5}
    line = result.describe()
    assert line.startswith("SPRT c [0, 10] alpha 0.05 beta 0.05: LLR ") and "H1 accepted" in line
    assert line in render_markdown(board).replace("\\", "")
    assert line in render_html(board) and "swiss: 2 of 5 rounds played" in render_html(board)


def test_plan_states_the_test(tmp_path: Path) -> None:
    lines = ['name = "g"', 'game = "wongar"', "table_size = 3", 'format = "gauntlet"',
             'candidates = ["c"]', "deals = 100", 'time_control = "1s"', "seed = 1",
             "sprt = { elo0 = -5, elo1 = 5, alpha = 0.1 }"]
    lines += [f'[[bots]]\nname = "{n}"\nbot = "random"' for n in ("c", "p1", "p2")]
    (tmp_path / "g.toml").write_text("\n".join(lines) + "\n")
    result = CliRunner().invoke(app, ["tournament", "plan", str(tmp_path / "g.toml")])
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    assert "tables 1, deals per table 100, games 300" in text
    bounds = f"({math.log(0.05 / 0.9):.2f}, {math.log(0.95 / 0.1):.2f})"
    assert f"early stopping: SPRT elo0 -5, elo1 5, alpha 0.1, beta 0.05; stops when the LLR leaves {bounds}" in text


def test_a_run_after_a_stored_verdict_plays_nothing(tmp_path: Path) -> None:
    """Twelve stored blocks the candidate won outright decide H1 at elo1 = 100 (LLR 2.96 over the
    bound 2.94): a run of the stored tournament counts them and starts no game."""
    config = parse_config(gauntlet(deals=40, sprt={"elo0": 0, "elo1": 100}), "t", Path.cwd())
    schedule = build_schedule(config)
    with Store(tmp_path / "g.db") as store:
        store.add_tournament("g", config.fingerprint(), config.to_plain(),
                             [b.row for b in current_builds(config).values()])
        for game in schedule:
            if game.deal < 12:
                ranks = tuple(1 if bot == "c" else 2 + (bot == "p2") for bot in game.bots)
                record = MatchRecord(game="wongar", version=1, variant=config.variant or "",
                                     knobs=dict(config.knobs), seed=game.seed, bots=game.bots,
                                     decisions=(), faults=(), scores=(0, 0, 0), ranks=ranks)
                placement = Placement(game.id, game.generation, game.table, game.deal,
                                      game.rotation)
                assert store.add_game("g", placement, record, (), (1, 1, 1))
        summary = run_tournament(config, store, LocalExecutor(1, pin_cpus=False))
        assert len(store.stored_ids("g")) == 36
    assert (summary.already, summary.played, summary.failed) == (36, 0, 0)
    assert summary.sprt is not None and (summary.sprt.verdict, summary.sprt.blocks) == ("H1", 12)
