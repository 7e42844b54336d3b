"""Each league entrant's private folder, named by its owner token.

An entrant's token (32 hex digits, like a remote entrant's) is made the first time it is asked for
and kept in the store; its folder is ``<database>.owners/<token>/`` beside the database, made
readable by the organiser alone (mode 0700, as is ``<database>.owners/``), so the organiser hands
an author the folder (or its contents) and nobody else's. It holds:

- ``games/``: the output (stdout and stderr, capped per process) of every process of the entrant's
  versions that played a league table, one file per process, named ``NAME@VERSION-*.log``;
- ``faults.txt``: every fault its versions made in the league's stored games, rewritten whole by
  every intake;
- ``validation/``: each submitted version's verdict (``HASH.txt``: accepted, or refused with the
  reason) and the output of its processes during validation.

Nothing a bot writes reaches these folders except through its own captured output.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path

from arena.league.config import LeagueError, unlabel
from arena.remote import RemoteError
from arena.remote.keys import replace_private
from arena.store.db import Store


def owners_root(database: Path) -> Path:
    """The folder of every owner folder of ``database``'s leagues."""
    return database.with_name(database.name + ".owners")


def games_folder(database: Path, token: str) -> Path:
    """Where the games' output of the entrant with ``token`` is kept."""
    return owners_root(database) / token / "games"


def owner_token(store: Store, league_name: str, bot: str) -> str:
    """``bot``'s token in the league, made and stored the first time it is asked for."""
    query = ("SELECT token FROM league_owners WHERE league = ? AND bot = ?", (league_name, bot))
    found = store.rows(*query)
    if not found:
        with store.write():  # another process making it at the same time wins
            store.execute("INSERT OR IGNORE INTO league_owners VALUES (?, ?, ?)",
                          (league_name, bot, secrets.token_hex(16)))
        found = store.rows(*query)
    return str(found[0][0])


def owner_folder(store: Store, league_name: str, bot: str) -> Path:
    """``bot``'s private folder (made, with its ``games`` and ``validation`` folders, mode 0700)."""
    folder = owners_root(store.path) / owner_token(store, league_name, bot)
    for path in (folder.parent, folder, folder / "games", folder / "validation"):
        _private_folder(path)
    return folder


def write_private(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` whole, readable by the organiser alone."""
    try:
        replace_private(path, text)
    except RemoteError as exc:
        raise LeagueError(str(exc)) from None


def refresh_faults(store: Store, league_name: str) -> None:
    """Rewrite ``faults.txt`` of every owner of the league from its stored games."""
    owners = dict(store.rows("SELECT bot, token FROM league_owners WHERE league = ?",
                             (league_name,)))
    if not owners:
        return
    lines: dict[str, list[str]] = {bot: [] for bot in owners}
    for number, tournament, game_id in store.rows(
        "SELECT t.number, g.tournament, g.id FROM games g JOIN league_tables t "
        "ON t.tournament = g.tournament WHERE t.league = ? AND (g.faults > 0 OR g.forfeits > 0) "
        "ORDER BY t.number, g.id", (league_name,),
    ):
        record = store.game(game_id, tournament).record
        for fault in record.faults:
            bot = unlabel(record.bots[fault.seat])[0]
            if bot in lines:
                lines[bot].append(f"table {number} ({tournament}) game {game_id}: "
                                  f"{record.bots[fault.seat]} in seat {fault.seat}, "
                                  f"{fault.kind.value} at decision {fault.ply}: {fault.detail}")
    for bot, token in owners.items():
        folder = owners_root(store.path) / token
        if folder.is_dir():
            write_private(folder / "faults.txt", "".join(f"{line}\n" for line in lines[bot]))


def _private_folder(path: Path) -> None:
    try:
        path.mkdir(mode=0o700, exist_ok=True)
        os.chmod(path, 0o700)
    except OSError as exc:
        raise LeagueError(f"cannot make the owner folder {path}: {exc.strerror}") from None
