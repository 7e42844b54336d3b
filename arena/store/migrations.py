"""The store's schema as a list of forward migrations; ``PRAGMA user_version`` counts those applied.

Migration ``i`` (0-based) takes a database at version ``i`` to version ``i + 1``. Never edit a
released migration: append a new one.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable

import msgpack

Migration = Callable[[sqlite3.Connection], None]


def _v1_tables(db: sqlite3.Connection) -> None:
    """Tournaments with their config, bots with version and file hash, games with the whole record."""
    db.execute(
        """CREATE TABLE tournaments (
            name TEXT PRIMARY KEY,
            fingerprint TEXT NOT NULL,
            config TEXT NOT NULL,
            created REAL NOT NULL
        )"""
    )
    db.execute(
        """CREATE TABLE bots (
            tournament TEXT NOT NULL REFERENCES tournaments(name),
            name TEXT NOT NULL,
            version TEXT NOT NULL,
            command TEXT NOT NULL,
            files_hash TEXT NOT NULL,
            PRIMARY KEY (tournament, name)
        )"""
    )
    db.execute(
        """CREATE TABLE games (
            tournament TEXT NOT NULL REFERENCES tournaments(name),
            id TEXT NOT NULL,
            generation INTEGER NOT NULL,
            table_index INTEGER NOT NULL,
            deal INTEGER NOT NULL,
            rotation INTEGER NOT NULL,
            seed TEXT NOT NULL,
            bots TEXT NOT NULL,
            scores TEXT NOT NULL,
            ranks TEXT NOT NULL,
            faults INTEGER NOT NULL,
            forfeits INTEGER NOT NULL,
            duration REAL NOT NULL,
            finished REAL NOT NULL,
            record BLOB NOT NULL,
            PRIMARY KEY (tournament, id)
        )"""
    )
    db.execute("CREATE INDEX games_faults ON games (faults)")


def _v2_seats(db: sqlite3.Connection) -> None:
    """One row per seat (bot, score, rank, faults, the process that played it), backfilled."""
    db.execute(
        """CREATE TABLE game_seats (
            tournament TEXT NOT NULL,
            game TEXT NOT NULL,
            seat INTEGER NOT NULL,
            bot TEXT NOT NULL,
            score INTEGER NOT NULL,
            rank INTEGER NOT NULL,
            faults INTEGER NOT NULL,
            process TEXT,
            PRIMARY KEY (tournament, game, seat),
            FOREIGN KEY (tournament, game) REFERENCES games (tournament, id)
        )"""
    )
    db.execute("CREATE INDEX game_seats_bot ON game_seats (bot)")
    rows = db.execute("SELECT tournament, id, record FROM games").fetchall()
    for tournament, game_id, blob in rows:
        wire = msgpack.unpackb(blob, raw=False)
        faults = [f[0] for f in wire["faults"]]
        for seat, bot in enumerate(wire["bots"]):
            db.execute(
                "INSERT INTO game_seats VALUES (?, ?, ?, ?, ?, ?, ?, NULL)",
                (
                    tournament,
                    game_id,
                    seat,
                    bot,
                    wire["scores"][seat],
                    wire["ranks"][seat],
                    faults.count(seat),
                ),
            )


def _v3_builds(db: sqlite3.Connection) -> None:
    """Every build of every bot (build 1 is the stored bot; its file digests unknown when
    migrated), and on each seat the build that played it (1 for games stored before)."""
    db.execute(
        """CREATE TABLE bot_builds (
            tournament TEXT NOT NULL,
            bot TEXT NOT NULL,
            build INTEGER NOT NULL,
            files_hash TEXT NOT NULL,
            files TEXT NOT NULL,
            first_used REAL NOT NULL,
            PRIMARY KEY (tournament, bot, build),
            FOREIGN KEY (tournament, bot) REFERENCES bots (tournament, name)
        )"""
    )
    db.execute(
        "INSERT INTO bot_builds SELECT b.tournament, b.name, 1, b.files_hash, '{}', t.created "
        "FROM bots b JOIN tournaments t ON t.name = b.tournament"
    )
    db.execute("ALTER TABLE game_seats ADD COLUMN build INTEGER")
    db.execute("UPDATE game_seats SET build = 1")


def _v4_deal_secrets(db: sqlite3.Connection) -> None:
    """Each tournament's deal commitment (the hash of its deal secret, stored before play) and the
    secret once revealed (when every game is played); none for a tournament with public deals."""
    db.execute(
        """CREATE TABLE deal_secrets (
            tournament TEXT PRIMARY KEY REFERENCES tournaments(name),
            commitment TEXT NOT NULL,
            revealed TEXT
        )"""
    )


def _v5_voided(db: sqlite3.Connection) -> None:
    """Every void attempt at a game (stopped by a host fault, see :mod:`arena.hostfault`): its
    reason and record. A voided game is not in ``games``, so it is played again and never rated."""
    db.execute(
        """CREATE TABLE voided_games (
            tournament TEXT NOT NULL REFERENCES tournaments(name),
            id TEXT NOT NULL,
            attempt INTEGER NOT NULL,
            reason TEXT NOT NULL,
            finished REAL NOT NULL,
            record BLOB NOT NULL,
            PRIMARY KEY (tournament, id, attempt)
        )"""
    )


def _v6_leagues(db: sqlite3.Connection) -> None:
    """Leagues (their config), their entrants (each version of a bot, with its entry and when it
    arrived and retired), their tables (each a tournament of one duplicate block, its seats decided
    before it is played) and the rating of every version after each fit."""
    db.execute(
        """CREATE TABLE leagues (
            name TEXT PRIMARY KEY,
            config TEXT NOT NULL,
            created REAL NOT NULL
        )"""
    )
    db.execute(
        """CREATE TABLE league_entrants (
            league TEXT NOT NULL REFERENCES leagues(name),
            bot TEXT NOT NULL,
            version INTEGER NOT NULL,
            entry TEXT NOT NULL,
            arrived INTEGER NOT NULL,
            added REAL NOT NULL,
            retired REAL,
            PRIMARY KEY (league, bot, version)
        )"""
    )
    db.execute(
        """CREATE TABLE league_tables (
            league TEXT NOT NULL REFERENCES leagues(name),
            number INTEGER NOT NULL,
            tournament TEXT NOT NULL,
            seats TEXT NOT NULL,
            reason TEXT NOT NULL,
            created REAL NOT NULL,
            PRIMARY KEY (league, number)
        )"""
    )
    db.execute(
        """CREATE TABLE league_ratings (
            league TEXT NOT NULL REFERENCES leagues(name),
            tables INTEGER NOT NULL,
            bot TEXT NOT NULL,
            version INTEGER NOT NULL,
            elo REAL NOT NULL,
            sd REAL NOT NULL,
            games INTEGER NOT NULL,
            PRIMARY KEY (league, tables, bot, version)
        )"""
    )


def _v7_league_submissions(db: sqlite3.Connection) -> None:
    """A league's intake of submitted folders: each content hash of each submitted bot, seen
    (waiting to settle), accepted (as ``version``) or refused (with its ``reason``); and each
    entrant's owner token, which names its private folder of logs."""
    db.execute(
        """CREATE TABLE league_submissions (
            league TEXT NOT NULL REFERENCES leagues(name),
            bot TEXT NOT NULL,
            hash TEXT NOT NULL,
            seen REAL NOT NULL,
            state TEXT NOT NULL,
            version INTEGER,
            reason TEXT,
            decided REAL,
            PRIMARY KEY (league, bot, hash)
        )"""
    )
    db.execute(
        """CREATE TABLE league_owners (
            league TEXT NOT NULL REFERENCES leagues(name),
            bot TEXT NOT NULL,
            token TEXT NOT NULL UNIQUE,
            PRIMARY KEY (league, bot)
        )"""
    )


