"""Void attempts in the store (schema 5): kept beside the games with their reasons, never a game
(so never rated, counted by a test or taken for played), and a store of schema 4 gains the table
with every stored game kept."""

from __future__ import annotations

import sqlite3
from dataclasses import replace
from pathlib import Path

import pytest

from arena.record import DecisionRecord, MatchRecord
from arena.store.db import BotRow, Placement, Store
from arena.store.migrations import MIGRATIONS

REASON = "seats 0, 1 were all cut off by the elapsed-time cap with no reply from any seat in between"


def played(seed: int) -> MatchRecord:
    return MatchRecord(
        game="wongar", version=1, variant="basic", knobs={}, seed=seed, bots=("a", "b"),
        decisions=(DecisionRecord(0, 3, 0.01), DecisionRecord(1, 4, 0.02)), faults=(),
        scores=(5, 7), ranks=(2, 1), duration=0.5,
    )


def stored(path: Path) -> Store:
    store = Store(path)
    store.add_tournament("t", "f", {"n": 1}, [BotRow(n, "1", ("x",), "h") for n in "ab"])
    return store


def test_a_void_attempt_is_kept_with_its_reason_and_is_never_a_game(tmp_path: Path) -> None:
    with stored(tmp_path / "r.db") as store:
        void = replace(played(1), scores=(0, 0), ranks=(1, 1), void=REASON)
        assert store.add_void("t", "g1", void) == 1
        assert store.add_void("t", "g1", void) == 2
        assert [(v.game_id, v.attempt, v.reason) for v in store.voided("t")] == [
            ("g1", 1, REASON), ("g1", 2, REASON)
        ]
        assert store.stored_ids("t") == set() and store.games("t") == []
        with pytest.raises(ValueError, match="a void record is not a game"):
            store.add_game("t", Placement("g1", 0, 0, 0, 0), void)
        with pytest.raises(ValueError, match="add_void needs a void record"):
            store.add_void("t", "g1", played(1))
        assert store.add_game("t", Placement("g1", 0, 0, 0, 0), played(1))  # played again
        assert store.stored_ids("t") == {"g1"} and len(store.voided("t")) == 2
        blob = store._db.execute("SELECT record FROM voided_games WHERE attempt = 2").fetchone()[0]
    assert blob  # the whole void record is kept


def test_a_void_record_round_trips_and_a_played_one_has_no_void_key() -> None:
    void = replace(played(3), void=REASON)
    assert void.to_wire()["void"] == REASON
    assert MatchRecord.from_wire(void.to_wire()) == void
    assert "void" not in played(3).to_wire()
    assert MatchRecord.from_wire(played(3).to_wire()).void is None


def test_a_schema_4_store_gains_the_void_table_and_keeps_its_games(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    with stored(path) as store:
        store.add_game("t", Placement("g1", 0, 0, 0, 0), played(9))
    db = sqlite3.connect(path)
    for table in ("voided_games", "league_owners", "league_submissions", "league_ratings",
                  "league_tables", "league_entrants", "leagues"):
        db.execute(f"DROP TABLE {table}")
    db.execute("PRAGMA user_version = 4")
    db.commit()
    db.close()
    with Store(path) as store:
        assert store.schema_version() == len(MIGRATIONS) == 8
        (game,) = store.games("t")
        assert game.record == played(9) and store.voided("t") == []
        assert store.add_void("t", "g2", replace(played(2), void=REASON)) == 1
