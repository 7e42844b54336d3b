"""Format known answers worked out by hand: a late entrant's opponents (fewest shared tables first,
then fewest tables played), which formats take late entries, and the swiss standings (points per
game, so a bye costs nothing).

Each answer holds for every seed: the inputs leave no tie for the seeded order to break."""

from __future__ import annotations

from pathlib import Path

import pytest

from arena.store.db import Store
from arena.tournament import TournamentError
from arena.tournament.config import parse_config
from arena.tournament.late import add_late_entry, late_entry
from arena.tournament.sampled import late_tables
from arena.tournament.swiss import Result, points, round_tables, standing_order

SEEDS = range(6)


def test_a_late_entrant_meets_the_bots_it_has_met_least_before_the_least_played() -> None:
    # Before the entry a has played 1 table, b 2, c 3. The fewest-played bot first would bring
    # a back at the third table (a: 2 played, b and c: 3) although c has not met the entrant yet.
    before = [("b", "c"), ("b", "c"), ("a", "c")]
    for seed in SEEDS:
        assert late_tables(["a", "b", "c"], before, "x", 2, 3, seed) == [
            ("a", "x"), ("b", "x"), ("c", "x")
        ]


def test_among_bots_met_equally_often_the_least_played_come_first() -> None:
    before = [("a", "b", "c"), ("a", "b", "d"), ("a", "c", "d"), ("a", "b", "e")]
    # played: a 4, b 3, c 2, d 2, e 1; the entrant's first table takes e and one of c, d (seeded).
    seen = set()
    for seed in SEEDS:
        tables = late_tables(["a", "b", "c", "d", "e"], before, "x", 3, 2, seed)
        assert tables[0] in {("c", "e", "x"), ("d", "e", "x")}
        # then c or d, whichever is left, and b (3 played) before a (4)
        assert set(tables[1]) == {"b", "x"} | ({"c", "d"} - set(tables[0]))
        seen.add(tables[0])
    assert seen == {("c", "e", "x"), ("d", "e", "x")}, "ties fall to the seeded order"


# Two rounds of a five-bot swiss, two a table (a win 2 points, a tie 1 each):
# round 0: c beats d, a ties b, e has a bye; round 1: e beats b, a ties c, d has a bye.
TWO_ROUNDS = [
    Result(("c", "d"), (1, 2)),
    Result(("a", "b"), (1, 1)),
    Result(("e", "b"), (1, 2)),
    Result(("a", "c"), (1, 1)),
]
# points / games: a 2/2, b 1/2, c 3/2, d 0/1, e 2/1. By total points c (3) would lead and e
# (2, one game fewer for its bye) would share second place with a.
NAMES = ["a", "b", "c", "d", "e"]


def test_swiss_standings_are_points_per_game_so_a_bye_costs_nothing() -> None:
    assert points(TWO_ROUNDS) == ({"a": 2, "b": 1, "c": 3, "d": 0, "e": 2},
                                  {"a": 2, "b": 2, "c": 2, "d": 1, "e": 1})
    for seed in SEEDS:
        assert standing_order(NAMES, TWO_ROUNDS, seed) == ["e", "c", "a", "b", "d"]


def test_the_third_round_pairs_the_standings_and_byes_the_lowest_without_one() -> None:
    for seed in SEEDS:
        tables, bye = round_tables(NAMES, 2, TWO_ROUNDS, {"e": 1, "d": 1}, seed)
        # a, b and c have had no bye; of them b stands lowest. The rest pair off best first.
        assert (tables, bye) == ([("c", "e"), ("a", "d")], ["b"])


def test_only_round_robin_and_sampled_tournaments_take_late_entries(tmp_path: Path) -> None:
    bots = [{"name": f"b{i}", "bot": "random"} for i in range(4)]
    formats: dict[str, dict[str, object]] = {
        "round-robin": {}, "sampled": {"tables_per_bot": 3}, "swiss": {"rounds": 2},
        "gauntlet": {"candidates": ["b0"]},
    }
    entry = late_entry("random", "late", None, False, tmp_path)
    with Store(tmp_path / "r.db") as store:
        for name, extra in formats.items():
            config = parse_config({"name": name, "game": "wongar", "table_size": 3,
                                   "format": name, "time_control": "1s", "seed": 1, "bots": bots,
                                   **extra}, "test", tmp_path)
            store.add_tournament(name, config.fingerprint(), config.to_plain(), [])
        for name in ("swiss", "gauntlet"):
            before = store.tournament(name)
            with pytest.raises(TournamentError) as refused:
                add_late_entry(store, name, entry)
            assert str(refused.value) == (
                f"{store.path}: tournament {name!r}: a {name} tournament takes no late entries "
                "(only round-robin and sampled ones do)"
            )
            assert store.tournament(name) == before
        for name in ("round-robin", "sampled"):
            after = add_late_entry(store, name, entry)
            assert after.late_entries == ("late",) and after.bots[-1].name == "late"
            assert store.tournament(name).fingerprint == after.fingerprint()
            with pytest.raises(TournamentError, match="the field already has a bot named 'late'"):
                add_late_entry(store, name, entry)


def test_a_bot_that_has_not_played_stands_at_zero() -> None:
    # a 2/1, d 1/1, b 1/2; c has had only byes: 0, below b although b has lost a game.
    results = [Result(("a", "b"), (1, 2)), Result(("b", "d"), (1, 1))]
    for seed in SEEDS:
        assert standing_order(["a", "b", "c", "d"], results, seed) == ["a", "d", "b", "c"]


def test_tables_and_byes_list_their_bots_in_field_order() -> None:
    field = ["e", "d", "c", "b", "a"]  # the same bots and results, another field order
    for seed in SEEDS:
        tables, bye = round_tables(field, 2, TWO_ROUNDS, {"e": 1, "d": 1}, seed)
        assert (tables, bye) == ([("e", "c"), ("d", "a")], ["b"])
        # three a table: b and a (the lowest without a bye) sit out, listed as the field has them
        assert round_tables(field, 3, TWO_ROUNDS, {"e": 1, "d": 1}, seed) == (
            [("e", "d", "c")], ["b", "a"]
        )
