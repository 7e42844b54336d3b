"""Late entries: a bot added to a stored round-robin or sampled tournament.

The entry joins the end of the field and the config's ``late_entries``; the schedule puts its tables
after every other (:func:`arena.tournament.schedule.tables_of`), so every stored game keeps its id,
table, deal and seats, and only the new tables are left to play. The stored config, its fingerprint
and the tournament's bots are updated in one transaction; nothing else in the store changes.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from arena.manifest import ManifestError
from arena.store.db import Store
from arena.tournament import TournamentError
from arena.tournament.builds import current_build
from arena.tournament.dealbook import trusted_entry
from arena.tournament.config import (
    BotEntry,
    Format,
    TournamentConfig,
    config_from_plain,
    is_command_line,
)
from arena.tournament.schedule import build_schedule


def late_entry(bot: str, name: str | None, nodes: int | None, trusted: bool, base: Path) -> BotEntry:
    """The entry for ``bot`` (a built-in bot's name, a command line run in ``base``, or a manifest
    path relative to ``base``), named ``name`` or as its manifest says; :class:`TournamentError` if
    it does not resolve here."""
    text = bot.strip()
    if not text:
        raise TournamentError("add-bot: the bot must not be empty")
    if nodes is not None and nodes < 1:
        raise TournamentError(f"add-bot: --nodes must be at least 1, not {nodes}")
    if text.endswith(".toml"):
        text = str((base / text).resolve())
    entry = BotEntry("", text, {}, nodes, trusted)
    if is_command_line(text):
        entry = replace(entry, folder=str(base.resolve()))
    try:
        spec = entry.spec()
    except ManifestError as exc:
        raise TournamentError(f"add-bot: {exc}") from None
    return replace(entry, name=name or spec.name)


def _check_deals(store: Store, tournament: str, entry: BotEntry, source: str) -> None:
    """Refuse a late entry whose deals could be computed: after the deal secret was revealed, or
    an untrusted bot in a tournament that plays public deals (every bot trusted) and has begun."""
    committed = store.deal_commitment(tournament)
    if committed is not None and committed.revealed is not None:
        raise TournamentError(
            f"{source}: its deal secret was revealed when its last game was played, so a late "
            "entry's deals could be computed; start a new tournament for it"
        )
    if committed is None and store.stored_ids(tournament) and not trusted_entry(entry):
        raise TournamentError(
            f"{source}: it plays public deals (every bot trusted), so an untrusted late entry "
            "could compute its deals; add it with --trusted if it is yours, or start a new "
            "tournament"
        )


def add_late_entry(store: Store, tournament: str | None, entry: BotEntry) -> TournamentConfig:
    """Add ``entry`` to the stored ``tournament`` (the only one when ``None``) and return its new
    config. Raises :class:`TournamentError` (the store unchanged) for a format without late entries,
    a name already in the field, or a config the addition would make invalid."""
    row = store.tournament(tournament)
    source = f"{store.path}: tournament {row.name!r}"
    before = config_from_plain(row.config, source=source)
    if before.format not in (Format.ROUND_ROBIN, Format.SAMPLED):
        raise TournamentError(
            f"{source}: a {before.format.value} tournament takes no late entries "
            "(only round-robin and sampled ones do)"
        )
    if entry.name in {b.name for b in before.bots}:
        raise TournamentError(f"{source}: the field already has a bot named {entry.name!r}")
    _check_deals(store, row.name, entry, source)
    plain = dict(row.config)
    plain["bots"] = [*plain["bots"], entry.to_plain()]
    plain["late_entries"] = [*before.late_entries, entry.name]
    after = config_from_plain(plain, source=source)
    new_ids = {g.id for g in build_schedule(after)}
    lost = store.stored_ids(row.name) - new_ids
    if lost:  # the schedule's contract; never store a config that would orphan results
        raise TournamentError(f"internal: adding {entry.name!r} would drop {len(lost)} stored games")
    build = current_build(entry)
    store.add_late_entry(row.name, after.fingerprint(), after.to_plain(), build.row)
    return after
