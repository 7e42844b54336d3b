"""Known answers for the board's flags, prior-bound tables, number formats and input checks."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from lb_records import ordered
from leaderboards.bootstrap import superiority
from leaderboards.build import build_leaderboard
from leaderboards.field import flags
from leaderboards.format import bot_label, margin, milliseconds
from leaderboards.model import Flag, RatingSettings
from leaderboards.results import RatedGame
from leaderboards.seats import prior_bound_tables
from leaderboards.stats import TableResults


def test_flags_from_who_finished_above_whom() -> None:
    beat = np.array([[False, True, False], [False, False, True], [False, False, False]])
    found = flags(beat, np.array([0, 0, 0]), [5, 20, 19], few_games=20)
    assert found == [
        (Flag.UNBEATEN, Flag.PRIOR_BOUND, Flag.FEW_GAMES),
        (Flag.PRIOR_BOUND,),
        (Flag.WINLESS, Flag.PRIOR_BOUND, Flag.FEW_GAMES),
    ]
    cycle = np.array([[False, True, False], [False, False, True], [True, False, False]])
    assert flags(cycle, np.array([0, 0, 0]), [20, 20, 20], few_games=20) == [(), (), ()]
    alone = np.zeros((2, 2), dtype=bool)
    assert flags(alone, np.array([0, 1]), [0, 30], few_games=1) == [(Flag.FEW_GAMES,), ()]


def table(game: list[str], ranks: list[list[int]]) -> TableResults:
    return TableResults(
        players=len(ranks[0]),
        game=np.array(game, dtype=np.str_),
        bots=np.array([list(range(len(r))) for r in ranks], dtype=np.intp),
        ranks=np.array(ranks, dtype=np.int64),
    )


def test_a_kind_of_table_is_prior_bound_unless_every_seat_split_went_both_ways() -> None:
    always_first = table(["g", "g"], [[1, 2], [1, 2]])
    assert prior_bound_tables([always_first], [("g", 2)]) == {("g", 2)}
    with_a_tie = table(["g", "g"], [[1, 2], [1, 1]])  # a tie counts both ways
    assert prior_bound_tables([with_a_tie], [("g", 2)]) == set()
    both_ways = table(["g", "g"], [[1, 2], [2, 1]])
    assert prior_bound_tables([both_ways], [("g", 2)]) == set()
    # Kinds not asked about are skipped, and the ones after them still looked at.
    mixed = table(["a", "b", "b"], [[1, 2], [1, 2], [1, 2]])
    assert prior_bound_tables([mixed], [("b", 2)]) == {("b", 2)}
    assert prior_bound_tables([mixed], [("a", 3)]) == set()


def test_number_formats() -> None:
    board = build_leaderboard([ordered(["A", "B"], s) for s in range(3)] + [ordered(["B", "A"], 9)],
                              settings=RatingSettings(seat_terms=False, bootstrap_samples=20))
    standing = board.standings[0]
    assert bot_label(replace(standing, bot="x", flags=())) == "x"
    assert bot_label(replace(standing, bot="x", flags=(Flag.UNBEATEN, Flag.FEW_GAMES))) == "x (unbeaten, few-games)"
    line = replace(standing, elo=1500.0, ci_low=1500.04, ci_high=1512.345)
    assert margin(line) == "+0.0/+12.3"  # no negative zero, one decimal
    assert margin(replace(line, ci_low=1499.96, ci_high=None)) == "+0.0/+∞"
    assert margin(replace(line, ci_low=None, ci_high=1487.66)) == "−∞/−12.3"
    assert margin(replace(line, ci_low=1499.7451, ci_high=1500.2549)) == "−0.3/+0.3"  # rounded once
    assert milliseconds(0.0123) == "12.3" and milliseconds(None) == "—" and milliseconds(2.5) == "2500.0"


def test_an_unknown_fault_kind_is_refused_by_name() -> None:
    with pytest.raises(ValueError) as caught:
        RatedGame("g", "v", 1, ("a", "b"), (1, 2), faults=((0, "late"),))
    assert str(caught.value) == "unknown fault kind 'late'; kinds: timeout, illegal, crash, malformed, start"


def test_superiority_with_a_small_spread_is_not_taken_for_none() -> None:
    x = np.array([1.0, -1.0, 1.0, -1.0]) / 10
    z = np.array([1.0, 1.0, -1.0, -1.0]) / 10
    los = superiority(np.array([0.0, 0.1]), np.column_stack([x, x + z]), np.array([0, 0]))
    assert los[1][0] == pytest.approx(0.8067618846143836, rel=1e-12)  # Φ(0.1 / √(4/300))
