"""The SDK's wall clock starts when an ``act`` arrives, not when the bot began waiting for it."""

from __future__ import annotations

import sys
from pathlib import Path

from arena.clock import TimeControl
from arena.handle import BotHandle, close_all
from arena.manifest import BotSpec
from arena.referee import play_match
from engine.registry import get_game
from protocols.transport import Hub
from referee_helpers import BOTS


def test_a_decision_is_timed_from_the_acts_arrival(tmp_path: Path) -> None:
    game = get_game("wongar")
    config = game.configure(3)
    observer = BotSpec("observer", (sys.executable, str(BOTS / "observer.py")), trusted=True)
    paced = BotSpec("paced", (sys.executable, str(BOTS / "paced.py")), trusted=True)
    with Hub() as hub:
        handles = BotHandle.launch_all([observer, paced, paced], hub, tmp_path)
        try:
            # Seats 1 and 2 sleep 60 ms on each of their first four acts: seat 0 waits that long.
            record = play_match(game, config, 3, handles, TimeControl.parse("5s"),
                                match_id="clock;1=s0.06,s0.06,s0.06,s0.06,r;2=s0.06,s0.06,s0.06,s0.06,r")
        finally:
            close_all(handles)
    assert record.faults == ()
    # Seat 0's first act comes after the others' eight slow ones (about half a second).
    first = next(i for i, d in enumerate(record.decisions) if d.seat == 0)
    assert sum(d.elapsed for d in record.decisions[:first]) > 0.4
    info = record.decisions[first].info
    assert info is not None and float(str(info["spent_ms"])) < 50
