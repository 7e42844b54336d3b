"""The results store: open (creating or migrating), record tournaments and games, read them back.

A game is committed whole or not at all (one transaction), and inserting a game id that is already
stored changes nothing, so a replayed id is never stored twice. The file is in WAL mode with full
synchronisation, so a committed game survives the writer being killed.
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import Any

import msgpack

from arena.record import FaultKind, MatchRecord
from arena.store import StoreError
from arena.store.migrations import MIGRATIONS, Migration

#: ``PRAGMA application_id`` of an arena store ("ARNA").
APPLICATION_ID = 0x41524E41
_SQLITE_HEADER = b"SQLite format 3\x00"


@dataclass(frozen=True, slots=True)
class BotRow:
    """A bot as stored with its tournament: ``files_hash`` identifies the code that played,
    ``files`` the digest of each of its files (see :mod:`arena.tournament.botfiles`)."""

    name: str
    version: str
    command: tuple[str, ...]
    files_hash: str
    files: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class BuildRow:
    """Build ``build`` (1, 2, ...) of a bot: its files as they were when it first played
    (``files`` empty for a build stored before file digests were kept)."""

    bot: str
    build: int
    files_hash: str
    files: Mapping[str, str]


@dataclass(frozen=True, slots=True)
class TournamentRow:
    """A stored tournament: its config as plain data and when it was first stored (Unix seconds)."""

    name: str
    fingerprint: str
    config: Mapping[str, Any]
    created: float


@dataclass(frozen=True, slots=True)
class DealCommitment:
    """A tournament's deal commitment (hex) and, once revealed, its deal secret (hex)."""

    commitment: str
    revealed: str | None = None


@dataclass(frozen=True, slots=True)
class Placement:
    """Where a game sits in its tournament's schedule."""

    game_id: str
    generation: int
    table: int
    deal: int
    rotation: int


@dataclass(frozen=True, slots=True)
class StoredGame:
    """A stored game: its placement, when it was committed (Unix seconds) and the whole record.

    ``processes[s]`` names the bot process that played seat ``s`` (empty where not recorded);
    ``builds[s]`` the build of its bot (see :meth:`Store.builds`; 0 where not recorded).
    """

    tournament: str
    placement: Placement
    finished: float
    record: MatchRecord
    processes: tuple[str, ...]
    builds: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class VoidedGame:
    """One void attempt at a game (stopped by a host fault; the game itself is played again):
    attempt ``attempt`` (1, 2, ...) of game ``game_id``, when it was stored and why it is void."""

    game_id: str
    attempt: int
    finished: float
    reason: str