def _v8_rating_steps(db: sqlite3.Connection) -> None:
    """A league's rating history also keeps the cheap steps between exact fits: ``exact`` is 0
    for a step, 1 for an exact fit (every row before), and part of the key."""
    db.execute(
        """CREATE TABLE league_ratings_v8 (
            league TEXT NOT NULL REFERENCES leagues(name),
            tables INTEGER NOT NULL,
            bot TEXT NOT NULL,
            version INTEGER NOT NULL,
            elo REAL NOT NULL,
            sd REAL NOT NULL,
            games INTEGER NOT NULL,
            exact INTEGER NOT NULL,
            PRIMARY KEY (league, tables, exact, bot, version)
        )"""
    )
    db.execute("INSERT INTO league_ratings_v8 SELECT league, tables, bot, version, elo, sd, games, "
               "1 FROM league_ratings")
    db.execute("DROP TABLE league_ratings")
    db.execute("ALTER TABLE league_ratings_v8 RENAME TO league_ratings")


MIGRATIONS: tuple[Migration, ...] = (
    _v1_tables, _v2_seats, _v3_builds, _v4_deal_secrets, _v5_voided, _v6_leagues,
    _v7_league_submissions, _v8_rating_steps,
)
"""Every migration in order; ``len(MIGRATIONS)`` is the current schema version."""
