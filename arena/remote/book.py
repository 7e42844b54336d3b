"""The remote book of a results database: each tournament's CURVE keys and entrants' tokens.

Kept in ``<database>.remote`` beside the database, a JSON file readable by its owner alone
(mode 0600), never published: it holds secrets. ``arena tournament invite`` and ``revoke`` write it
(whole, by renaming a new file over it); the runner reads it again whenever it changes, so an
invitation or a revocation takes effect while a tournament runs.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from arena.remote import RemoteError
from arena.remote.keys import new_keys, replace_private
from protocols.transport import CurveKeys


def book_path(database: Path) -> Path:
    """Where the remote book of ``database`` is kept."""
    return database.with_name(database.name + ".remote")


@dataclass
class TournamentBook:
    """One tournament's keys, the token of each invited entrant and the entrants revoked."""

    keys: CurveKeys
    tokens: dict[str, str] = field(default_factory=dict)
    revoked: list[str] = field(default_factory=list)


def read_book(database: Path) -> dict[str, TournamentBook]:
    """Every tournament's entry in the book of ``database`` (none if it has no book).

    Raises :class:`RemoteError` if the book cannot be read, is not one, or others may read it.
    """
    path = book_path(database)
    try:
        if path.stat().st_mode & 0o077:
            raise RemoteError(f"{path} holds secret keys and tokens but others may read it: "
                              f"chmod 600 {path}")
        plain = json.loads(path.read_text(encoding="utf-8"))
        return {name: _entry(value) for name, value in plain["tournaments"].items()}
    except FileNotFoundError:
        return {}
    except (OSError, UnicodeDecodeError, ValueError, KeyError, TypeError, AttributeError) as exc:
        raise RemoteError(f"cannot read the remote book {path}: {exc}") from None


def book_version(database: Path) -> tuple[int, int]:
    """What changes whenever the book is written (its file's inode and modification time; each
    write renames a new file over it), ``(0, 0)`` without one: cheap to poll."""
    try:
        found = book_path(database).stat()
    except FileNotFoundError:
        return (0, 0)
    return (found.st_ino, found.st_mtime_ns)


def tournament_keys(database: Path, tournament: str) -> CurveKeys:
    """The keys of ``tournament``, made and stored the first time they are asked for."""
    return _update(database, tournament, lambda entry: None).keys


def invite(database: Path, tournament: str, name: str) -> str:
    """A fresh token for entrant ``name`` (it replaces any earlier one, which stops working)."""
    token = secrets.token_hex(16)

    def change(entry: TournamentBook) -> None:
        entry.tokens[name] = token
        if name in entry.revoked:
            entry.revoked.remove(name)

    _update(database, tournament, change)
    return token


def revoke(database: Path, tournament: str, name: str) -> bool:
    """End entrant ``name``'s token; whether it had one."""
    had: list[bool] = []

    def change(entry: TournamentBook) -> None:
        had.append(entry.tokens.pop(name, None) is not None)
        if name not in entry.revoked:
            entry.revoked.append(name)

    _update(database, tournament, change)
    return had[0]


def _update(database: Path, tournament: str,
            change: Callable[[TournamentBook], None]) -> TournamentBook:
    book = read_book(database)
    entry = book.get(tournament)
    if entry is None:
        entry = book[tournament] = TournamentBook(new_keys())
    change(entry)
    plain = {"tournaments": {name: {"public": e.keys.public.decode(), "secret": e.keys.secret.decode(),
                                    "tokens": e.tokens, "revoked": e.revoked}
                             for name, e in book.items()}}
    replace_private(book_path(database), json.dumps(plain, indent=1) + "\n")
    return entry


def _entry(value: dict[str, Any]) -> TournamentBook:
    keys = CurveKeys(str(value["public"]).encode(), str(value["secret"]).encode())
    if len(keys.public) != 40 or len(keys.secret) != 40:
        raise ValueError("not a CURVE key pair")
    tokens = {str(k): str(v) for k, v in dict(value["tokens"]).items()}
    return TournamentBook(keys, tokens, [str(name) for name in value["revoked"]])
