"""A tournament's deal secret: drawn (or supplied) when it is first stored, kept private, committed
to in the database before play and revealed there once every game is played.

The secrets of a database's tournaments are kept in ``<database>.deals`` beside it, a JSON file
readable by its owner alone (like the remote book ``<database>.remote``), never published. A
tournament whose field holds only trusted bots (built-in or ``trusted = true``, none remote) deals
from its schedule's seeds alone, unless a secret is supplied: the same config then gives the same
games on any machine. Any other tournament's engine seeds are keyed with its secret
(:mod:`arena.deals`).
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

from arena.deals import DealSecret, DealSecretError, check_commitment, read_private_text
from arena.remote.keys import replace_private
from arena.store.db import DealCommitment, Store
from arena.tournament.config import BotEntry, TournamentConfig


def deal_book_path(database: Path) -> Path:
    """Where the deal secrets of ``database``'s tournaments are kept."""
    return database.with_name(database.name + ".deals")


def trusted_entry(entry: BotEntry) -> bool:
    """Whether ``entry`` is the organiser's own bot (built-in, or ``trusted = true``): running it
    unsandboxed (``--no-sandbox``) does not make it so, and a remote entrant never is."""
    return not entry.remote and replace(entry, unconfined=False).spec().trusted


def public_deals_allowed(config: TournamentConfig) -> bool:
    """Whether ``config``'s deals may follow from its seeds alone: every bot of its field trusted."""
    return all(trusted_entry(entry) for entry in config.bots)


def stored_secrets(database: Path) -> dict[str, DealSecret]:
    """Every tournament's deal secret in the book of ``database`` (none without a book).

    Raises :class:`DealSecretError` if the book cannot be read, is not one, or others may read it.
    """
    path = deal_book_path(database)
    text = read_private_text(path, "deal secrets")
    if text is None:
        return {}
    try:
        plain = json.loads(text)["tournaments"]
        return {str(name): DealSecret.from_hex(str(value), f"{path}: {name}")
                for name, value in plain.items()}
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        raise DealSecretError(f"cannot read the deal book {path}: {exc}") from None


def keep_secret(database: Path, tournament: str, secret: DealSecret) -> None:
    """Add ``tournament``'s secret to the book of ``database`` (written whole, by renaming a new
    owner-only file over it). A different secret already kept for it is never replaced."""
    book = stored_secrets(database)
    kept = book.get(tournament)
    if kept == secret:
        return
    if kept is not None:
        raise DealSecretError(
            f"{deal_book_path(database)} keeps another deal secret for tournament {tournament!r}, "
            "which this database has not committed to; if that tournament is gone, remove its "
            "entry from the file (a deal secret is never replaced)"
        )
    book[tournament] = secret
    plain = {"tournaments": {name: s.hex() for name, s in sorted(book.items())}}
    replace_private(deal_book_path(database), json.dumps(plain, indent=1) + "\n")


def tournament_secret(
    store: Store, config: TournamentConfig, supplied: DealSecret | None = None
) -> DealSecret | None:
    """The deal secret ``config``'s games are dealt with (``None``: public deals), for the stored
    tournament of its name (:meth:`Store.add_tournament` done).

    The first time (no commitment, no game stored): ``supplied`` or a fresh secret, unless every bot
    is trusted and none is supplied; it is kept in the book, then its commitment in the store.
    After that: the revealed secret, else the book's, else ``supplied``, each checked against the
    commitment. A tournament with a commitment whose secret is nowhere to be found is a
    :class:`DealSecretError` (a new secret would change the deals still to play), as is a supplied
    secret for a tournament that already plays public deals.
    """
    database = store.path
    committed = store.deal_commitment(config.name)
    source = f"{database}: tournament {config.name!r}"
    if committed is None:
        if store.stored_ids(config.name):
            if supplied is not None:
                raise DealSecretError(f"{source} plays public deals (every bot trusted): it takes "
                                      "no deal secret once games are stored")
            if not public_deals_allowed(config):
                raise DealSecretError(f"{source} plays public deals, so every bot must be trusted")
            return None
        if supplied is None and public_deals_allowed(config):
            return None
        fresh = supplied or DealSecret.draw()
        keep_secret(database, config.name, fresh)
        store.commit_deals(config.name, fresh.commitment())
        return fresh
    secret: DealSecret | None
    if committed.revealed is not None:
        secret = DealSecret.from_hex(committed.revealed, f"{source}: revealed deal secret")
    else:
        secret = stored_secrets(database).get(config.name) or supplied
        if secret is None:
            raise DealSecretError(
                f"{source}: its deal secret is missing from {deal_book_path(database)}; the deals "
                "still to play depend on it. Restore that file from a backup (or give the secret "
                "with --deal-secret FILE); a new secret is never drawn for a tournament under way"
            )
    check_commitment(secret, committed.commitment, source)
    if supplied is not None:
        check_commitment(supplied, committed.commitment, f"{source}: the supplied secret")
        if committed.revealed is None:
            keep_secret(database, config.name, supplied)  # the book restored
    return secret


def describe_deals(committed: DealCommitment | None) -> str:
    """One line on how a stored tournament deals: publicly, or keyed with a committed secret (and
    the secret, once revealed)."""
    if committed is None:
        return "deals: public (every bot is trusted): they follow from the seed alone"
    if committed.revealed is None:
        return (f"deals: keyed with a secret, commitment {committed.commitment} "
                "(the secret is revealed once every game is played)")
    return (f"deals: keyed with a secret, commitment {committed.commitment}, revealed: "
            f"{committed.revealed} (check: arena tournament verify)")
