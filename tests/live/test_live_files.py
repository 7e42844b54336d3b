"""Live files: written only while the live folder exists, read back whole lines only, removed
when the game ends; the live view rebuilds a game in play from one, hands private by default."""

from __future__ import annotations

import json
import random
from pathlib import Path

from arena.live.files import SUFFIX, live_folder, make_live_folder, open_live, read_live
from arena.live.watch import Watch
from arena.record import DecisionRecord
from arena.store.db import Store
from engine.registry import get_game

CONFIG = get_game("wongar").configure(3, None, {})


def test_nothing_is_written_when_nobody_watches(tmp_path: Path) -> None:
    db = tmp_path / "league.db"
    assert open_live(str(live_folder(db)), "g1", CONFIG, 7, ["a", "b", "c"]) is None
    assert open_live(None, "g1", CONFIG, 7, ["a", "b", "c"]) is None
    assert list(tmp_path.iterdir()) == []


def test_a_live_file_holds_the_decisions_so_far_and_goes_when_the_game_ends(tmp_path: Path) -> None:
    folder = make_live_folder(tmp_path / "league.db")
    assert folder.stat().st_mode & 0o777 == 0o700
    state = get_game("wongar").start(CONFIG, 7)
    live = open_live(str(folder), "g1", CONFIG, 7, ["a", "b", "c"])
    assert live is not None
    path = folder / f"g1{SUFFIX}"
    assert path.stat().st_mode & 0o777 == 0o600
    with live:
        for ply in range(5):
            seat = state.to_move()[0]
            action = state.legal_actions(seat)[0]
            state.apply(seat, action)
            live.add(state, DecisionRecord(seat, action, 0.0125, fallback=ply == 2))
        read = read_live(path)
        assert read is not None
        assert read.header["id"] == "g1" and read.header["seed"] == "7" and read.header["bots"] == ["a", "b", "c"]
        assert len(read.decisions) == 5 and read.decisions[2][3] is True and read.decisions[0][2] == 12.5
        with path.open("a") as handle:
            handle.write('[0, 1, 2.0')  # a line still being written is not read
        again = read_live(path)
        assert again is not None and len(again.decisions) == 5
    assert not path.exists()
    assert read_live(path) is None


def test_the_live_view_rebuilds_a_game_in_play_and_keeps_hands_private(tmp_path: Path) -> None:
    db = tmp_path / "league.db"
    Store(db).close()
    folder = make_live_folder(db)
    game = get_game("waroong")
    config = game.configure(3, None, {})
    state = game.start(config, 9)
    rng = random.Random(9)
    live = open_live(str(folder), "g7", config, 9, ["a", "b", "c"])
    assert live is not None
    with live:
        for _ in range(25):
            seat = state.to_move()[0]
            action = rng.choice(state.legal_actions(seat))
            state.apply(seat, action)
            live.add(state, DecisionRecord(seat, action, 0.002))
        (public_view,) = Watch(db).snapshot()["live"]
        (full_view,) = Watch(db, show_hands=True).snapshot()["live"]
    assert public_view["decisions"] == full_view["decisions"] == 25
    assert public_view["priv"] == [None, None, None] and public_view["score"] is None
    assert not {"hand", "picks", "customers", "kept"} & public_view["pub"].keys()
    assert json.dumps(public_view).count('"hand"') == 0
    last = seat
    for each in range(3):
        assert full_view["priv"][each]["hand"] == state.observation(each)["hand"]
    assert full_view["score"] == state.scores()
    assert len(public_view["recent"]) == 8 and public_view["recent"][-1][0] == last
    labels = [label for _, label in full_view["recent"]]
    assert any(label.startswith("pick ") for label in labels)  # draft picks are secret...
    assert not any("pick " in label for _, label in public_view["recent"])  # ...until revealed
    assert Watch(db).snapshot()["live"] == []  # the game ended: its file is gone
