"""The store, known answers: choosing a tournament by name, builds, seats, filters and the exact
errors, on a real database file."""

from __future__ import annotations

import os
import resource
import stat
import time
from pathlib import Path

import msgpack
import pytest

from arena.record import DecisionRecord, Fault, FaultKind, MatchRecord
from arena.store import StoreError
import sqlite3

from arena.store.db import APPLICATION_ID, BotRow, BuildRow, Placement, Store, migrate
from arena.store.migrations import MIGRATIONS


def record(seed: int, bots: tuple[str, ...], faults: tuple[Fault, ...] = (),
           forfeited: tuple[int, ...] = ()) -> MatchRecord:
    return MatchRecord(
        game="wongar", version=1, variant="basic", knobs={}, seed=seed, bots=bots,
        decisions=tuple(DecisionRecord(s, s, 0.01) for s in range(len(bots))),
        faults=faults, scores=tuple(range(len(bots))), ranks=tuple(range(len(bots), 0, -1)),
        duration=0.25, forfeited=forfeited,
    )


def bot(name: str) -> BotRow:
    return BotRow(name, "1", ("python3", f"{name}.py"), f"hash-{name}", {f"{name}.py": "d1"})


def test_no_name_picks_the_only_tournament_and_refuses_with_several(tmp_path: Path) -> None:
    path = tmp_path / "r.db"
    with Store(path) as store:
        with pytest.raises(StoreError) as caught:
            store.tournament(None)
        assert str(caught.value) == f"{path}: name a tournament; stored: none"
        store.add_tournament("first", "f1", {"n": 1}, [bot("a")])
        only = store.tournament(None)
        assert (only.name, only.fingerprint, dict(only.config)) == ("first", "f1", {"n": 1})
        time.sleep(0.01)  # a later creation time
        store.add_tournament("second", "f2", {"n": 2}, [bot("b")])
        with pytest.raises(StoreError) as caught:
            store.tournament(None)
        assert str(caught.value) == f"{path}: name a tournament; stored: first, second"
        assert store.tournament("second").config == {"n": 2}
        assert store.tournament("first").fingerprint == "f1"
        with pytest.raises(StoreError) as caught:
            store.tournament("third")
        assert str(caught.value) == f"{path}: no tournament 'third'; stored: first, second"
        assert [t.name for t in store.tournaments()] == ["first", "second"]
        first, second = store.tournaments()
        assert first.created < second.created


def test_a_tournament_stored_again_keeps_its_bots_and_takes_the_new_config(tmp_path: Path) -> None:
    with Store(tmp_path / "r.db") as store:
        store.add_tournament("t", "fp", {"folder": "/old"}, [bot("b"), bot("a")])
        store.add_tournament("t", "fp", {"folder": "/new"}, [bot("z")])
        assert store.tournament("t").config == {"folder": "/new"}
        assert store.bots("t") == [BotRow("a", "1", ("python3", "a.py"), "hash-a"),
                                   BotRow("b", "1", ("python3", "b.py"), "hash-b")]
        with pytest.raises(StoreError) as caught:
            store.add_tournament("t", "other", {}, [])
        assert "tournament 't' is stored with a different config" in str(caught.value)
        assert store.builds("t") == [BuildRow("a", 1, "hash-a", {"a.py": "d1"}),
                                     BuildRow("b", 1, "hash-b", {"b.py": "d1"})]
        assert store.add_build("t", "a", "hash-a2", {"a.py": "d2"}) == 2
        assert store.add_build("t", "a", "hash-a3", {}) == 3
        with pytest.raises(StoreError, match="write failed .*; this write is not stored"):
            store.add_build("t", "stranger", "hash-n", {})  # not a bot of the tournament
        assert [(b.bot, b.build, b.files_hash) for b in store.builds("t")] == [
            ("a", 1, "hash-a"), ("a", 2, "hash-a2"), ("a", 3, "hash-a3"), ("b", 1, "hash-b")]
        assert store.bots("nothing") == [] and store.builds("nothing") == []


