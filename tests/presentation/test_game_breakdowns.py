"""Known answers for the built-in games' score breakdowns: on seeded games played to the end by
random choices, for every variant and 3, 4 and 5 players, the rows' columns sum to the final scores,
and the rows are the ones the rules score."""

from __future__ import annotations

import pytest

from engine.waroong.presentation import WaroongPresentation
from engine.wongar.presentation import WongarPresentation
from tests.helpers.random_games import played

PRESENTATIONS = {"wongar": WongarPresentation(), "waroong": WaroongPresentation()}

CASES = [(game, variant, players) for game, variants in (("wongar", ("basic", "initiated")),
                                                          ("waroong", ("five-stars", "street-vendor")))
         for variant in variants for players in (3, 4, 5)]


def column_sums(rows: list[tuple[str, list[int]]], players: int) -> list[int]:
    assert all(len(points) == players for _, points in rows)
    return [sum(points[s] for _, points in rows) for s in range(players)]


@pytest.mark.parametrize(("game_name", "variant", "players"), CASES)
def test_the_rows_sum_to_the_final_scores(game_name: str, variant: str, players: int) -> None:
    state, events = played(game_name, variant, players, seed=players)
    rows = PRESENTATIONS[game_name].score_breakdown(state, events)
    assert rows and all(any(points) for _, points in rows)
    assert column_sums(rows, players) == list(state.result().scores)


def test_wongar_rows_follow_the_scoring_events_and_the_end_bonus() -> None:
    state, events = played("wongar", "basic", 4, seed=4)
    rows = dict(PRESENTATIONS["wongar"].score_breakdown(state, events))
    by_phase: dict[int, int] = {}
    for event in events:
        if event["type"] == "scoring":
            for award in event["awards"]:
                by_phase[event["phase"]] = by_phase.get(event["phase"], 0) + award["points"]
    assert {label for label in rows if "ceremony" in label} == {f"phase {p} ceremony majorities" for p in by_phase}
    assert all(sum(rows[f"phase {p} ceremony majorities"]) == total for p, total in by_phase.items())
    bonus = [sum(points) for label, points in rows.items() if "end bonus" in label]
    assert all(total % 8 == 0 and total > 0 for total in bonus)
    assert [sum(row[s] for label, row in rows.items() if "end bonus" in label) for s in range(4)] == events[-1]["bonus"]
    penalties = sum(e["points"] for e in events if e["type"] == "penalty")
    assert -sum(rows.get("Scorpion penalties", [0])) == penalties


def test_street_vendor_has_no_customer_rows() -> None:
    state, events = played("waroong", "street-vendor", 3, seed=3)
    labels = [label for label, _ in PRESENTATIONS["waroong"].score_breakdown(state, events)]
    assert "dishes cooked" in labels and not any("customer" in label or "Celebrit" in label for label in labels)