class Store:
    """An open results database. Use as a context manager; :meth:`close` is idempotent."""

    def __init__(self, path: Path) -> None:
        """Open ``path`` (created if missing) and migrate it to the current schema.

        Raises :class:`StoreError` if the file is not an arena store, is corrupt, or is newer.
        """
        self.path = path
        _check_header(path)
        _create_private(path)
        #: ``False`` for a file this process cannot write (read-only file, folder or mount): it is
        #: opened read-only, reads work, and every write is a :class:`StoreError` saying so.
        self.writable = _writable(path)
        try:
            self._db = _connect(path, self.writable)
        except sqlite3.Error as exc:
            raise StoreError(f"{path}: cannot open the results database: {exc}") from None
        try:
            self._prepare()
        except sqlite3.DatabaseError as exc:
            self._db.close()
            raise StoreError(f"{path}: not a usable arena results database ({exc})") from None
        except StoreError:
            self._db.close()
            raise

    def _prepare(self) -> None:
        db = self._db
        version = int(db.execute("PRAGMA user_version").fetchone()[0])
        app_id = int(db.execute("PRAGMA application_id").fetchone()[0])
        tables = db.execute("SELECT count(*) FROM sqlite_schema").fetchone()[0]
        if app_id != APPLICATION_ID and (app_id != 0 or version != 0 or tables):
            raise StoreError(f"{self.path}: an SQLite database, but not an arena results store")
        if version > len(MIGRATIONS):
            raise StoreError(
                f"{self.path}: schema version {version} is newer than this arena understands "
                f"({len(MIGRATIONS)}); upgrade arena"
            )
        if not self.writable:
            if version < len(MIGRATIONS):
                raise StoreError(
                    f"{self.path}: read-only, and its schema (version {version}) is older than "
                    f"this arena's ({len(MIGRATIONS)}); open it once where it is writable"
                )
            return
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=FULL")
        db.execute("PRAGMA foreign_keys=ON")
        migrate(db, MIGRATIONS)

    def close(self) -> None:
        """Close the connection (committed data is already durable)."""
        self._db.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    @contextmanager
    def snapshot(self) -> Iterator[None]:
        """One read transaction: every read inside sees the database as it was at the first of
        them, whatever another process commits meanwhile (a run in progress keeps storing games).
        Not for writes; inside another snapshot it is that snapshot."""
        if self._db.in_transaction:
            yield
            return
        try:
            self._db.execute("BEGIN DEFERRED")
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"{self.path}: cannot read the results database ({exc})") from None
        try:
            yield
        finally:
            if self._db.in_transaction:
                self._db.execute("COMMIT")

    def schema_version(self) -> int:
        """The schema version of the open file."""
        return int(self._db.execute("PRAGMA user_version").fetchone()[0])

    def journal_mode(self) -> str:
        """The journal mode of the open file (``wal``)."""
        return str(self._db.execute("PRAGMA journal_mode").fetchone()[0])

    # -- tournaments -------------------------------------------------------------------------

    def add_tournament(
        self, name: str, fingerprint: str, config: Mapping[str, Any], bots: Sequence[BotRow]
    ) -> None:
        """Record a tournament and its bots (each as build 1), or check that the stored one has the
        same fingerprint and store ``config`` as it is now resolved (bots' folders).

        Raises :class:`StoreError` if ``name`` is stored with a different config.
        """
        with self._transaction():
            row = self._db.execute(
                "SELECT fingerprint FROM tournaments WHERE name = ?", (name,)
            ).fetchone()
            if row is not None:
                if row[0] != fingerprint:
                    raise StoreError(
                        f"{self.path}: tournament {name!r} is stored with a different config; "
                        "rename the tournament or use another database"
                    )
                self._db.execute(
                    "UPDATE tournaments SET config = ? WHERE name = ?",
                    (json.dumps(config, sort_keys=True), name),
                )
                return
            created = time.time()
            self._db.execute(
                "INSERT INTO tournaments VALUES (?, ?, ?, ?)",
                (name, fingerprint, json.dumps(config, sort_keys=True), created),
            )
            self._db.executemany(
                "INSERT INTO bots VALUES (?, ?, ?, ?, ?)",
                [
                    (name, b.name, b.version, json.dumps(list(b.command)), b.files_hash)
                    for b in bots
                ],
            )
            self._db.executemany(
                "INSERT INTO bot_builds VALUES (?, ?, 1, ?, ?, ?)",
                [(name, b.name, b.files_hash, json.dumps(dict(b.files)), created) for b in bots],
            )

    def add_late_entry(
        self, name: str, fingerprint: str, config: Mapping[str, Any], bot: BotRow
    ) -> None:
        """Store ``bot`` as a late entrant of tournament ``name`` (as build 1), with the config and
        fingerprint that now include it; stored games are untouched. Raises :class:`StoreError`
        if there is no such tournament."""
        with self._transaction():
            updated = self._db.execute(
                "UPDATE tournaments SET fingerprint = ?, config = ? WHERE name = ?",
                (fingerprint, json.dumps(config, sort_keys=True), name),
            ).rowcount
            if not updated:
                raise StoreError(f"{self.path}: no tournament {name!r}")
            self._db.execute(
                "INSERT INTO bots VALUES (?, ?, ?, ?, ?)",
                (name, bot.name, bot.version, json.dumps(list(bot.command)), bot.files_hash),
            )
            self._db.execute(
                "INSERT INTO bot_builds VALUES (?, ?, 1, ?, ?, ?)",
                (name, bot.name, bot.files_hash, json.dumps(dict(bot.files)), time.time()),
            )

    def builds(self, tournament: str) -> list[BuildRow]:
        """Every build of every bot of ``tournament``, by bot name then build."""
        rows = self._rows(
            "SELECT bot, build, files_hash, files FROM bot_builds WHERE tournament = ? "
            "ORDER BY bot, build",
            (tournament,),
        )
        return [BuildRow(b, n, h, json.loads(f)) for b, n, h, f in rows]

    def add_build(
        self, tournament: str, bot: str, files_hash: str, files: Mapping[str, str]
    ) -> int:
        """Record a new build of ``bot`` and return its number (one more than the last)."""
        with self._transaction():
            (last,) = self._db.execute(
                "SELECT max(build) FROM bot_builds WHERE tournament = ? AND bot = ?",
                (tournament, bot),
            ).fetchone()
            number = int(last or 0) + 1
            self._db.execute(
                "INSERT INTO bot_builds VALUES (?, ?, ?, ?, ?, ?)",
                (tournament, bot, number, files_hash, json.dumps(dict(files)), time.time()),
            )
        return number

    def tournaments(self) -> list[TournamentRow]:
        """Every stored tournament, oldest first."""
        rows = self._rows(
            "SELECT name, fingerprint, config, created FROM tournaments ORDER BY created, name"
        )
        return [TournamentRow(n, f, json.loads(c), t) for n, f, c, t in rows]

    def tournament(self, name: str | None) -> TournamentRow:
        """The tournament ``name``, or the only one stored when ``name`` is ``None``."""
        stored = self.tournaments()
        if name is None:
            if len(stored) == 1:
                return stored[0]
            listing = ", ".join(t.name for t in stored) or "none"
            raise StoreError(f"{self.path}: name a tournament; stored: {listing}")
        for row in stored:
            if row.name == name:
                return row
        listing = ", ".join(t.name for t in stored) or "none"
        raise StoreError(f"{self.path}: no tournament {name!r}; stored: {listing}")

    def bots(self, tournament: str) -> list[BotRow]:
        """The bots of ``tournament`` in name order."""
        rows = self._rows(
            "SELECT name, version, command, files_hash FROM bots WHERE tournament = ? "
            "ORDER BY name",
            (tournament,),
        )
        return [BotRow(n, v, tuple(json.loads(c)), h) for n, v, c, h in rows]

    def deal_commitment(self, tournament: str) -> DealCommitment | None:
        """The deal commitment of ``tournament``; ``None`` if its deals are public (or it is not
        stored)."""
        rows = self._rows(
            "SELECT commitment, revealed FROM deal_secrets WHERE tournament = ?", (tournament,)
        )
        return DealCommitment(rows[0][0], rows[0][1]) if rows else None

    def commit_deals(self, tournament: str, commitment: str) -> None:
        """Store the deal commitment of the stored ``tournament``, which must have none yet and no
        stored game (:class:`StoreError` otherwise: a commitment is made before play, once)."""
        with self._transaction():
            if self._db.execute(
                "SELECT 1 FROM deal_secrets WHERE tournament = ?", (tournament,)
            ).fetchone() or self._db.execute(
                "SELECT 1 FROM games WHERE tournament = ? LIMIT 1", (tournament,)
            ).fetchone():
                raise StoreError(
                    f"{self.path}: tournament {tournament!r} has played or committed to its deals "
                    "already; a commitment is made once, before play"
                )
            self._db.execute(
                "INSERT INTO deal_secrets VALUES (?, ?, NULL)", (tournament, commitment)
            )

    def reveal_deals(self, tournament: str, secret: str) -> None:
        """Store the revealed deal secret (hex) of ``tournament`` beside its commitment (checked
        by the caller). :class:`StoreError` if it has no commitment."""
        with self._transaction():
            updated = self._db.execute(
                "UPDATE deal_secrets SET revealed = ? WHERE tournament = ?", (secret, tournament)
            ).rowcount
            if not updated:
                raise StoreError(f"{self.path}: tournament {tournament!r} has no deal commitment")

    # -- games -------------------------------------------------------------------------------

    def add_game(
        self,
        tournament: str,
        placement: Placement,
        record: MatchRecord,
        processes: Sequence[str] = (),
        builds: Sequence[int] = (),
    ) -> bool:
        """Commit one game whole (game row and seat rows in one transaction); ``processes`` and
        ``builds`` per seat (the process and the bot build that played it) when known.

        Returns ``False``, changing nothing, if the id is already stored for ``tournament``. A void
        record (:meth:`add_void` stores those) is a ``ValueError``: a void game has no result.
        """
        if record.void is not None:
            raise ValueError("a void record is not a game: store it with add_void")
        blob = msgpack.packb(record.to_wire(), use_bin_type=True)
        fault_seats = [f.seat for f in record.faults]
        procs: list[str | None] = [*processes] or [None] * record.players
        made: list[int | None] = [*builds] or [None] * record.players
        with self._transaction():
            cursor = self._db.execute(
                "INSERT OR IGNORE INTO games VALUES "
                "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    tournament,
                    placement.game_id,
                    placement.generation,
                    placement.table,
                    placement.deal,
                    placement.rotation,
                    str(record.seed),
                    json.dumps(list(record.bots)),
                    json.dumps(list(record.scores)),
                    json.dumps(list(record.ranks)),
                    len(record.faults),
                    len(record.forfeited),
                    record.duration,
                    time.time(),
                    blob,
                ),
            )
            if cursor.rowcount == 0:
                return False
            self._db.executemany(
                "INSERT INTO game_seats VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    (
                        tournament,
                        placement.game_id,
                        seat,
                        bot,
                        record.scores[seat],
                        record.ranks[seat],
                        fault_seats.count(seat),
                        procs[seat],
                        made[seat],
                    )
                    for seat, bot in enumerate(record.bots)
                ],
            )
        return True

    def add_void(self, tournament: str, game_id: str, record: MatchRecord) -> int:
        """Store a void attempt at ``game_id`` (``record.void`` says why) and return its attempt
        number; the game stays unplayed (not in :meth:`stored_ids`)."""
        if record.void is None:
            raise ValueError("add_void needs a void record")
        blob = msgpack.packb(record.to_wire(), use_bin_type=True)
        with self._transaction():
            (last,) = self._db.execute(
                "SELECT max(attempt) FROM voided_games WHERE tournament = ? AND id = ?",
                (tournament, game_id),
            ).fetchone()
            attempt = int(last or 0) + 1
            self._db.execute(
                "INSERT INTO voided_games VALUES (?, ?, ?, ?, ?, ?)",
                (tournament, game_id, attempt, record.void, time.time(), blob),
            )
        return attempt

    def voided(self, tournament: str) -> list[VoidedGame]:
        """Every void attempt at a game of ``tournament``, oldest first."""
        rows = self._rows(
            "SELECT id, attempt, finished, reason FROM voided_games WHERE tournament = ? "
            "ORDER BY finished, id, attempt",
            (tournament,),
        )
        return [VoidedGame(i, a, f, r) for i, a, f, r in rows]

    def stored_ids(self, tournament: str) -> set[str]:
        """The ids of every stored game of ``tournament``."""
        rows = self._rows("SELECT id FROM games WHERE tournament = ?", (tournament,))
        return {r[0] for r in rows}

    def games(
        self,
        tournament: str | None = None,
        bot: str | None = None,
        fault: FaultKind | None = None,
        flagged: bool = False,
    ) -> list[StoredGame]:
        """Stored games in commit order, filtered by tournament, a bot that sat, a fault kind, or
        any fault or forfeit (``flagged``)."""
        where: list[str] = []
        args: list[Any] = []
        if tournament is not None:
            where.append("g.tournament = ?")
            args.append(tournament)
        if bot is not None:
            where.append(
                "EXISTS (SELECT 1 FROM game_seats s WHERE s.tournament = g.tournament "
                "AND s.game = g.id AND s.bot = ?)"
            )
            args.append(bot)
        if flagged or fault is not None:
            where.append("(g.faults > 0 OR g.forfeits > 0)")
        sql = "SELECT g.tournament, g.id FROM games g"
        if where:
            sql += " WHERE " + " AND ".join(where)
        sql += " ORDER BY g.finished, g.rowid"
        found = [self._load(t, i) for t, i in self._rows(sql, args)]
        if fault is not None:
            found = [g for g in found if any(f.kind is fault for f in g.record.faults)]
        return found

    def game(self, game_id: str, tournament: str | None = None) -> StoredGame:
        """The stored game ``game_id``; raises :class:`StoreError` if absent or ambiguous."""
        sql = "SELECT tournament FROM games WHERE id = ?"
        args: list[Any] = [game_id]
        if tournament is not None:
            sql += " AND tournament = ?"
            args.append(tournament)
        rows = self._rows(sql, args)
        if not rows:
            raise StoreError(f"{self.path}: no stored game {game_id!r}")
        if len(rows) > 1:
            names = ", ".join(r[0] for r in rows)
            raise StoreError(f"game {game_id!r} is in several tournaments ({names}); name one")
        return self._load(rows[0][0], game_id)

    def _load(self, tournament: str, game_id: str) -> StoredGame:
        ((generation, table, deal, rotation, finished, blob),) = self._rows(
            "SELECT generation, table_index, deal, rotation, finished, record FROM games "
            "WHERE tournament = ? AND id = ?",
            (tournament, game_id),
        )
        try:
            record = MatchRecord.from_wire(msgpack.unpackb(blob, raw=False))
        except (ValueError, KeyError, TypeError, msgpack.UnpackException) as exc:
            raise StoreError(f"{self.path}: stored game {game_id!r} is unreadable: {exc}") from None
        seats = self._rows(
            "SELECT process, build FROM game_seats WHERE tournament = ? AND game = ? ORDER BY seat",
            (tournament, game_id),
        )
        return StoredGame(
            tournament,
            Placement(game_id, generation, table, deal, rotation),
            finished,
            record,
            tuple(p or "" for p, _ in seats),
            tuple(b or 0 for _, b in seats),
        )

    def _rows(self, sql: str, args: Sequence[Any] = ()) -> list[Any]:
        """Every row of a query; a damaged file is a :class:`StoreError`."""
        try:
            return self._db.execute(sql, args).fetchall()
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"{self.path}: cannot read the results database ({exc})") from None

    class _Tx:
        """One write transaction; a database failure in it is a :class:`StoreError`."""

        def __init__(self, store: Store) -> None:
            self.store = store

        def __enter__(self) -> None:
            if not self.store.writable:
                raise StoreError(f"{self.store.path}: the results database is read-only here")
            try:
                self.store._db.execute("BEGIN IMMEDIATE")
            except sqlite3.DatabaseError as exc:
                raise StoreError(f"{self.store.path}: cannot write ({exc})") from None

        def __exit__(
            self,
            kind: type[BaseException] | None,
            exc: BaseException | None,
            tb: TracebackType | None,
        ) -> None:
            db = self.store._db
            if kind is None:
                try:
                    db.execute("COMMIT")
                    return
                except sqlite3.DatabaseError as failed:
                    exc = failed
            if db.in_transaction:
                db.execute("ROLLBACK")
            if isinstance(exc, sqlite3.DatabaseError):
                raise StoreError(
                    f"{self.store.path}: write failed ({exc}); this write is not stored, "
                    "everything stored before is kept"
                ) from None

    def _transaction(self) -> Store._Tx:
        return Store._Tx(self)

    # -- tables kept by other modules (the league's) ----------------------------------------

    def write(self) -> Store._Tx:
        """One write transaction for a module keeping its own tables: the statements it runs
        with :meth:`execute` inside commit together, or none of them does."""
        return Store._Tx(self)

    def execute(self, sql: str, args: Sequence[Any] = ()) -> None:
        """Run one statement (inside :meth:`write`)."""
        self._db.execute(sql, args)

    def rows(self, sql: str, args: Sequence[Any] = ()) -> list[Any]:
        """Every row of a query; a damaged file is a :class:`StoreError`."""
        return self._rows(sql, args)