def test_games_keep_their_placement_seats_and_filters(tmp_path: Path) -> None:
    path = tmp_path / "r.db"
    with Store(path) as store:
        store.add_tournament("t", "f", {}, [bot("a"), bot("b"), bot("c")])
        store.add_tournament("u", "g", {}, [bot("a")])
        timeout = Fault(1, FaultKind.TIMEOUT, 0, "late")
        assert store.add_game("t", Placement("g1", 2, 3, 4, 5), record(7, ("a", "b")),
                              ["pa", "pb"], [1, 2])
        assert store.add_game("t", Placement("g2", 0, 0, 0, 0), record(8, ("b", "c"), (timeout,)))
        assert store.add_game("t", Placement("g3", 0, 1, 0, 0), record(9, ("c", "a"), (), (0,)))
        assert store.add_game("u", Placement("g1", 0, 0, 0, 0), record(10, ("a", "a")))
        assert not store.add_game("t", Placement("g1", 9, 9, 9, 9), record(11, ("a", "b")))
    with Store(path) as store:
        first = store.game("g1", "t")
        assert first.tournament == "t" and first.placement == Placement("g1", 2, 3, 4, 5)
        assert first.record == record(7, ("a", "b"))
        assert first.processes == ("pa", "pb") and first.builds == (1, 2)
        unrecorded = store.game("g2")
        assert unrecorded.processes == ("", "") and unrecorded.builds == (0, 0)
        assert store.stored_ids("t") == {"g1", "g2", "g3"} and store.stored_ids("u") == {"g1"}
        assert [g.placement.game_id for g in store.games("t")] == ["g1", "g2", "g3"]
        assert [(g.tournament, g.placement.game_id) for g in store.games()] == [
            ("t", "g1"), ("t", "g2"), ("t", "g3"), ("u", "g1")]
        assert [g.placement.game_id for g in store.games("t", bot="c")] == ["g2", "g3"]
        assert [g.tournament for g in store.games(bot="a")] == ["t", "t", "u"]
        assert [g.placement.game_id for g in store.games(flagged=True)] == ["g2", "g3"]
        assert [g.placement.game_id for g in store.games(fault=FaultKind.TIMEOUT)] == ["g2"]
        assert store.games(fault=FaultKind.CRASH) == []
        assert store.games("u", bot="b") == []
        with pytest.raises(StoreError) as caught:
            store.game("g1")
        assert str(caught.value) == "game 'g1' is in several tournaments (t, u); name one"
        with pytest.raises(StoreError) as caught:
            store.game("g9")
        assert str(caught.value) == f"{path}: no stored game 'g9'"
        with pytest.raises(StoreError, match="no stored game 'g2'"):
            store.game("g2", "u")


def test_seat_rows_count_each_seat_s_faults(tmp_path: Path) -> None:
    path = tmp_path / "r.db"
    with Store(path) as store:
        store.add_tournament("t", "f", {}, [bot("a"), bot("b")])
        faults = (Fault(1, FaultKind.TIMEOUT, 0, "x"), Fault(1, FaultKind.ILLEGAL, 1, "y"))
        store.add_game("t", Placement("g", 0, 0, 0, 0), record(1, ("a", "b"), faults, (1,)))
    db = sqlite3.connect(path)
    try:
        assert db.execute("SELECT faults, forfeits, seed FROM games").fetchone() == (2, 1, "1")
        seats = db.execute("SELECT seat, bot, score, rank, faults FROM game_seats ORDER BY seat").fetchall()
        assert seats == [(0, "a", 0, 2, 0), (1, "b", 1, 1, 2)]
    finally:
        db.close()


def test_a_new_store_is_private_and_marked_as_an_arena_store(tmp_path: Path) -> None:
    path = tmp_path / "r.db"
    with Store(path) as store:
        assert store.writable
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    db = sqlite3.connect(path)
    try:
        assert db.execute("PRAGMA application_id").fetchone() == (APPLICATION_ID,)
    finally:
        db.close()


def test_an_unreadable_stored_record_is_a_store_error_naming_the_game(tmp_path: Path) -> None:
    path = tmp_path / "r.db"
    with Store(path) as store:
        store.add_tournament("t", "f", {}, [bot("a")])
        store.add_game("t", Placement("g", 0, 0, 0, 0), record(1, ("a", "a")))
    db = sqlite3.connect(path)
    db.execute("UPDATE games SET record = ?", (msgpack.packb({"nonsense": 1}),))
    db.commit()
    db.close()
    with Store(path) as store, pytest.raises(StoreError) as caught:
        store.game("g")
    assert str(caught.value).startswith(f"{path}: stored game 'g' is unreadable: ")


