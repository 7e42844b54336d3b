"""Which build of each bot plays: the bots' files are compared, at every run and resume, with the
builds stored with the tournament.

A bot whose files, command or version changed is refused (naming what changed) unless the organiser
allows changed bots; then the change is stored as the bot's next build, and every game stored from
then on says which build played each seat.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from arena.manifest import ManifestError
from arena.store.db import BotRow, BuildRow, Store
from arena.tournament import TournamentError
from arena.tournament.botfiles import build_hash, changes, file_digests, files_hash
from arena.tournament.config import BotEntry, TournamentConfig

#: The command-line flag that lets changed bots play on.
ALLOW_FLAG = "--allow-changed-bots"


@dataclass(frozen=True, slots=True)
class Build:
    """A bot as it is now: its stored row and the legacy hash of its files (to compare with builds
    stored before file digests were kept)."""

    row: BotRow
    legacy_hash: str

    def same_as(self, stored: BuildRow) -> bool:
        """Whether ``stored`` is this build."""
        if stored.files:
            return dict(stored.files) == dict(self.row.files)
        return stored.files_hash == self.legacy_hash


def current_build(entry: BotEntry) -> Build:
    """``entry``'s files as they are now; :class:`TournamentError` if it cannot be resolved."""
    try:
        spec = entry.spec()
    except ManifestError as exc:
        named = str(exc) if repr(entry.name) in str(exc) else f"bot {entry.name!r}: {exc}"
        raise TournamentError(named) from None
    manifest = [Path(entry.bot)] if entry.bot.endswith(".toml") else []
    files = file_digests(spec, manifest)
    row = BotRow(entry.name, spec.version, spec.command, build_hash(files), files)
    return Build(row, files_hash(spec))


def current_builds(config: TournamentConfig) -> dict[str, Build]:
    """Every bot of ``config`` as it is now, by name."""
    return {entry.name: current_build(entry) for entry in config.bots}


def check_builds(store: Store, tournament: str, now: Mapping[str, Build], allow: bool) -> None:
    """Raise :class:`TournamentError` naming every changed bot and what changed, unless ``allow``
    (or the tournament is not stored yet)."""
    if allow:
        return
    problems = []
    for name, stored in _by_bot(store, tournament).items():
        build = now.get(name)
        if build is None or any(build.same_as(b) for b in stored):
            continue
        last = stored[-1]
        what = changes(last.files, build.row.files) if last.files else ["its files differ"]
        problems.append(f"bot {name!r} changed since build {last.build} ({', '.join(what)})")
    if problems:
        raise TournamentError(
            f"{'; '.join(problems)}. Restore it, or let the changed bots play the remaining "
            f"games as new builds with {ALLOW_FLAG}"
        )


def record_builds(store: Store, tournament: str, now: Mapping[str, Build]) -> dict[str, int]:
    """The build number of each bot for this run, storing a new build for each changed one."""
    stored = _by_bot(store, tournament)
    numbers: dict[str, int] = {}
    for name, build in now.items():
        known = [b.build for b in stored.get(name, []) if build.same_as(b)]
        numbers[name] = known[-1] if known else store.add_build(
            tournament, name, build.row.files_hash, build.row.files
        )
    return numbers


def _by_bot(store: Store, tournament: str) -> dict[str, list[BuildRow]]:
    found: dict[str, list[BuildRow]] = {}
    if tournament in {t.name for t in store.tournaments()}:
        for row in store.builds(tournament):
            found.setdefault(row.bot, []).append(row)
    return found
