"""arena test: the paired schedule, the paired SPRT, its monitor, stopping after every block, the CLI."""

from __future__ import annotations

import math
import sys
import statistics
from fractions import Fraction
from pathlib import Path

import pytest
from tournament_league import run_arena

from arena.record import MatchRecord
from arena.store.db import Placement, Store
from arena.tournament import TournamentError
from arena.tournament.builds import current_builds
from arena.tournament.config import parse_config
from arena.tournament.executors import LocalExecutor
from arena.tournament.headtohead import Entrant, head_to_head_config, parse_sprt
from arena.tournament.runner import run_tournament
from arena.tournament.schedule import build_schedule, repeated_deals
from arena.tournament.sprt import SprtMonitor
from engine.core import derive_seed
from leaderboards.paired import PAIRED_PSEUDO_COUNT, Z95, paired_mean, paired_sprt
from leaderboards.sprt import SprtSettings, elo_to_score, sprt

RULE = SprtSettings(elo0=0, elo1=5)


def h2h(deals: int = 4, **extra: object) -> dict[str, object]:
    return {
        "name": "h", "game": "wongar", "table_size": 3, "format": "gauntlet", "paired": True,
        "candidates": ["c", "b"], "deals": deals, "time_control": "1s", "seed": 9,
        "sprt": {"elo0": 0, "elo1": 5}, **extra,
        "bots": [{"name": n, "bot": "random"} for n in ("c", "b", "f1", "f2")],
    }


def test_a_paired_gauntlet_plays_each_deal_with_both_candidates_in_the_same_seats() -> None:
    config = parse_config(h2h(), "t", Path.cwd())
    schedule = build_schedule(config)
    assert schedule.tables == (("c", "f1", "f2"), ("b", "f1", "f2"))
    assert schedule.generations == 6 and len(schedule) == 2 * 4 * 3
    by_key = {(g.table, g.deal, g.rotation): g for g in schedule}
    for deal in range(4):
        seed = derive_seed(9, "deal", "f1/f2", deal)  # the pool's label: not the candidate's
        for rotation in range(3):
            mine, theirs = by_key[(0, deal, rotation)], by_key[(1, deal, rotation)]
            assert mine.seed == theirs.seed == seed
            assert mine.bots == tuple(("c", "f1", "f2")[(s + rotation) % 3] for s in range(3))
            # the same fill bots in the same seats; the baseline where the candidate sat
            assert theirs.bots == tuple("b" if bot == "c" else bot for bot in mine.bots)
            assert (mine.generation, theirs.generation) == (rotation, 3 + rotation)
            assert mine.wave == theirs.wave == deal  # a deal pair is one wave
            assert mine.id != theirs.id
    assert [g.wave for g in schedule] == sorted(g.wave for g in schedule)
    assert repeated_deals(schedule.games) == []  # no process meets a deal twice


def test_an_unpaired_gauntlet_deals_each_table_its_own_deals() -> None:
    plain = {k: v for k, v in h2h().items() if k not in ("paired", "sprt")}
    schedule = build_schedule(parse_config(plain, "t", Path.cwd()))
    first = {g.seed for g in schedule if g.table == 0}
    second = {g.seed for g in schedule if g.table == 1}
    assert first.isdisjoint(second)


def test_pairing_and_its_test_are_checked() -> None:
    round_robin = {k: v for k, v in h2h().items() if k not in ("candidates", "sprt")}
    with pytest.raises(TournamentError, match="paired: only a gauntlet pairs its candidates"):
        parse_config({**round_robin, "format": "round-robin"}, "t", Path.cwd())
    with pytest.raises(TournamentError, match=r"a paired one: two"):
        parse_config({**h2h(), "candidates": ["c"]}, "t", Path.cwd())
    config = parse_config(h2h(), "t", Path.cwd())
    again = parse_config(config.to_plain(), "t", Path.cwd(), stored=True)
    assert again.paired and again.fingerprint() == config.fingerprint()


