"""Live files: written only while the live folder exists, read back whole lines only, removed
when the game ends."""

from __future__ import annotations

from pathlib import Path

from arena.live.files import SUFFIX, live_folder, make_live_folder, open_live, read_live
from arena.record import DecisionRecord
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
