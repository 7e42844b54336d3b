"""build_leaderboard: known answers, properties, flags, groups, anchor, tables and refusals."""

from __future__ import annotations

import math
from dataclasses import replace

import pytest
from hypothesis import given, settings as hypothesis_settings, strategies as st

from arena.record import DecisionRecord, Fault, FaultKind
from leaderboards.build import build_leaderboard
from leaderboards.errors import LeaderboardError
from leaderboards.model import Flag, RatingSettings, TournamentInfo
from lb_records import MEEPLE_PENTATHLON, duplicate_tournament, ordered, record

# No seat terms; a prior so weak (sd one million Elo) that it changes nothing at two decimals.
PLAIN = RatingSettings(seat_terms=False, prior_sd=1e6, bootstrap_samples=20)


def by_bot(board):  # type: ignore[no-untyped-def]
    return {s.bot: s for s in board.standings}


def test_meeple_pentathlon_both_ratings() -> None:
    board = build_leaderboard(MEEPLE_PENTATHLON, settings=PLAIN)
    lines = by_bot(board)
    assert lines["A"].elo - 1500 == pytest.approx(52.15, abs=0.005)
    assert lines["C"].elo - 1500 == pytest.approx(52.15, abs=0.005)
    assert lines["B"].elo - 1500 == pytest.approx(-104.30, abs=0.005)
    assert lines["A"].pairwise_elo - 1500 == pytest.approx(49.06, abs=0.005)
    assert lines["C"].pairwise_elo - 1500 == pytest.approx(49.06, abs=0.005)
    assert lines["B"].pairwise_elo - 1500 == pytest.approx(-98.13, abs=0.005)
    assert [s.bot for s in board.standings][-1] == "B"


def test_meeple_pentathlon_tables() -> None:
    board = build_leaderboard(MEEPLE_PENTATHLON, settings=PLAIN)
    lines = by_bot(board)
    assert lines["A"].games == 5
    assert lines["A"].score == pytest.approx(6 / 10)  # beats B 4 times and C twice, of 10 pairs
    assert lines["B"].score == pytest.approx(3 / 10)
    assert lines["A"].average_place == pytest.approx((1 + 1 + 2 + 2 + 3) / 5)
    assert lines["C"].win_share == pytest.approx(2 / 5)
    meetings = {(m.bot, m.opponent): m for m in board.head_to_head}
    assert meetings["A", "B"].meetings == 5 and meetings["A", "B"].points == 4
    assert meetings["C", "A"].points == 3
    assert board.games == 5 and board.blocks == 5


def test_two_players_76_percent_is_about_200() -> None:
    games = [ordered(["X", "Y"], seed=i) for i in range(76)]
    games += [ordered(["Y", "X"], seed=100 + i) for i in range(24)]
    lines = by_bot(build_leaderboard(games, settings=PLAIN))
    assert lines["X"].elo - lines["Y"].elo == pytest.approx(200, abs=1)
    assert lines["X"].elo + lines["Y"].elo == pytest.approx(3000, abs=1e-6)


@hypothesis_settings(max_examples=15, deadline=None)
@given(st.permutations(["A", "B", "C", "D", "E"]))
def test_relabelling_bots_permutes_ratings(new_names: list[str]) -> None:
    games = duplicate_tournament({"A": 0.8, "B": 0.3, "C": 0.0, "D": -0.2, "E": -0.9}, 12, 3, 11)
    rename = dict(zip(["A", "B", "C", "D", "E"], new_names, strict=True))
    renamed = [replace(g, bots=tuple(rename[b] for b in g.bots)) for g in games]
    before = by_bot(build_leaderboard(games, settings=RatingSettings(bootstrap_samples=10)))
    after = by_bot(build_leaderboard(renamed, settings=RatingSettings(bootstrap_samples=10)))
    for old, new in rename.items():
        assert after[new].elo == pytest.approx(before[old].elo, abs=1e-6)
        assert after[new].pairwise_elo == pytest.approx(before[old].pairwise_elo, abs=1e-6)


def test_duplicating_every_game_narrows_the_interval_and_keeps_the_ratings() -> None:
    strengths = {"A": 0.6, "B": 0.2, "C": -0.1, "D": -0.7}
    games = duplicate_tournament(strengths, 40, 4, 3)
    # The copies are new deals (their own seeds), so they are independent blocks of evidence.
    doubled = games + [replace(g, seed=g.seed + 10_000) for g in games]
    settings = RatingSettings(bootstrap_samples=200, prior_sd=1e6)
    once = by_bot(build_leaderboard(games, settings=settings))
    twice = by_bot(build_leaderboard(doubled, settings=settings))
    for bot in strengths:
        assert twice[bot].elo == pytest.approx(once[bot].elo, abs=1e-4)
        assert twice[bot].ci_high - twice[bot].ci_low < once[bot].ci_high - once[bot].ci_low
        assert twice[bot].ci_low <= twice[bot].elo <= twice[bot].ci_high