def test_a_file_that_is_not_sqlite_is_refused_and_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "notes.db"
    path.write_bytes(b"hello, world, this is text")
    with pytest.raises(StoreError) as caught:
        Store(path)
    assert str(caught.value) == f"{path}: not an SQLite database (is this the right file?)"
    assert path.read_bytes() == b"hello, world, this is text"
    empty = tmp_path / "empty.db"
    empty.write_bytes(b"")
    with Store(empty) as store:  # an empty file is a new store
        assert store.tournaments() == []


def test_stored_rows_in_full(tmp_path: Path) -> None:
    path = tmp_path / "r.db"
    before = time.time()
    with Store(path) as store:
        with pytest.raises(StoreError) as caught:
            store.tournament("x")
        assert str(caught.value) == f"{path}: no tournament 'x'; stored: none"
        store.add_tournament("t", "f", {"b": 1, "a": {"d": 2, "c": 3}}, [bot("a"), bot("b")])
        assert list(store.tournament("t").config) == ["a", "b"]  # stored with sorted keys
        store.add_tournament("t", "f", {"z": 1, "y": 2}, [])
        assert list(store.tournament("t").config) == ["y", "z"]
        with pytest.raises(StoreError) as caught:
            store.add_tournament("t", "g", {}, [])
        assert str(caught.value) == (f"{path}: tournament 't' is stored with a different config; "
                                     "rename the tournament or use another database")
        assert store.add_build("t", "b", "hash-b2", {"b.py": "d2", "w.bin": "d3"}) == 2
        assert store.builds("t")[-1] == BuildRow("b", 2, "hash-b2", {"b.py": "d2", "w.bin": "d3"})
        store.add_game("t", Placement("g", 1, 2, 3, 4), record(5, ("a", "b")))
        (game,) = store.games("t")
        assert before <= game.finished <= time.time()
    db = sqlite3.connect(path)
    try:
        row = db.execute("SELECT bots, scores, ranks, seed, duration, generation, table_index, deal, "
                         "rotation FROM games").fetchone()
        assert row == ('["a", "b"]', "[0, 1]", "[2, 1]", "5", 0.25, 1, 2, 3, 4)
        config = db.execute("SELECT config FROM tournaments").fetchone()[0]
        assert config == '{"y": 2, "z": 1}'
    finally:
        db.close()


def test_foreign_and_broken_files_are_store_errors(tmp_path: Path) -> None:
    versioned = tmp_path / "versioned.db"
    db = sqlite3.connect(versioned)
    db.execute("PRAGMA user_version = 5")  # not ours, though it has no tables and no application id
    db.commit()
    db.close()
    with pytest.raises(StoreError) as caught:
        Store(versioned)
    assert str(caught.value) == f"{versioned}: an SQLite database, but not an arena results store"
    missing = tmp_path / "no-such-folder" / "r.db"
    with pytest.raises(StoreError) as caught:
        Store(missing)
    assert str(caught.value) == f"{missing}: cannot open the results database: unable to open database file"
    damaged = tmp_path / "damaged.db"
    with Store(damaged) as store:
        db = sqlite3.connect(damaged)
        db.execute("DROP TABLE game_seats")
        db.execute("DROP TABLE games")
        db.commit()
        db.close()
        with pytest.raises(StoreError) as caught:
            store.stored_ids("t")
        assert str(caught.value) == f"{damaged}: cannot read the results database (no such table: games)"


READ_ONLY_SCRIPT = """
import sys
from pathlib import Path
from arena.store import StoreError
from arena.store.db import Store
store = Store(Path(sys.argv[1]))
print(store.writable, [t.name for t in store.tournaments()], sorted(store.stored_ids("t")))
try:
    store.add_build("t", "a", "h", {})
except StoreError as exc:
    print(exc)
try:
    Store(Path(sys.argv[2]))
except StoreError as exc:
    print(exc)
"""