def test_two_valued_differences_give_the_normal_glr_by_hand() -> None:
    """Differences of only -1 and +1 are paired scores 0 and 1; with the pseudo-pairs at both ends
    the variances about the paired means (1/2 + s(elo)) / 2 are sums of three terms."""
    m0, m1 = paired_mean(0), paired_mean(5)
    assert m0 == 0.5 and math.isclose(m1, (0.5 + elo_to_score(5)) / 2)
    assert PAIRED_PSEUDO_COUNT == 0.05
    zeros, ones = 30 + PAIRED_PSEUDO_COUNT, 70 + PAIRED_PSEUDO_COUNT
    v0 = (zeros * m0**2 + ones * (1 - m0) ** 2) / (zeros + ones)
    v1 = (zeros * m1**2 + ones * (1 - m1) ** 2) / (zeros + ones)
    result = paired_sprt("c", "b", {-1.0: 30, 1.0: 70}, RULE)
    assert math.isclose(result.llr, 100 / 2 * math.log(v0 / v1), rel_tol=1e-12)
    assert math.isclose(result.llr, 0.2857422256202083, rel_tol=1e-9)
    assert result.pairs == 100 and math.isclose(result.difference or 0, 0.4)
    sd = statistics.stdev([-1.0] * 30 + [1.0] * 70)
    low, high = result.interval or (0, 0)
    assert math.isclose(low, 0.4 - Z95 * sd / 10) and math.isclose(high, 0.4 + Z95 * sd / 10)
    assert math.isclose(result.elo or 0, -400 * math.log10(1 / 0.9 - 1))


def test_the_paired_test_decides_by_the_spread_of_the_differences() -> None:
    """The same mean difference decides H1 when the differences are steady and not when they
    spread: the LLR is (n / 2) log(v0 / v1), the variances about the paired means."""
    rule = SprtSettings(elo0=0, elo1=20)
    step = 2 * (paired_mean(20) - 0.5)  # the mean difference at elo1
    steady = {0.0: 50, 2 * step: 50}  # mean difference exactly ``step``, small spread
    spread = {-0.5 + step: 50, 0.5 + step: 50}  # the same mean, spread over -1..1
    fast, slow = paired_sprt("c", "b", steady, rule), paired_sprt("c", "b", spread, rule)
    assert fast.verdict == "H1" and slow.verdict is None
    assert math.isclose(fast.difference or 0, step) and math.isclose(slow.difference or 0, step)
    scores = {0.5: 50.0, 0.5 + step: 50.0, 0.0: PAIRED_PSEUDO_COUNT, 1.0: PAIRED_PSEUDO_COUNT}
    v0, v1 = (sum(w * (x - m) ** 2 for x, w in scores.items()) / (100 + 2 * PAIRED_PSEUDO_COUNT)
              for m in (0.5, paired_mean(20)))
    assert math.isclose(fast.llr, 50 * math.log(v0 / v1), rel_tol=1e-12)
    assert paired_sprt("c", "b", {}, RULE).llr == 0.0
    assert paired_sprt("c", "b", {0.5: 1}, RULE).interval is None  # one pair: no spread yet
    assert paired_sprt("c", "b", {0.25: 3000, -0.25: 1000}, RULE).verdict == "H1"
    assert paired_sprt("c", "b", {0.0: 3000, 0.25: 100, -0.25: 100}, RULE).verdict == "H0"
    # twins that always play alike: all differences 0 is H0, however few the pairs are not
    assert paired_sprt("c", "b", {0.0: 5}, rule).verdict is None
    assert paired_sprt("c", "b", {0.0: 200}, rule).verdict == "H0"
    line = paired_sprt("c", "b", {-1.0: 30, 1.0: 70}, RULE).describe()
    assert line.startswith("SPRT c vs b [0, 5] alpha 0.05 beta 0.05: LLR 0.29 (-2.94, 2.94); "
                           "score difference +0.4000 (95% +0.2195 .. +0.5805), Elo +381.7")
    assert line.endswith("after 100 deal pairs: running")


def test_a_deal_pair_counts_once_both_blocks_are_in() -> None:
    config = parse_config(h2h(), "t", Path.cwd())
    monitor = SprtMonitor(config)
    for rotation in range(3):  # the candidate's block of deal 0: it wins every game (1)
        seats = tuple(("c", "f1", "f2")[(s + rotation) % 3] for s in range(3))
        monitor.add(0, 0, seats, tuple(1 if b == "c" else 2 + (b == "f2") for b in seats))
    assert monitor.blocks == 0
    baseline = [(("b", "f1", "f2"), (2, 1, 3)), (("f1", "f2", "b"), (1, 2, 3))]
    for seats, ranks in baseline:
        monitor.add(1, 0, seats, ranks)
    monitor.add(1, 1, ("b", "f1", "f2"), (1, 2, 3))  # deal 1: another pair
    assert monitor.blocks == 0
    monitor.add(1, 0, ("f2", "b", "f1"), (1, 1, 3))  # the baseline's block: (2 + 0 + 3) / 12
    result = monitor.result()
    assert monitor.blocks == 1 and result.pairs == 1  # type: ignore[union-attr]
    assert math.isclose(result.difference or 0, 1 - 5 / 12)  # type: ignore[union-attr]
    assert monitor.twins == [(Fraction(1), Fraction(5, 12))]  # candidate's block, baseline's


