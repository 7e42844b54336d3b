"""Leaderboard assembly known answers: ranks, groups, remote flags, one-sided intervals, intervals
from the block bootstrap, the pairwise column's seat terms for every kind of table, and each
refusal's exact message."""

from __future__ import annotations

import numpy as np
import pytest
from lb_records import MEEPLE_PENTATHLON, duplicate_tournament, ordered, record

from leaderboards.bootstrap import bootstrap_thetas, percentile_interval
from leaderboards.build import build_leaderboard, deal_block
from leaderboards.errors import LeaderboardError
from leaderboards.model import Flag, RatingSettings, TournamentInfo
from leaderboards.pairwise import comparisons, fit_pairwise
from leaderboards.plackett_luce import Finish, PlackettLuceModel
from leaderboards.scale import ELO_MEAN, ELO_PER_THETA
from leaderboards.stats import table_results

FAST = RatingSettings(bootstrap_samples=20)


def test_ranks_groups_and_remote_flags() -> None:
    games = [ordered(["A", "B"], 1), ordered(["B", "A"], 2), ordered(["A", "B"], 3),
             ordered(["C", "D"], 4), ordered(["D", "C"], 5)]
    board = build_leaderboard(games, TournamentInfo("t", remote=("B", "D")), FAST)
    assert [s.rank for s in board.standings] == [1, 2, 3, 4]
    assert [s.bot for s in board.standings] == ["A", "C", "D", "B"]
    assert board.groups == (("A", "B"), ("C", "D"))
    remote = {s.bot for s in board.standings if Flag.REMOTE in s.flags}
    assert remote == {"B", "D"}
    plain = build_leaderboard(games, TournamentInfo("t"), FAST)
    assert all(Flag.REMOTE not in s.flags for s in plain.standings)


def test_a_winless_bot_has_only_an_upper_end() -> None:
    games = [ordered(["A", "B", "C"], 1), ordered(["B", "A", "C"], 2), ordered(["A", "B", "C"], 3)]
    board = build_leaderboard(games, None, FAST)
    last = board.standings[-1]
    assert last.bot == "C" and Flag.WINLESS in last.flags
    assert last.ci_low is None and last.ci_high is not None


def test_the_pairwise_column_has_seat_terms_for_every_kind_of_table() -> None:
    games = list(MEEPLE_PENTATHLON) + [
        record(["A", "B"], [1, 2], 6), record(["B", "A"], [1, 2], 7), record(["A", "B"], [2, 1], 8),
        record(["C", "B"], [1, 2], 9), record(["B", "C"], [2, 1], 10),
    ]
    board = build_leaderboard(games, None, FAST)
    index = {"A": 0, "B": 1, "C": 2}
    tables = table_results(games, index)
    prior = FAST.prior_sd / ELO_PER_THETA
    # kinds in sorted order: (wongar, 2) has seat parameters 0, 1; (wongar, 3) has 2, 3, 4
    seat_base = {("wongar", 2): 0, ("wongar", 3): 2}
    fit = fit_pairwise(comparisons(tables, seat_base), 3, 5, np.zeros(3, dtype=np.intp), prior)
    expected = fit.theta * ELO_PER_THETA + ELO_MEAN
    got = {s.bot: s.pairwise_elo for s in board.standings}
    assert np.allclose([got[b] for b in "ABC"], expected, atol=1e-6)


@pytest.mark.parametrize(
    ("games", "settings", "message"),
    [
        ([], FAST, "no games to rate: the results hold no finished games yet"),
        (MEEPLE_PENTATHLON, RatingSettings(max_iterations=0), "max_iterations must be at least 1"),
        (MEEPLE_PENTATHLON, RatingSettings(bootstrap_samples=1), "bootstrap_samples must be at least 2"),
        (MEEPLE_PENTATHLON, RatingSettings(confidence=0.0), "confidence must be between 0 and 1"),
        (MEEPLE_PENTATHLON, RatingSettings(confidence=1.0), "confidence must be between 0 and 1"),
        (MEEPLE_PENTATHLON, RatingSettings(prior_sd=0.0),
         "prior_sd must be a positive, finite number of Elo points, not 0.0: the prior keeps "
         "ratings finite (for a weak prior give a large number, e.g. 10000)"),
    ],
)
def test_refusals_say_exactly_why(games: list[object], settings: RatingSettings, message: str) -> None:
    with pytest.raises(LeaderboardError) as error:
        build_leaderboard(games, None, settings)  # type: ignore[arg-type]
    assert str(error.value) == message


def test_settings_at_their_limits_are_accepted() -> None:
    board = build_leaderboard(
        MEEPLE_PENTATHLON, None,
        RatingSettings(bootstrap_samples=2, confidence=0.5, prior_sd=0.5, max_iterations=1),
    )
    assert len(board.standings) == 3


def test_prior_bound_seat_terms_are_noted_exactly() -> None:
    games = [ordered(["A", "B"], 1), ordered(["B", "A"], 2)]
    board = build_leaderboard(games, None, FAST)
    assert board.notes == (
        "seat terms of wongar at 2 players are finite only because of the prior: "
        "some seats never finished below the others",
    )


def test_intervals_are_the_expanded_percentiles_of_the_block_bootstrap() -> None:
    # Twelve deals (seeds 0..11), each one block; blocks are numbered in the order of their keys'
    # repr (seed 10 before seed 2), and the interval is widened for 12 blocks.
    games = duplicate_tournament({"A": 0.5, "B": 0.0, "C": -0.2, "D": -0.4}, 12, 3, 5)
    settings = RatingSettings(bootstrap_samples=60, seat_terms=False)
    board = build_leaderboard(games, settings=settings)
    bots = sorted({bot for game in games for bot in game.bots})
    model = PlackettLuceModel(
        len(bots), [Finish(tuple(bots.index(b) for b in game.bots), game.ranks) for game in games]
    )
    prior = settings.prior_sd / ELO_PER_THETA
    fit = model.fit(prior_sd=prior, max_iterations=settings.max_iterations)
    keys = sorted({deal_block(game) for game in games}, key=repr)
    blocks = np.array([keys.index(deal_block(game)) for game in games], dtype=np.intp)
    samples = bootstrap_thetas(model, fit, blocks, prior, settings.bootstrap_samples, settings.seed)
    low, high = percentile_interval(samples * ELO_PER_THETA + ELO_MEAN, settings.confidence, 12)
    assert board.blocks == 12
    assert {s.bot: (s.ci_low, s.ci_high) for s in board.standings} == {
        bot: (pytest.approx(low[i], abs=1e-9), pytest.approx(high[i], abs=1e-9))
        for i, bot in enumerate(bots)
    }


def test_block_keys_need_only_be_hashable() -> None:
    games = duplicate_tournament({"A": 0.3, "B": 0.0, "C": -0.3}, 6, 3, 2)
    board = build_leaderboard(
        games, settings=FAST, block_key=lambda game: game.seed if game.seed % 2 else str(game.seed)
    )
    assert board.blocks == 6
    assert all(s.ci_low is not None and s.ci_high is not None for s in board.standings)