def _create_private(path: Path) -> None:
    """Create a missing database file readable and writable by its owner alone (SQLite gives its
    WAL and shared-memory files the same permissions): bots and other users must not read the
    master seed or the records. An existing file, or one that cannot be made here, is left as is."""
    try:
        os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
    except OSError:
        pass


def _writable(path: Path) -> bool:
    """Whether ``path`` (and its folder, for the WAL files) can be written; a missing file can be
    created if its folder can be written."""
    if not os.access(path.parent, os.W_OK):
        return False
    return not path.exists() or os.access(path, os.W_OK)


def _connect(path: Path, writable: bool) -> sqlite3.Connection:
    """A connection to ``path``; read-only unless ``writable``. A read-only WAL file whose shared
    memory file cannot be made (read-only folder or mount, nothing left in a WAL file) is opened
    as immutable: nobody can be writing it."""
    if writable:
        return sqlite3.connect(path, isolation_level=None, timeout=30.0)
    uri = path.resolve().as_uri()
    db = sqlite3.connect(f"{uri}?mode=ro", uri=True, isolation_level=None, timeout=30.0)
    try:
        db.execute("SELECT count(*) FROM sqlite_schema").fetchone()
        return db
    except sqlite3.OperationalError:
        db.close()
    return sqlite3.connect(f"{uri}?immutable=1", uri=True, isolation_level=None)


def migrate(db: sqlite3.Connection, migrations: Sequence[Migration]) -> None:
    """Apply the migrations the file lacks, each in its own transaction with its version bump."""
    version = int(db.execute("PRAGMA user_version").fetchone()[0])
    for number, step in enumerate(migrations[version:], start=version + 1):
        db.execute("BEGIN IMMEDIATE")
        try:
            step(db)
            db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            db.execute(f"PRAGMA user_version = {number}")
        except BaseException:
            db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")


def _check_header(path: Path) -> None:
    try:
        with path.open("rb") as handle:
            head = handle.read(len(_SQLITE_HEADER))
    except FileNotFoundError:
        return
    except OSError as exc:
        raise StoreError(f"{path}: cannot read: {exc}") from None
    if head and head != _SQLITE_HEADER:
        raise StoreError(f"{path}: not an SQLite database (is this the right file?)")