def test_the_head_to_head_config_pairs_with_fill_bots_and_else_plays_baseline_copies() -> None:
    config = head_to_head_config("wongar", Entrant("greedy", 4), Entrant("random"), [], RULE,
                                 max_deals=50, extra={"table_size": 4, "seed": 1})
    assert [(b.name, b.bot, b.nodes) for b in config.bots] == [
        ("candidate", "greedy", 4), ("baseline-1", "random", None), ("baseline-2", "random", None),
        ("baseline-3", "random", None)]
    assert config.table_size == 4 and not config.paired and config.sprt == RULE
    assert config.candidates == ("candidate",) and config.deals == 50
    filled = head_to_head_config("wongar", Entrant("greedy"), Entrant("random"),
                                 [Entrant("ismcts", 5), Entrant("random")], RULE, max_deals=5)
    assert [b.name for b in filled.bots] == ["candidate", "baseline", "fill-1", "fill-2"]
    assert filled.table_size == 3 and filled.paired and filled.bot("fill-1").nodes == 5
    assert filled.candidates == ("candidate", "baseline")
    assert config.name != filled.name and config.name.startswith("test-")
    def named(settings: SprtSettings, seed: int) -> str:
        return head_to_head_config("wongar", Entrant("greedy", 4), Entrant("random"), [], settings,
                                   max_deals=50, extra={"table_size": 4, "seed": seed}).name
    assert named(RULE, 1) == config.name  # the same test, resumed
    assert named(RULE, 2) != config.name  # another seed given: a test of its own
    assert named(SprtSettings(0, 10), 1) != config.name  # another test
    drawn = head_to_head_config("wongar", Entrant("greedy"), Entrant("random"),
                                [Entrant("ismcts", 5), Entrant("random")], RULE, max_deals=5)
    assert drawn.name == filled.name  # no seed given: resumed with the seed it drew
    assert parse_sprt("elo0=-2, elo1=3,alpha=0.1") == SprtSettings(-2, 3, 0.1, 0.05)
    with pytest.raises(TournamentError, match="elo0 is not a number"):
        parse_sprt("elo0=0;elo1=5")  # not split by commas
    with pytest.raises(TournamentError, match="must be below"):
        parse_sprt("elo0=5,elo1=5")


def test_a_candidate_whose_files_changed_is_a_test_of_its_own(tmp_path: Path) -> None:
    (tmp_path / "v2.py").write_text("from bots.random import main\nmain()\n")

    def named() -> str:
        return head_to_head_config("wongar", Entrant(f"{sys.executable} v2.py"), Entrant("random"), [], RULE,
                                   max_deals=5, extra={"seed": 1}, base=tmp_path).name

    first = named()
    assert named() == first
    (tmp_path / "v2.py").write_text("from bots.random import main\n\nmain()\n")
    assert named() != first


@pytest.mark.slow  # plays blocks of Wongar games until the test decides
def test_a_gauntlet_stops_right_after_the_deciding_block(tmp_path: Path) -> None:
    """Eleven stored blocks the candidate won outright (LLR 2.71 at elo1 = 100, under the bound
    2.94): with one match slot the runner plays one block at a time and stops as soon as the test
    decides, so it stores exactly the blocks the verdict counts (a wave of several blocks would
    have stored more)."""
    plain = {"name": "g", "game": "wongar", "table_size": 3, "format": "gauntlet",
             "candidates": ["c"], "deals": 200, "time_control": "2s", "seed": 3,
             "sprt": {"elo0": 0, "elo1": 100},
             "bots": [{"name": "c", "bot": "greedy", "nodes": 1},
                      {"name": "p1", "bot": "random", "env": {"ARENA_SEED": "1"}},
                      {"name": "p2", "bot": "random", "env": {"ARENA_SEED": "2"}}]}
    config = parse_config(plain, "t", Path.cwd())
    schedule = build_schedule(config)
    with Store(tmp_path / "g.db") as store:
        store.add_tournament("g", config.fingerprint(), config.to_plain(),
                             [b.row for b in current_builds(config).values()])
        for game in schedule:
            if game.deal < 11:
                ranks = tuple(1 if bot == "c" else 2 + (bot == "p2") for bot in game.bots)
                record = MatchRecord(game="wongar", version=1, variant=config.variant or "",
                                     knobs=dict(config.knobs), seed=game.seed, bots=game.bots,
                                     decisions=(), faults=(), scores=(0, 0, 0), ranks=ranks)
                placement = Placement(game.id, game.generation, game.table, game.deal,
                                      game.rotation)
                assert store.add_game("g", placement, record, (), (1, 1, 1))
        summary = run_tournament(config, store, LocalExecutor(1, pin_cpus=False))
        stored = len(store.stored_ids("g"))
    assert summary.sprt is not None and summary.sprt.verdict is not None
    blocks = summary.sprt.blocks  # type: ignore[union-attr]
    assert blocks > 11 and stored == 3 * blocks and summary.played == 3 * (blocks - 11)