def test_a_store_on_a_read_only_mount_reads_and_refuses_writes(tmp_path: Path) -> None:
    import shutil
    import subprocess
    import sys

    folder = tmp_path / "ro"
    folder.mkdir()
    path = folder / "r.db"
    with Store(path) as store:
        store.add_tournament("t", "f", {}, [bot("a")])
        store.add_game("t", Placement("g", 0, 0, 0, 0), record(1, ("a", "a")))
    old = folder / "old.db"  # an arena store at schema version 1
    db = sqlite3.connect(old)
    migrate(db, MIGRATIONS[:1])
    db.close()
    if shutil.which("unshare") is None:
        if os.environ.get("CI") == "true":
            pytest.fail("unshare (util-linux) is needed for read-only mounts")
        pytest.skip("no unshare here")
    script = tmp_path / "read_only.py"
    script.write_text(READ_ONLY_SCRIPT)
    shell = f"mount --bind -o ro {folder} {folder} && exec {sys.executable} {script} {path} {old}"
    done = subprocess.run(["unshare", "-r", "--mount", "sh", "-c", shell], capture_output=True, text=True,
                          timeout=60, cwd=os.getcwd(), env={**os.environ, "PYTHONPATH": os.getcwd()})
    if done.returncode != 0 and "mount" in done.stderr and os.environ.get("CI") != "true":
        pytest.skip(f"no read-only bind mounts here: {done.stderr.strip()}")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "False ['t'] ['g']",
        f"{path}: the results database is read-only here",
        f"{old}: read-only, and its schema (version 1) is older than this arena's ({len(MIGRATIONS)}); "
        "open it once where it is writable",
    ]


def test_a_late_entrant_joins_with_build_one_and_the_new_config(tmp_path: Path) -> None:
    path = tmp_path / "r.db"
    with Store(path) as store:
        store.add_tournament("t", "f1", {"bots": ["a"]}, [bot("a")])
        store.add_game("t", Placement("g", 0, 0, 0, 0), record(1, ("a", "a")))
        store.add_late_entry("t", "f2", {"bots": ["a", "late"], "b": 0}, bot("late"))
        row = store.tournament("t")
        assert (row.fingerprint, list(row.config), row.config["bots"]) == ("f2", ["b", "bots"], ["a", "late"])
        assert store.bots("t") == [BotRow("a", "1", ("python3", "a.py"), "hash-a"),
                                   BotRow("late", "1", ("python3", "late.py"), "hash-late")]
        assert store.builds("t")[-1] == BuildRow("late", 1, "hash-late", {"late.py": "d1"})
        assert store.stored_ids("t") == {"g"}
        with pytest.raises(StoreError) as caught:
            store.add_late_entry("nope", "f", {}, bot("x"))
        assert str(caught.value) == f"{path}: no tournament 'nope'"
        with pytest.raises(StoreError, match="write failed"):
            store.add_late_entry("t", "f3", {}, bot("late"))  # already entered
        assert store.tournament("t").fingerprint == "f2"


def test_a_failed_migration_is_rolled_back_with_its_own_error(tmp_path: Path) -> None:
    db = sqlite3.connect(tmp_path / "m.db", isolation_level=None)

    def half_done(db: sqlite3.Connection) -> None:
        db.execute("CREATE TABLE partial (x)")
        raise ValueError("step two failed")

    try:
        migrate(db, MIGRATIONS[:1])
        with pytest.raises(ValueError, match="step two failed"):
            migrate(db, (*MIGRATIONS[:1], half_done))
        assert db.execute("PRAGMA user_version").fetchone() == (1,)
        assert db.execute("SELECT count(*) FROM sqlite_schema WHERE name = 'partial'").fetchone() == (0,)
        assert not db.in_transaction
    finally:
        db.close()


def test_a_folder_is_not_a_store(tmp_path: Path) -> None:
    with pytest.raises(StoreError) as caught:
        Store(tmp_path)
    assert str(caught.value) == f"{tmp_path}: cannot read: [Errno 21] Is a directory: '{tmp_path}'"


def test_an_open_store_commits_games_with_no_descriptor_left(tmp_path: Path) -> None:
    """A flood of connections that takes every descriptor cannot make storing a game fail."""
    with Store(tmp_path / "r.db") as store:
        store.add_tournament("t", "f", {}, [bot("a"), bot("b")])
        assert store.add_game("t", Placement("g1", 0, 0, 0, 0), record(1, ("a", "b")))
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        resource.setrlimit(resource.RLIMIT_NOFILE, (len(os.listdir("/proc/self/fd")) + 16, hard))
        taken: list[int] = []
        try:
            with pytest.raises(OSError, match="Too many open files"):
                while True:
                    taken.append(os.open(os.devnull, os.O_RDONLY))
            assert store.add_game("t", Placement("g2", 0, 1, 0, 0), record(2, ("b", "a")))
            assert store.add_game("t", Placement("g3", 0, 2, 0, 0), record(3, ("a", "b")))
        finally:
            for fd in taken:
                os.close(fd)
            resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    with Store(tmp_path / "r.db") as store:
        assert len(store.games("t")) == 3
