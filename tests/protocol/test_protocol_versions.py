"""Protocol version 2 (observations as changes) beside version 1: the handshake agrees on a
version per bot, and whichever is agreed, ``choose`` gets the engine's whole observation."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from arena.clock import TimeControl
from arena.handle import BotHandle, close_all
from arena.manifest import BotSpec
from arena.referee import play_match
from arena_bot.delta import merge
from engine.core import Game
from engine.registry import games
from protocols.codec import decode, encode
from protocols.delta import changes
from protocols.messages import Act, ClockMs
from protocols.transport import Hub

OBSERVER = Path(__file__).parents[1] / "referee" / "botprograms" / "observer.py"
values = st.recursive(st.integers() | st.text(max_size=3), lambda inner: st.lists(inner, max_size=3), max_leaves=6)
observations = st.dictionaries(st.sampled_from("abcdef"), values, max_size=6)


@given(observations, observations)
def test_changes_then_merge_give_back_the_observation(before: dict, after: dict) -> None:
    changed, gone = changes(before, after)
    assert merge(before, changed, gone) == after
    assert set(gone) == set(before) - set(after)
    assert all(key not in before or before[key] != value for key, value in changed.items())
    assert changes(None, after) == (after, ())


def test_changes_leave_out_equal_and_identical_entries_and_touch_nothing() -> None:
    shared = [1, 2]
    before = {"a": shared, "b": [3], "c": 4, "d": 5}
    after = {"a": shared, "b": [3], "c": 6, "e": 7}
    assert changes(before, after) == ({"c": 6, "e": 7}, ("d",))
    merged = merge(before, {"c": 6, "e": 7}, ("d",))
    assert merged == after and merged["a"] is shared
    assert before == {"a": [1, 2], "b": [3], "c": 4, "d": 5}


def test_act_round_trips_with_and_without_gone() -> None:
    clock = ClockMs(100, 0, 0)
    with_gone = Act(3, 1, 2, {"x": 1}, (4, 5), [], clock, ("y", "z"))
    assert decode(encode(with_gone)) == with_gone
    plain = Act(3, 1, 2, {"x": 1}, (4, 5), [], clock)
    assert b"gone" not in encode(plain) and decode(encode(plain)) == plain


@pytest.mark.usefixtures("working_sandbox")
@pytest.mark.parametrize("game", list(games().values()), ids=lambda g: g.key)
def test_every_version_gets_the_whole_observation(game: Game, tmp_path: Path) -> None:
    players = game.max_players
    config = game.configure(players)
    specs = [BotSpec(f"v{1 + seat % 2}", (sys.executable, str(OBSERVER), f"--protocol={1 + seat % 2}"))
             for seat in range(players)]
    with Hub() as hub:
        handles = BotHandle.launch_all(specs, hub, tmp_path)
        try:
            assert [h.peer.protocol for h in handles] == [1 + seat % 2 for seat in range(players)]
            records = [play_match(game, config, seed, handles, TimeControl.parse("5s"))
                       for seed in (11, 12)]
        finally:
            close_all(handles)
    sys.path.insert(0, str(OBSERVER.parent))
    try:
        from observer import digest
    finally:
        sys.path.remove(str(OBSERVER.parent))
    for record in records:
        assert record.faults == ()
        state, decisions = game.start(config, record.seed), iter(record.decisions)
        while not state.is_over():  # round by round: seats deciding together see the same state
            round_ = [next(decisions) for _ in state.to_move()]
            for decision in round_:
                assert decision.info is not None
                assert decision.info["digest"] == digest(state.observation(decision.seat))
            for decision in round_:
                state.apply(decision.seat, decision.action)
        assert next(decisions, None) is None


def test_the_sdk_refuses_a_protocol_version_it_does_not_speak() -> None:
    env = {**os.environ, "ARENA_ENDPOINT": "ipc:///nonexistent/socket", "ARENA_TOKEN": "t"}
    done = subprocess.run([sys.executable, "-m", "bots.random", "--protocol", "3"], env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "--protocol must be 1 to 2" in done.stderr