@pytest.mark.slow
def test_arena_test_reaches_a_verdict_with_node_budgets(tmp_path: Path) -> None:
    """Greedy (1 node) against random, copies of random filling the table, tested for 150 Elo:
    the run prints the test after every block and ends with H1 and exit status 0; run again with
    the same database it resumes, plays nothing and says the same. With fill bots it pairs."""
    args = ["test", "wongar", "--candidate", "greedy", "--candidate-nodes", "1",
            "--baseline", "random", "--sprt", "elo0=0,elo1=150", "--seed", "4", "-j", "2",
            "--tc", "2s", "--db", "t.db"]
    done = run_arena(*args, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    out = " ".join(done.stdout.split())
    assert ("candidate greedy (nodes 1) against baseline random at wongar, 3 seats, the other "
            "seats copies of the baseline, whose own score is 1/2") in out
    assert "after 1 blocks: running; mean block score" in out  # live, after the first block
    assert "H1 accepted (passed)" in out and "verdict: H1, the candidate is better" in out
    assert "score difference against the baseline: +" in out
    final = [line for line in done.stdout.splitlines() if line.startswith("played ")]
    assert final and "(0 were already stored)" in final[0]
    with Store(tmp_path / "t.db") as store:
        (row,) = store.tournaments()
        games = store.games(row.name)
    seeds: dict[str, list[int]] = {}
    generations: dict[str, set[int]] = {}
    for game in games:
        for label in game.processes:
            seeds.setdefault(label, []).append(game.record.seed)
            generations.setdefault(label, set()).add(game.placement.generation)
    assert all(len(s) == len(set(s)) for s in seeds.values()), "a process met a deal twice"
    assert all(len(g) == 1 for g in generations.values())
    # each worker keeps every generation's processes: bots start per generation, not per game
    assert len(seeds) <= 2 * 3 * 3 < 3 * len(games)  # 2 workers, 3 generations, 3 seats
    again = run_arena(*args, cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    assert "played 0 games" in again.stdout and "verdict: H1" in again.stdout
    paired = run_arena("test", "wongar", "--candidate", "greedy", "--candidate-nodes", "1",
                       "--baseline", "random", "--fill", "random", "--fill", "random",
                       "--sprt", "elo0=0,elo1=150", "--seed", "4", "-j", "2", "--tc", "2s",
                       cwd=tmp_path)
    assert paired.returncode == 0, paired.stderr
    text = " ".join(paired.stdout.split())
    assert "fill: random, random; each deal played with the candidate and with the baseline" in text
    assert "after 1 deal pairs: running" in text and "H1 accepted (candidate better)" in text


def test_arena_test_refuses_bad_input(tmp_path: Path) -> None:
    bad = run_arena("test", "wongar", "--candidate", "greedy", "--baseline", "random",
                    "--sprt", "elo1=0", cwd=tmp_path)
    assert bad.returncode == 2 and "elo0 (0) must be below elo1 (0)" in bad.stderr
    mismatch = run_arena("test", "wongar", "--candidate", "greedy", "--baseline", "random",
                         "--fill", "random", "--players", "4", cwd=tmp_path)
    assert mismatch.returncode == 2 and "does not match the 1 --fill bots" in mismatch.stderr
    unknown = run_arena("test", "wongar", "--candidate", "nosuchbot-xyz", "--baseline", "random",
                        cwd=tmp_path)
    assert unknown.returncode == 2 and "nosuchbot-xyz" in unknown.stderr
    assert not list(tmp_path.iterdir())  # nothing stored, nothing left behind
