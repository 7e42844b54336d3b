"""The store's connections, known answers: every connection waits 30 s for another writer's lock; a
store this process cannot write is read through a read-only connection that sees what a writer still
holds in its WAL file, or, where SQLite cannot open the shared-memory file a WAL reader needs, as an
immutable file. The real read-only mount is in ``test_tournament_store_known.py``."""

from __future__ import annotations

import os
import sqlite3
import threading
import time
from pathlib import Path

import pytest

import arena.store.db
from arena.store import StoreError
from arena.store.db import BotRow, Store

#: SQLite's busy timeout of every store connection, in milliseconds.
LOCK_WAIT_MS = 30_000


def cannot_write(monkeypatch: pytest.MonkeyPatch) -> None:
    """Stores opened from here on are read-only, as in a folder this process cannot write (which a
    test running as root cannot make without a mount of its own)."""
    monkeypatch.setattr(arena.store.db, "_writable", lambda path: False)


def tournament(store: Store, name: str) -> None:
    store.add_tournament(name, "round-robin", {}, [BotRow("a", "1", ("python3", "a.py"), "h", {})])


def busy_timeout(store: Store) -> int:
    return int(store._db.execute("PRAGMA busy_timeout").fetchone()[0])


def reads_t_and_refuses_writes(reader: Store) -> None:
    assert not reader.writable
    assert [row.name for row in reader.tournaments()] == ["t"]
    with pytest.raises(StoreError, match="read-only here"):
        tournament(reader, "u")


def test_a_write_waits_for_another_writer_s_lock(tmp_path: Path) -> None:
    path = tmp_path / "r.db"
    with Store(path) as store:
        assert busy_timeout(store) == LOCK_WAIT_MS
        other = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        other.execute("BEGIN IMMEDIATE")
        release = threading.Timer(0.3, other.execute, ("COMMIT",))
        began = time.monotonic()  # before the timer starts: a late thread only lengthens the wait
        release.start()
        tournament(store, "t")
        assert time.monotonic() - began >= 0.25
        release.join()
        other.close()
        assert [row.name for row in store.tournaments()] == ["t"]


def test_a_read_only_store_sees_what_a_writer_holds_in_its_wal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "r.db"
    with Store(path) as writer:
        tournament(writer, "t")
        assert os.path.getsize(f"{path}-wal") > 0, "the tournament is still in the WAL file"
        cannot_write(monkeypatch)
        with Store(path) as reader:
            reads_t_and_refuses_writes(reader)
            assert busy_timeout(reader) == LOCK_WAIT_MS
            with pytest.raises(sqlite3.OperationalError, match="readonly database"):
                reader._db.execute("PRAGMA user_version = 99")


def test_a_read_only_wal_store_without_shared_memory_is_read_as_immutable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "r.db"
    with Store(path) as writer:
        tournament(writer, "t")
    assert not os.path.exists(f"{path}-wal")
    cannot_write(monkeypatch)
    os.symlink(tmp_path / "missing" / "shm", f"{path}-shm")  # cannot be opened, even by root
    with pytest.raises(sqlite3.OperationalError):
        sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True).execute("SELECT 1 FROM sqlite_schema")
    with Store(path) as reader:
        reads_t_and_refuses_writes(reader)