def test_duplicate_blocks_are_resampled_whole() -> None:
    games = duplicate_tournament({"A": 0.5, "B": 0.0, "C": -0.5}, 30, 3, 5)
    board = build_leaderboard(games, settings=RatingSettings(bootstrap_samples=10))
    assert board.blocks == 30 and board.games == 90
    per_game = build_leaderboard(
        games, settings=RatingSettings(bootstrap_samples=10), block_key=lambda r: id(r)
    )
    assert per_game.blocks == 90


def test_seat_advantage_is_reported_per_game_and_table_size() -> None:
    games = duplicate_tournament({"A": 0.5, "B": 0.0, "C": -0.5, "D": 0.1}, 200, 3, 9)
    board = build_leaderboard(games, settings=RatingSettings(bootstrap_samples=5))
    seats = {(s.game, s.players, s.seat): s for s in board.seat_advantage}
    assert set(seats) == {("wongar", 3, 0), ("wongar", 3, 1), ("wongar", 3, 2)}
    assert all(s.games == 600 for s in seats.values())
    assert seats["wongar", 3, 0].elo is not None and seats["wongar", 3, 0].elo > 0
    assert sum(s.elo or 0.0 for s in seats.values()) == pytest.approx(0, abs=1e-9)
    assert seats["wongar", 3, 0].win_share > seats["wongar", 3, 1].win_share
    off = build_leaderboard(games, settings=RatingSettings(bootstrap_samples=5, seat_terms=False))
    assert all(s.elo is None for s in off.seat_advantage)


def test_los_is_a_probability_and_complementary() -> None:
    games = duplicate_tournament({"A": 1.0, "B": 0.9, "C": -1.0}, 40, 3, 2)
    board = build_leaderboard(games, settings=RatingSettings(bootstrap_samples=100))
    n = len(board.standings)
    for i in range(n):
        for j in range(n):
            value = board.los[i][j]
            assert value is not None and 0.0 <= value <= 1.0
            other = board.los[j][i]
            assert other is not None and value + other == pytest.approx(1.0)
    top, middle, last = board.standings
    assert last.los_next is None
    assert middle.los_next is not None and middle.los_next > 0.99  # far ahead of the weakest
    assert top.los_next == board.los[0][1]


def test_a_bot_that_won_everything_is_finite_and_flagged() -> None:
    games = [ordered(["W", "B", "C"], seed=i) for i in range(5)]
    games += [ordered(["W", "C", "B"], seed=10 + i) for i in range(5)]
    board = build_leaderboard(games, settings=RatingSettings(bootstrap_samples=10))
    lines = by_bot(board)
    assert math.isfinite(lines["W"].elo) and lines["W"].elo > lines["B"].elo + 300
    assert Flag.UNBEATEN in lines["W"].flags and Flag.PRIOR_BOUND in lines["W"].flags
    assert Flag.FEW_GAMES in lines["W"].flags
    assert Flag.WINLESS not in lines["B"].flags and Flag.UNBEATEN not in lines["B"].flags
    # B and C are far apart from W only by the prior's grace, so their level is prior-bound too.
    assert Flag.PRIOR_BOUND in lines["B"].flags
    mixed = build_leaderboard(games + [ordered(["B", "W", "C"], seed=99)], settings=PLAIN)
    assert all(Flag.PRIOR_BOUND not in line.flags for line in mixed.standings)
    assert all(Flag.UNBEATEN not in line.flags for line in mixed.standings)


def test_a_disconnected_field_is_reported_by_group() -> None:
    games = [ordered(["A", "B"], seed=i) for i in range(3)] + [ordered(["B", "A"], seed=9)]
    games += [ordered(["C", "D"], seed=20 + i) for i in range(2)] + [ordered(["D", "C"], seed=29)]
    board = build_leaderboard(games, settings=RatingSettings(bootstrap_samples=10))
    assert sorted(sorted(g) for g in board.groups) == [["A", "B"], ["C", "D"]]
    lines = by_bot(board)
    assert lines["A"].group == lines["B"].group != lines["C"].group == lines["D"].group
    assert lines["A"].elo + lines["B"].elo == pytest.approx(3000, abs=1e-6)
    assert lines["C"].elo + lines["D"].elo == pytest.approx(3000, abs=1e-6)
    position = {s.bot: i for i, s in enumerate(board.standings)}
    assert board.los[position["A"]][position["C"]] is None


