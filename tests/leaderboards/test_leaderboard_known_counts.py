"""Known answers for the counting tables: several table sizes summed, ties, a bot in two seats,
every fault kind, and a bot with no replies."""

from __future__ import annotations

from leaderboards.model import FaultCounts, Latency
from leaderboards.results import RatedGame
from leaderboards.stats import bot_totals, fault_counts, latencies, pair_counts, table_results

GAMES = [
    RatedGame("g", "v", 1, ("a", "b"), (1, 2)),
    RatedGame("g", "v", 2, ("a", "b"), (1, 1)),  # a tie: half a point each
    RatedGame("g", "v", 3, ("b", "c", "a"), (1, 2, 3)),
    RatedGame("g", "v", 4, ("c", "c", "a"), (1, 3, 2)),  # c holds two seats
]
INDEX = {"a": 0, "b": 1, "c": 2}


def test_pair_counts_and_totals_over_two_table_sizes() -> None:
    tables = table_results(GAMES, INDEX)
    assert [t.players for t in tables] == [2, 3]
    pairs = pair_counts(tables, 3)
    assert pairs.points.tolist() == [[0.0, 1.5, 1.0], [1.5, 0.0, 1.0], [2.0, 0.0, 0.0]]
    assert pairs.meetings.tolist() == [[0, 3, 3], [3, 0, 1], [3, 1, 0]]
    assert pairs.beat.tolist() == [[False, True, True], [True, False, True], [True, False, False]]
    totals = bot_totals(tables, pairs, 3)
    assert [(t.games, t.seats) for t in totals] == [(4, 4), (3, 3), (2, 3)]
    assert [t.points for t in totals] == [2.5, 2.5, 2.0]
    assert [t.comparisons for t in totals] == [6, 4, 4]
    assert [t.place_sum for t in totals] == [1 + 1.5 + 3 + 2, 2 + 1.5 + 1, 2 + 1 + 3]
    assert [t.win_sum for t in totals] == [1.5, 1.5, 1.0]
    assert totals[0].score == 2.5 / 6 and totals[2].average_place == 2.0 and totals[1].win_share == 0.5


def test_a_tie_is_finishing_at_or_above() -> None:
    # b never finishes strictly above a, but ties it once: the pair is linked both ways.
    games = [RatedGame("g", "v", 1, ("a", "b"), (1, 2)), RatedGame("g", "v", 2, ("a", "b"), (1, 1))]
    pairs = pair_counts(table_results(games, {"a": 0, "b": 1}), 2)
    assert pairs.beat.tolist() == [[False, True], [True, False]]
    assert pairs.points.tolist() == [[0.0, 1.5], [0.5, 0.0]]


def test_every_fault_kind_and_forfeit_is_counted_and_a_silent_bot_has_no_latency() -> None:
    games = [
        RatedGame("g", "v", 1, ("a", "b"), (1, 2),
                  faults=((1, "timeout"), (1, "illegal"), (1, "crash"), (1, "malformed"), (1, "start"),
                          (0, "malformed")),
                  forfeited=(1,), replies=((0, 0.25), (0, 0.75))),
    ]
    assert fault_counts(games, ["a", "b"]) == (
        FaultCounts("a", malformed=1),
        FaultCounts("b", timeout=1, illegal=1, crash=1, malformed=1, start=1, forfeits=1),
    )
    assert latencies(games, ["a", "b"]) == (
        Latency("a", 2, 0.5, 0.7, 0.745),
        Latency("b", 0, None, None, None),
    )
