"""``arena tournament invite`` and ``revoke``, and the remote part of ``tournament status``."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Annotated, Any

import typer

from arena.cli.common import console, fail, inert, say, user_errors
from arena.cli.results import DEFAULT_DB, DbOpt, TournamentOpt, open_store
from arena.remote.book import book_path, invite, read_book, revoke, tournament_keys
from arena.remote.connection import advertised, how_to_start, write_connection_file
from arena.remote.lane import status_path
from arena.tournament.config import TournamentConfig, config_from_plain, load_config

#: A status file older than this many seconds was left by a runner that is gone.
STALE_STATUS = 10.0

NameArg = Annotated[str, typer.Argument(help="The remote entrant's name ([[bots]] name, remote = true).")]


ConfigOpt = Annotated[
    Path | None,
    typer.Option("--config", help="Read the tournament from its config file (before its first run); "
                                   "the keys and tokens are kept beside --db all the same."),
]


def _remote_config(db: Path, tournament: str | None, name: str, path: Path | None) -> TournamentConfig:
    """The tournament (from its config file ``path``, else the stored one), checked to have
    ``name`` as a remote entrant."""
    if path is not None:
        with user_errors():
            config = load_config(path)
    elif not db.exists():
        raise fail(f"{db}: no results database here (give --db PATH, or --config FILE to invite "
                   "before the first run)")
    else:
        with open_store(db) as store, user_errors():
            row = store.tournament(tournament)
            config = config_from_plain(row.config, source=f"{db}: tournament {row.name!r}")
    remote = [b.name for b in config.bots if b.remote]
    if name not in remote:
        listing = ", ".join(remote) or "none"
        raise fail(f"{config.name}: {name!r} is not a remote entrant (remote = true); "
                   f"remote entrants: {listing}")
    return config


def invite_command(
    name: NameArg,
    db: DbOpt = DEFAULT_DB,
    tournament: TournamentOpt = None,
    connect_dir: Annotated[
        Path, typer.Option("--connect-dir", help="Where the connection file NAME.env goes.")
    ] = Path("."),
    config_file: ConfigOpt = None,
) -> None:
    """Write a remote entrant's connection file NAME.env (mode 0600) with a fresh token; an earlier
    token of NAME stops working. A running tournament accepts the new token within a second (after
    the remote game being played, if one is).

    \b
    Examples:
      arena tournament invite --db league.db alice
      arena tournament invite --db league.db --config league.toml alice   (before the first run)
    """
    config = _remote_config(db, tournament, name, config_file)
    assert config.remote is not None
    with user_errors():
        keys = tournament_keys(db, config.name)
        token = invite(db, config.name, name)
        endpoint = advertised(config.remote.listen, config.remote.address)
        path = write_connection_file(connect_dir, name, endpoint, token, keys.public.decode())
    say(f"{path}: {name}'s connection file for {config.name} (mode 0600: it holds the token; "
        "send it privately)")
    say(f"{name} connects to {endpoint} (encrypted) and starts the bot with, e.g.:")
    console.print(how_to_start(path), highlight=False)


def revoke_command(
    name: NameArg, db: DbOpt = DEFAULT_DB, tournament: TournamentOpt = None, config_file: ConfigOpt = None
) -> None:
    """End a remote entrant's token: it can no longer connect (a running tournament drops its
    connection within a second, or after the remote game being played, and its games wait).
    Invite it again for a new token.

    \b
    Examples:
      arena tournament revoke --db league.db alice
    """
    config = _remote_config(db, tournament, name, config_file)
    with user_errors():
        had = revoke(db, config.name, name)
    say(f"{name}: token revoked" if had else f"{name} had no token; none will be accepted until invited")


def remote_status(db: Path, config: TournamentConfig) -> None:
    """Print, for a tournament with remote entrants, who is invited and connected and which games
    wait on whom (from a running lane's status file), else what the book says."""
    remote = [b.name for b in config.bots if b.remote]
    if not remote:
        return
    with user_errors():
        book = read_book(db).get(config.name)
    live = _live_status(db, config.name)
    if live is None:
        say(f"remote entrants ({book_path(db).name}): no run is hosting them now")
        for name in remote:
            invited = book is not None and name in book.tokens
            say(f"  {name}: {'invited' if invited else 'not invited'}")
        return
    playing = f", playing game {live['playing']}" if live.get("playing") else ""
    say(f"remote entrants: {live['queued']} of their games queued{playing}")
    for name in remote:
        entry = live["entrants"].get(name, {})
        state = ("connected" if entry.get("connected") else
                 "invited, not connected" if entry.get("invited") else "not invited")
        bot = f" as {entry['bot']}" if entry.get("connected") and entry.get("bot") else ""
        waits = []
        if entry.get("waiting"):
            waits.append(f"{entry['waiting']} games wait on it")
        if entry.get("postponed"):
            waits.append(f"{entry['postponed']} postponed")
        console.print(f"  {name}: ", inert(state + bot), (f"; {', '.join(waits)}" if waits else ""),
                      sep="", highlight=False)


def _live_status(db: Path, tournament: str) -> dict[str, Any] | None:
    """A fresh status file of ``tournament``'s lane, or ``None``."""
    path = status_path(db)
    try:
        plain = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(plain, dict) or plain.get("tournament") != tournament:
        return None
    if time.time() - float(plain.get("written", 0)) > STALE_STATUS:
        return None
    return plain
