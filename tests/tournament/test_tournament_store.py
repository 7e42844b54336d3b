"""The SQLite store: WAL, whole-or-nothing commits, idempotent ids, migration, bad files."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import msgpack
import pytest

from arena.record import DecisionRecord, Fault, FaultKind, MatchRecord
from arena.store import StoreError
from arena.store.db import BotRow, Placement, Store, migrate
from arena.store.migrations import MIGRATIONS


def record(seed: int, bots: tuple[str, ...] = ("a", "b"), faulty: bool = False) -> MatchRecord:
    return MatchRecord(
        game="wongar",
        version=1,
        variant="basic",
        knobs={"rounds": 3},
        seed=seed,
        bots=bots,
        decisions=(DecisionRecord(0, 5, 0.01, {"nodes": 9}), DecisionRecord(1, 2, 0.02)),
        faults=(Fault(1, FaultKind.TIMEOUT, 1, "no reply in 1.1 s"),) if faulty else (),
        scores=(3, 7),
        ranks=(2, 1),
        duration=0.5,
    )


def add_night(store: Store) -> None:
    store.add_tournament("night", "f1", {"name": "night"}, [BotRow("a", "1", ("python",), "h")])


def test_new_store_is_wal_at_the_current_version(tmp_path: Path) -> None:
    with Store(tmp_path / "r.db") as store:
        assert store.journal_mode() == "wal"
        assert store.schema_version() == len(MIGRATIONS)


def test_game_round_trips_and_a_replayed_id_is_stored_once(tmp_path: Path) -> None:
    path = tmp_path / "r.db"
    with Store(path) as store:
        add_night(store)
        placement = Placement("g1", 0, 0, 0, 0)
        assert store.add_game("night", placement, record(2**64 - 1, faulty=True), ["p1", "p2"])
        assert not store.add_game("night", placement, record(5))
    with Store(path) as store:
        (game,) = store.games("night")
        assert game.record == record(2**64 - 1, faulty=True)
        assert game.processes == ("p1", "p2")
        assert store.stored_ids("night") == {"g1"}
        assert [g.placement.game_id for g in store.games(bot="b")] == ["g1"]
        assert store.games(bot="zed") == []
        assert len(store.games(fault=FaultKind.TIMEOUT)) == 1
        assert store.games(fault=FaultKind.CRASH) == []


def test_a_failed_commit_leaves_nothing_behind(tmp_path: Path) -> None:
    with Store(tmp_path / "r.db") as store:
        add_night(store)
        bad = record(1, bots=("a", "b", "c"))  # three seats, two scores: seat rows fail mid-way
        with pytest.raises(IndexError):
            store.add_game("night", Placement("g1", 0, 0, 0, 0), bad)
        assert store.stored_ids("night") == set()
        assert store.games() == []
        assert store.add_game("night", Placement("g1", 0, 0, 0, 0), record(1))


def test_a_different_config_under_the_same_name_is_refused(tmp_path: Path) -> None:
    with Store(tmp_path / "r.db") as store:
        add_night(store)
        add_night(store)
        with pytest.raises(StoreError, match="different config"):
            store.add_tournament("night", "f2", {}, [])


def test_migration_from_version_one_keeps_and_indexes_every_game(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    db = sqlite3.connect(path, isolation_level=None)
    migrate(db, MIGRATIONS[:1])
    db.execute("INSERT INTO tournaments VALUES ('night', 'f1', '{}', 0)")
    blob = msgpack.packb(record(9, faulty=True).to_wire(), use_bin_type=True)
    db.execute(
        "INSERT INTO games VALUES ('night', 'old1', 0, 0, 0, 0, '9', '[]', '[]', '[]', 1, 0, "
        "0.5, 1.0, ?)",
        (blob,),
    )
    assert db.execute("PRAGMA user_version").fetchone()[0] == 1
    db.close()
    with Store(path) as store:
        assert store.schema_version() == len(MIGRATIONS)
        (game,) = store.games(bot="b")
        assert game.record == record(9, faulty=True)
        assert game.processes == ("", "")
        assert len(store.games(fault=FaultKind.TIMEOUT)) == 1


def test_migration_to_builds_makes_every_stored_bot_and_seat_build_one(tmp_path: Path) -> None:
    path = tmp_path / "v2.db"
    db = sqlite3.connect(path, isolation_level=None)
    migrate(db, MIGRATIONS[:2])
    db.execute("INSERT INTO tournaments VALUES ('night', 'f1', '{}', 5)")
    db.execute("INSERT INTO bots VALUES ('night', 'a', '1', '[\"a\"]', 'h1')")
    blob = msgpack.packb(record(9).to_wire(), use_bin_type=True)
    db.execute("INSERT INTO games VALUES ('night', 'g1', 0, 0, 0, 0, '9', '[]', '[]', '[]', 0, 0, "
               "0.5, 1.0, ?)", (blob,))
    db.execute("INSERT INTO game_seats VALUES ('night', 'g1', 0, 'a', 1, 1, 0, NULL)")
    db.execute("INSERT INTO game_seats VALUES ('night', 'g1', 1, 'b', 1, 1, 0, NULL)")
    db.close()
    with Store(path) as store:
        assert store.schema_version() == len(MIGRATIONS)
        assert [(b.bot, b.build, b.files_hash, dict(b.files)) for b in store.builds("night")] == [
            ("a", 1, "h1", {})
        ]
        assert store.game("g1").builds == (1, 1)
        assert store.add_build("night", "a", "h2", {"a.py": "x"}) == 2
        assert store.add_build("night", "a", "h3", {"a.py": "y"}) == 3
        assert [b.build for b in store.builds("night")] == [1, 2, 3]


def test_foreign_corrupt_and_newer_files_are_refused(tmp_path: Path) -> None:
    text = tmp_path / "notes.db"
    text.write_text("hello, not a database at all")
    with pytest.raises(StoreError, match="not an SQLite database"):
        Store(text)
    foreign = tmp_path / "foreign.db"
    db = sqlite3.connect(foreign)
    db.execute("CREATE TABLE people (name TEXT)")
    db.commit()
    db.close()
    with pytest.raises(StoreError, match="not an arena results store"):
        Store(foreign)
    newer = tmp_path / "newer.db"
    Store(newer).close()
    db = sqlite3.connect(newer)
    db.execute(f"PRAGMA user_version = {len(MIGRATIONS) + 1}")
    db.close()
    with pytest.raises(StoreError, match="newer than this arena"):
        Store(newer)
    corrupt = tmp_path / "corrupt.db"
    with Store(corrupt) as store:
        add_night(store)
    data = bytearray(corrupt.read_bytes())
    data[100:4096] = b"\xff" * (4096 - 100)
    corrupt.write_bytes(bytes(data))
    with pytest.raises(StoreError, match="corrupt.db"):
        with Store(corrupt) as store:
            store.games()
