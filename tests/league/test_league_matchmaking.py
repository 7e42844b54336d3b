"""The league's matchmaker on small hand-made states with known answers: the quota (placement and
waiting entrants), the information choice, recency, determinism, retired entrants, and the
rating state from a fit."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from arena.league.matchmaking import (
    Entrant,
    EntrantKey,
    League,
    MatchmakingError,
    Policy,
    Ratings,
    Reason,
    expected_information,
    next_table,
    next_tables,
    period,
    placement_tables,
)
from arena.league.config import POLICY_RANGES
from arena.league.ratings import laplace_ratings
from leaderboards.plackett_luce import Finish, PlackettLuceModel
from leaderboards.scale import ELO_PER_THETA


def settled(names: str, tables: int = 40, played: int = 400) -> list[Entrant]:
    """Entrants ``names`` (one letter each, version 1) present from the start, past placement."""
    return [Entrant(name, 1, True, 0, tables) for name in names]


def rated(elo: dict[str, float], error: float = 30.0) -> Ratings:
    return Ratings.from_errors([(name, 1) for name in elo], list(elo.values()),
                               [error] * len(elo))


def recent_without(absent: set[str], names: str, count: int, size: int) -> tuple[
        tuple[EntrantKey, ...], ...]:
    """``count`` tables of ``size`` cycling through ``names`` less ``absent``."""
    playing = [(name, 1) for name in names if name not in absent]
    return tuple(tuple(playing[(t + s) % len(playing)] for s in range(size)) for t in range(count))


SPREAD = {"a": 1700.0, "b": 1650.0, "c": 1600.0, "d": 1550.0, "e": 1500.0, "f": 1450.0,
          "g": 1400.0, "h": 1350.0}


def test_a_new_version_plays_its_placement_tables_at_once() -> None:
    entrants = [*settled("abcdefgh"), Entrant("c", 2, True, 400, 0)]
    entrants[2] = Entrant("c", 1, False, 0, 40)  # the first version retires
    league = League(tuple(entrants), rated(SPREAD), 4, 400,
                    recent_without(set(), "abdefgh", 20, 4))
    count = placement_tables(4)
    assert count == 8
    tables = next_tables(league, count + 1, random.Random(1))
    assert all(("c", 2) in t.seats and t.reason is Reason.PLACEMENT for t in tables[:count])
    assert tables[count].reason is not Reason.PLACEMENT  # placed: it waits its turn like the rest


def test_a_new_version_is_seated_with_entrants_near_its_predecessor() -> None:
    entrants = [*settled("abcdefgh"), Entrant("h", 2, True, 400, 0)]
    league = League(tuple(entrants), rated(SPREAD), 3, 400,
                    recent_without(set(), "abcdefgh", 20, 3))
    # No weight on the top's order (which a newcomer might join): its own place alone decides.
    table = next_table(league, random.Random(0), Policy(top_weight=0.0))
    assert table is not None and table.reason is Reason.PLACEMENT
    # Rated from its first version (1350): the opponents are the two rated nearest it.
    assert set(table.seats) == {("h", 2), ("h", 1), ("g", 1)}


def test_an_entrant_that_waited_its_longest_is_seated_next() -> None:
    names = "abcdefgh"
    due_after = period(8, 4) - math.ceil(8 / 4)
    assert due_after == 8
    waited = League(tuple(settled(names)), rated(SPREAD), 4, 400,
                    recent_without({"g"}, names, due_after, 4))
    table = next_table(waited, random.Random(3))
    assert table is not None and table.reason is Reason.DUE and ("g", 1) in table.seats
    # One table less of waiting: not yet due, the information decides (the top of the field).
    shorter = League(tuple(settled(names)), rated(SPREAD), 4, 400,
                     ((("g", 1), ("a", 1), ("b", 1), ("c", 1)),
                      *recent_without({"g"}, names, due_after - 1, 4)))
    table = next_table(shorter, random.Random(3))
    assert table is not None and table.reason is Reason.INFORMATION
    assert ("g", 1) not in table.seats


def test_due_entrants_are_seated_together() -> None:
    names = "abcdefgh"
    league = League(tuple(settled(names)), rated(SPREAD), 4, 400,
                    recent_without({"b", "g", "h"}, names, 8, 4))
    table = next_table(league, random.Random(0))
    assert table is not None and table.reason is Reason.DUE
    assert {("b", 1), ("g", 1), ("h", 1)} <= set(table.seats)


def test_an_entrant_that_arrived_lately_has_not_waited() -> None:
    entrants = [*settled("abcdefg"), Entrant("h", 1, True, 395, 40)]
    league = League(tuple(entrants), rated(SPREAD), 4, 400,
                    recent_without({"h"}, "abcdefgh", 20, 4))
    table = next_table(league, random.Random(0))
    assert table is not None and table.reason is Reason.INFORMATION


def test_the_close_uncertain_top_pair_is_chosen_over_a_separated_one() -> None:
    # a and b: close, unsure which is better, at the top. c and d: as close, but below the top.
    # e and f: far apart. A two-seat table goes to a and b.
    elo = {"a": 1800.0, "b": 1790.0, "c": 1500.0, "d": 1490.0, "e": 1300.0, "f": 1000.0}
    league = League(tuple(settled("abcdef")), rated(elo), 2, 400)
    table = next_table(league, random.Random(0), Policy(top=2))
    assert table is not None and table.reason is Reason.INFORMATION
    assert table.seats == (("a", 1), ("b", 1))


def test_a_pair_the_fit_has_settled_is_not_chosen() -> None:
    # a and b sure of their order (tiny errors, far apart); c and d, close and unsure, are next.
    ratings = Ratings.from_errors([("a", 1), ("b", 1), ("c", 1), ("d", 1)],
                                  [1900.0, 1700.0, 1650.0, 1640.0], [2.0, 2.0, 40.0, 40.0])
    league = League(tuple(settled("abcd")), ratings, 2, 400)
    table = next_table(league, random.Random(0), Policy(top=4))
    assert table is not None and table.seats == (("c", 1), ("d", 1))


def test_the_table_just_played_is_not_repeated() -> None:
    elo = {"a": 1800.0, "b": 1790.0, "c": 1780.0, "d": 1300.0, "e": 1000.0}
    league = League(tuple(settled("abcde")), rated(elo), 3, 400)
    best = next_table(league, random.Random(0))
    assert best is not None and best.seats == (("a", 1), ("b", 1), ("c", 1))
    after = League(league.entrants, league.ratings, 3, 401, (best.seats,))
    second = next_table(after, random.Random(0))
    assert second is not None and second.seats != best.seats
    assert len(set(second.seats) & set(best.seats)) == 2  # the next best: two of the close three
    # Without the recency rule the best table comes again.
    again = next_table(after, random.Random(0), Policy(repeat_window=0))
    assert again is not None and again.seats == best.seats


def test_the_pair_just_played_is_not_repeated() -> None:
    elo = {"a": 1800.0, "b": 1790.0, "c": 1500.0, "d": 1000.0}
    league = League(tuple(settled("abcd")), rated(elo), 2, 400, ((("a", 1), ("b", 1)),))
    table = next_table(league, random.Random(0), Policy(top=2))
    assert table is not None and table.seats != (("a", 1), ("b", 1))
    again = next_table(league, random.Random(0), Policy(top=2, repeat_window=0))
    assert again is not None and again.seats == (("a", 1), ("b", 1))


def test_a_batch_applies_each_tables_information_before_the_next() -> None:
    # Two close, unsure pairs far apart, equally worth a table: a batch of two plays both.
    elo = {"a": 1800.0, "b": 1790.0, "c": 1500.0, "d": 1490.0}
    league = League(tuple(settled("abcd")), rated(elo, error=100.0), 2, 400)
    for seed in range(4):
        tables = next_tables(league, 2, random.Random(seed), Policy(top=4, repeat_window=0))
        assert {t.seats for t in tables} == {(("a", 1), ("b", 1)), (("c", 1), ("d", 1))}


def test_a_table_still_being_played_is_taken_as_coming() -> None:
    # The same two pairs: with a-b decided and still playing, the next table is c-d, as the
    # second of a batch would be; without it, a-b would be chosen again.
    elo = {"a": 1800.0, "b": 1790.0, "c": 1500.0, "d": 1490.0}
    policy = Policy(top=4, repeat_window=0)
    league = League(tuple(settled("abcd")), rated(elo, error=100.0), 2, 400)
    for seed in range(4):
        first = next_table(league, random.Random(seed), policy)
        assert first is not None
        coming = League(league.entrants, league.ratings, 2, 401, (first.seats,), (first.seats,))
        second = next_table(coming, random.Random(seed), policy)
        assert second is not None and {first.seats, second.seats} == {
            (("a", 1), ("b", 1)), (("c", 1), ("d", 1))}


def test_the_same_seed_gives_the_same_tables() -> None:
    league = League(tuple(Entrant(f"b{i:02d}", 1, True, 0, 0) for i in range(12)), Ratings.none(),
                    4, 0)
    first = next_tables(league, 10, random.Random(42))
    assert first == next_tables(league, 10, random.Random(42))
    assert [t.seats for t in first] != [t.seats for t in next_tables(league, 10, random.Random(7))]


def test_retired_entrants_are_never_seated() -> None:
    entrants = [*settled("abcdefgh")]
    entrants[0] = Entrant("a", 1, False, 0, 40)  # the top entrant, and one never placed
    entrants.append(Entrant("z", 1, False, 300, 0))
    league = League(tuple(entrants), rated(SPREAD), 3, 400)
    tables = next_tables(league, 40, random.Random(5))
    assert len(tables) == 40
    assert not {("a", 1), ("z", 1)} & {key for t in tables for key in t.seats}


def test_fewer_active_entrants_than_seats_give_no_table() -> None:
    entrants = [*settled("abc"), Entrant("d", 1, False, 0, 40)]
    league = League(tuple(entrants), rated(SPREAD), 4, 400)
    assert next_table(league, random.Random(0)) is None
    assert next_tables(league, 3, random.Random(0)) == []


@pytest.mark.parametrize(
    ("league", "message"),
    [
        (League(tuple(settled("abc")), Ratings.none(), 1, 400), "2 to 12 entrants, not 1"),
        (League(tuple(settled("abc")), Ratings.none(), 13, 400), "2 to 12 entrants, not 13"),
        (League((*settled("ab"), Entrant("a", 1, True, 0, 3)), Ratings.none(), 2, 400), "twice"),
        (League((Entrant("a", 1, True, 500, 0), *settled("b")), Ratings.none(), 2, 400),
         "arrived at table 500 of 400"),
    ],
)
def test_a_state_that_makes_no_sense_is_refused(league: League, message: str) -> None:
    with pytest.raises(MatchmakingError, match=message):
        next_table(league, random.Random(0))


def test_ratings_that_do_not_fit_together_are_refused() -> None:
    with pytest.raises(MatchmakingError, match="2 entrants"):
        Ratings((("a", 1), ("b", 1)), np.zeros(3), np.eye(2))
    with pytest.raises(MatchmakingError, match="not symmetric"):
        Ratings((("a", 1), ("b", 1)), np.zeros(2), np.array([[1.0, 0.5], [0.0, 1.0]]))


def test_expected_information_of_equal_players() -> None:
    two = expected_information(np.zeros((1, 2)))[0]
    assert np.allclose(two, [[0.25, -0.25], [-0.25, 0.25]])
    # Three: the first stage (p = 1/3) gives 2/9 and -1/9; each pair is left with chance 1/3 and
    # gives ±1/4: on the diagonal 2/9 + 2/12 = 7/18, off it -1/9 - 1/12 = -7/36.
    three = expected_information(np.zeros((1, 3)))[0]
    assert np.allclose(np.diag(three), 7 / 18) and np.allclose(three[0, 1], -7 / 36)


def test_expected_information_of_unequal_pair_is_the_logistic_variance() -> None:
    gap = math.log(3.0)  # the first wins 3 times in 4
    info = expected_information(np.array([[gap, 0.0]]))[0]
    assert info[0, 0] == pytest.approx(0.75 * 0.25)


def test_laplace_ratings_of_two_bots() -> None:
    # 30 wins and 10 losses: θ_a − θ_b = ln 3, the difference's variance 1 / (40 · 3/4 · 1/4).
    finishes = [Finish((0, 1), (1, 2))] * 30 + [Finish((0, 1), (2, 1))] * 10
    model = PlackettLuceModel(2, finishes)
    ratings = laplace_ratings(model, model.fit(), None, [("a", 1), ("b", 1)])
    assert ratings.elo[0] - ratings.elo[1] == pytest.approx(math.log(3.0) * ELO_PER_THETA)
    difference = 1 / (40 * 0.75 * 0.25) * ELO_PER_THETA**2
    assert np.allclose(ratings.covariance, difference / 4 * np.array([[1, -1], [-1, 1]]))


@pytest.mark.parametrize("key", sorted(POLICY_RANGES))
def test_every_setting_at_either_end_of_its_range_still_chooses_a_table(key: str) -> None:
    least, most = POLICY_RANGES[key]
    kind = type(getattr(Policy(), key))
    elo = {"a": 1800.0, "b": 1790.0, "c": 1500.0, "d": 1490.0, "e": 1300.0}
    entrants = (*settled("abcde"), Entrant("f", 1, True, 390, 0))  # f: new, rated by the prior
    for value in (1e-9 if least is None else least, most):
        policy = Policy(**{key: kind(value)})
        for seed in range(3):
            table = next_table(League(entrants, rated(elo), 3, 400), random.Random(seed), policy)
            assert table is not None and len(table.seats) == 3, (key, value)