def test_anchor_pins_one_bot_and_keeps_the_gaps() -> None:
    settings = replace(PLAIN, anchor="B", anchor_elo=1000.0)
    anchored = by_bot(build_leaderboard(MEEPLE_PENTATHLON, settings=settings))
    free = by_bot(build_leaderboard(MEEPLE_PENTATHLON, settings=PLAIN))
    assert anchored["B"].elo == pytest.approx(1000.0)
    assert anchored["B"].ci_low == pytest.approx(1000.0) == anchored["B"].ci_high
    assert anchored["A"].elo - anchored["B"].elo == pytest.approx(free["A"].elo - free["B"].elo)
    assert anchored["B"].pairwise_elo == pytest.approx(1000.0)


def test_faults_forfeits_and_latency() -> None:
    decisions = [DecisionRecord(0, 1, t / 1000) for t in range(1, 101)]
    decisions += [DecisionRecord(0, 1, 9.0, fallback=True), DecisionRecord(1, 2, 0.5)]
    faults = [Fault(0, FaultKind.TIMEOUT, 100, "late"), Fault(1, FaultKind.ILLEGAL, 3, "bad")]
    faults += [Fault(1, FaultKind.ILLEGAL, 5, "bad"), Fault(1, FaultKind.CRASH, 6, "gone")]
    game = record(["P", "Q"], [1, 2], decisions=decisions, faults=faults, forfeited=[1])
    board = build_leaderboard([game, ordered(["Q", "P"], seed=1)], settings=PLAIN)
    counts = {f.bot: f for f in board.faults}
    assert (counts["P"].timeout, counts["P"].total) == (1, 1)
    assert (counts["Q"].illegal, counts["Q"].crash, counts["Q"].forfeits) == (2, 1, 1)
    assert by_bot(board)["Q"].faults == 4
    latency = {entry.bot: entry for entry in board.latency}
    assert latency["P"].decisions == 100  # the fallback is not a reply
    assert latency["P"].p50 == pytest.approx(0.0505)
    assert latency["P"].p99 == pytest.approx(0.09901)
    assert latency["Q"].p90 == pytest.approx(0.5)


def test_provisional_tournament_is_labelled() -> None:
    info = TournamentInfo("League night", {"games": 10}, provisional=True)
    board = build_leaderboard(MEEPLE_PENTATHLON, info, settings=PLAIN)
    assert board.provisional and "provisional" in board.title


@pytest.mark.parametrize(
    ("games", "settings", "message"),
    [
        ([], PLAIN, "no games to rate"),
        ([ordered(["Solo", "Solo"])], PLAIN, "only one bot"),
        (MEEPLE_PENTATHLON, replace(PLAIN, anchor="Z"), "anchor bot 'Z'"),
        (MEEPLE_PENTATHLON, replace(PLAIN, bootstrap_samples=1), "bootstrap_samples"),
        (MEEPLE_PENTATHLON, replace(PLAIN, prior_sd=0.0), "prior_sd"),
        ([record(["A", "B"], [1])], PLAIN, "cannot rate"),
    ],
)
def test_unrateable_results_are_refused(games, settings, message) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(LeaderboardError, match=message):
        build_leaderboard(games, settings=settings)


def test_the_default_prior_is_weak() -> None:
    settings = RatingSettings(seat_terms=False, bootstrap_samples=5)
    lines = by_bot(build_leaderboard(MEEPLE_PENTATHLON * 10, settings=settings))
    assert lines["A"].elo - 1500 == pytest.approx(52.15, abs=0.2)
    assert lines["B"].elo - 1500 == pytest.approx(-104.30, abs=0.2)
    assert abs(lines["B"].elo - 1500) < 104.30  # shrunk towards the mean, never pushed out


def test_two_player_games_give_the_same_arena_and_pairwise_elo() -> None:
    games = duplicate_tournament({"A": 0.5, "B": 0.1, "C": -0.2, "D": -0.4}, 30, 2, 6)
    games.append(record(["A", "C"], [1, 1], seed=77))
    board = build_leaderboard(games, settings=RatingSettings(seat_terms=False, bootstrap_samples=5))
    for line in board.standings:
        assert line.elo == pytest.approx(line.pairwise_elo, abs=1e-4)
