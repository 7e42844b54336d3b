"""A stored match replays to the scores it stores, or ``arena replay`` and ``arena publish`` say
that it does not (an engine that plays otherwise in another process, or an altered record)."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from arena.record import DecisionRecord, MatchRecord
from arena.site.frames import replay_data
from arena.tournament import TournamentError
from arena.tournament.replay import replay_steps
from engine.registry import get_game


@pytest.fixture(scope="module")
def record() -> MatchRecord:
    """A whole game of Wongar, random decisions, as a record."""
    game = get_game("wongar")
    config = game.configure(3, "basic")
    state, rng = game.start(config, 77), random.Random(77)
    decisions: list[DecisionRecord] = []
    while not state.is_over():
        seat = state.to_move()[0]
        action = rng.choice(state.legal_actions(seat))
        state.apply(seat, action)
        decisions.append(DecisionRecord(seat, action, 0.001))
    result = state.result()
    return MatchRecord("wongar", game.version, "basic", dict(config.knobs), 77, ("a", "b", "c"), tuple(decisions),
                       (), tuple(result.scores), tuple(result.ranks))


def test_a_record_replays_to_its_stored_scores(record: MatchRecord) -> None:
    steps = list(replay_steps(record))
    assert steps[-1].title == "result" and len(steps) == len(record.decisions) + 2
    assert replay_data(record, "g1")["complete"]


def test_a_record_whose_replay_ends_otherwise_is_refused_by_replay_and_publish(record: MatchRecord) -> None:
    altered = replace(record, scores=tuple(score + 1 for score in record.scores))
    with pytest.raises(TournamentError, match=r"does not replay as stored: it replays to the scores \[") as caught:
        list(replay_steps(altered))
    assert f"not the stored {list(altered.scores)}" in str(caught.value)
    with pytest.raises(TournamentError, match="game g1: it replays to the scores"):
        replay_data(altered, "g1")


def test_a_void_record_has_no_result_to_compare(record: MatchRecord) -> None:
    void = replace(record, scores=(0, 0, 0), ranks=(1, 1, 1), void="the host ran out of memory")
    assert list(replay_steps(void))[-1].title == "result"
