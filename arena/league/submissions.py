"""A league's intake of submitted bots from a watched folder (docs/league.md, "Submissions").

``<folder>/NAME/`` holding a bot manifest ``bot.toml`` and its files submits a version of the
entrant ``NAME``: a new entrant the first time, a new version whenever the folder's content
changes. The content hash (:func:`folder_hash`: every path, and every file's bytes) must be the
same at two looks (intakes) at least ``settle`` seconds apart before the folder is taken, so a
folder still being copied is never taken half. A taken folder is copied (:func:`copy_submission`)
to ``<database>.submitted/LEAGUE/NAME/HASH/`` and the copy, hashed again, is what is validated and
played, whatever happens to the submitted folder afterwards.

Every hash of every submitted bot is kept in ``league_submissions``: ``seen`` (waiting to settle),
``accepted`` (as version ``version``) or ``refused`` (with its ``reason``, also written to the
owner's folder, :mod:`arena.league.owners`). A refused version never becomes an entrant, so it is
never seated nor rated; content decided once is not taken again, and any other content of the same
``NAME`` is.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import stat
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

from arena.league.book import LeagueRow, add_entrant, entrants, update_entrant
from arena.league.config import LeagueError, check_bot_name, label
from arena.league.owners import owner_folder, refresh_faults, write_private
from arena.league.validation import validate
from arena.manifest import ManifestError
from arena.sandbox.selftest import refusal
from arena.store.db import Store
from arena.tournament.config import BotEntry

#: The manifest a submitted folder must hold (the bot manifest format of :mod:`arena.manifest`).
MANIFEST = "bot.toml"

SEEN, ACCEPTED, REFUSED = "seen", "accepted", "refused"


class Unsettled(Exception):
    """A submitted folder could not be read whole (it changed or vanished while being read)."""


class Unfit(Exception):
    """A submitted folder that can never be taken as it is (its message says why)."""


@dataclass(frozen=True, slots=True)
class Submission:
    """One stored look at a submitted bot's content: its state, and why it was refused."""

    bot: str
    hash: str
    seen: float
    state: str
    version: int | None
    reason: str | None


def submitted_root(database: Path) -> Path:
    """Where taken submissions are copied."""
    return database.with_name(database.name + ".submitted")


def folder_hash(folder: Path) -> str:
    """The content hash of ``folder``: every path under it (sorted) and each file's bytes.
    :class:`Unfit` for a symbolic link or anything but files and folders; :class:`Unsettled` if
    it cannot be read."""
    digest = hashlib.blake2b(digest_size=20)
    try:
        for path in sorted(folder.rglob("*")):
            mode = path.lstat().st_mode
            relative = path.relative_to(folder).as_posix()
            if stat.S_ISLNK(mode) or not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)):
                raise Unfit(f"{relative}: a submission holds only files and folders (no links)")
            digest.update(f"{'d' if stat.S_ISDIR(mode) else 'f'} {relative}\0".encode())
            if stat.S_ISREG(mode):
                digest.update(f"{mode & 0o111 != 0}\0".encode())
                digest.update(hashlib.sha256(path.read_bytes()).digest())
    except OSError as exc:
        raise Unsettled(str(exc)) from None
    return digest.hexdigest()


def copy_submission(source: Path, target: Path) -> str:
    """Copy ``source`` to a fresh ``target`` readable by the bots' sandbox identities (folders
    0755, files 0644 or 0755), and return the copy's hash."""
    if target.exists():
        shutil.rmtree(target)
    try:
        shutil.copytree(source, target, symlinks=True)
        for path in [target, *target.rglob("*")]:
            mode = path.lstat().st_mode
            if stat.S_ISDIR(mode) or mode & 0o111:
                os.chmod(path, 0o755)
            else:
                os.chmod(path, 0o644)
    except OSError as exc:
        raise Unsettled(str(exc)) from None
    return folder_hash(target)


def submissions(store: Store, league_name: str) -> list[Submission]:
    """Every stored look at every submitted bot of the league, oldest first."""
    return [Submission(*row) for row in store.rows(
        "SELECT bot, hash, seen, state, version, reason FROM league_submissions WHERE league = ? "
        "ORDER BY seen, bot", (league_name,))]


def intake(store: Store, row: LeagueRow, guard: Callable[[], None],
           say: Callable[[str], None]) -> None:
    """Look at ``row``'s submissions folder once: note new content, take settled content
    (validate it, then add it as an entrant or a new version, or store it refused), and rewrite
    every owner's fault report. ``guard`` is called before every write. :class:`LeagueError`
    if a settled submission needs the sandbox and this machine has none (nothing is decided)."""
    if row.submissions is not None:
        if row.template.get("sandbox") is False:
            raise LeagueError(f"league {row.name!r} plays unsandboxed, so it takes no "
                              "submissions (submitted bots are strangers' programs)")
        root = Path(row.submissions.folder)
        if not root.is_dir():
            raise LeagueError(f"the submissions folder {root} is {'a file' if root.exists() else 'missing'}: "
                              "make it, or give the folder uploads go to")
        try:
            folders = sorted(p for p in root.iterdir() if p.is_dir())
        except OSError as exc:
            raise LeagueError(f"cannot read the submissions folder {root}: {exc.strerror}") from None
        for folder in folders:
            if not folder.name.startswith("."):
                _look(store, row, folder, guard, say)
    guard()
    refresh_faults(store, row.name)


def _look(store: Store, row: LeagueRow, folder: Path, guard: Callable[[], None],
          say: Callable[[str], None]) -> None:
    name = folder.name
    known = {s.hash: s for s in submissions(store, row.name) if s.bot == name}
    try:
        content = folder_hash(folder)
    except Unsettled:
        return
    except Unfit as exc:
        content = hashlib.blake2b(str(exc).encode(), digest_size=20).hexdigest()
        if content not in known:
            guard()
            _decide(store, row, name, content, None, f"{exc}", "")
            say(f"submission {name}: refused: {exc}")
        return
    earlier = known.get(content)
    now = time.time()
    if earlier is not None and earlier.state != SEEN:
        return
    if earlier is None:
        guard()
        with store.write():
            store.execute("DELETE FROM league_submissions WHERE league = ? AND bot = ? AND "
                          "state = ?", (row.name, name, SEEN))
            store.execute("INSERT INTO league_submissions VALUES (?, ?, ?, ?, ?, NULL, NULL, "
                          "NULL)", (row.name, name, content, now, SEEN))
        say(f"submission {name}: new content {content[:12]}, taken once unchanged at a later "
            f"look")
        return
    assert row.submissions is not None
    if now - earlier.seen < row.submissions.settle:
        return
    _take(store, row, folder, content, guard, say)


def _take(store: Store, row: LeagueRow, folder: Path, content: str, guard: Callable[[], None],
          say: Callable[[str], None]) -> None:
    """Copy, check and validate the settled ``folder``; store the verdict."""
    name = folder.name
    try:
        check_bot_name(name)
    except LeagueError as exc:
        guard()
        _decide(store, row, name, content, None, str(exc), "")
        say(f"submission {name}: refused: {exc}")
        return
    guard()
    taken = submitted_root(store.path) / row.name / name
    versions = [v for v in entrants(store, row.name) if v.bot == name]
    if versions and not any(Path(v.entry.bot).resolve().is_relative_to(taken.resolve()) for v in versions):
        reason = (f"{name} is an entrant the organiser added, not one taken from submissions: "
                  "a submission cannot replace it")
        _decide(store, row, name, content, None, reason, "")
        say(f"submission {name}: refused: {reason}")
        return
    owner = owner_folder(store, row.name, name)
    copy = taken / content[:16]
    added = [v for v in versions if v.entry.bot == str(copy / MANIFEST)]
    if added:  # accepted by a run stopped before it stored the verdict
        _decide(store, row, name, content, added[0].version, None, "")
        say(f"submission {name}: accepted as {label(added[0].key)}")
        return
    try:
        for parent in (copy.parents[2], copy.parents[1], copy.parent):
            parent.mkdir(mode=0o711, exist_ok=True)
    except OSError as exc:
        raise LeagueError(f"cannot make {parent}: {exc.strerror}") from None
    try:
        copied = copy_submission(folder, copy)
    except (Unsettled, Unfit):
        copied = ""
    if copied != content:  # changed while being copied: it has not settled
        with store.write():
            store.execute("DELETE FROM league_submissions WHERE league = ? AND bot = ? AND "
                          "hash = ?", (row.name, name, content))
        return
    entry = BotEntry(name, str(copy / MANIFEST), {}, None, False,
                     log_folder=str(owner / "games"))
    problem = _unfit(entry, copy)
    if problem is not None:
        _refuse(store, row, name, content, problem, "", copy, say)
        return
    refused = refusal([replace(entry.spec(), trusted=False)])
    if refused is not None:
        raise LeagueError(f"submission {name} cannot be validated: {refused}")
    say(f"submission {name}: validating {content[:12]}")
    verdict = validate(row, entry, owner / "validation")
    if verdict.deferred:
        say(f"submission {name}: a validation game was void (a host fault); validated again at "
            "the next look")
        return
    guard()
    if verdict.reason is not None:
        _refuse(store, row, name, content, verdict.reason, verdict.report, copy, say)
        return
    stored = replace(entry, log_folder=None)
    known = any(e.bot == name for e in entrants(store, row.name))
    key = (update_entrant if known else add_entrant)(store, row, stored)
    _decide(store, row, name, content, key[1], None, verdict.report)
    say(f"submission {name}: accepted as {label(key)}")


def _refuse(store: Store, row: LeagueRow, name: str, content: str, reason: str, report: str,
            copy: Path, say: Callable[[str], None]) -> None:
    """Store the refusal of a taken copy, and remove the copy (it is never played)."""
    _decide(store, row, name, content, None, reason, report)
    shutil.rmtree(copy, ignore_errors=True)
    say(f"submission {name}: refused: {reason}")


def _unfit(entry: BotEntry, copy: Path) -> str | None:
    """Why a copied submission cannot be played at all, or ``None``."""
    if not (copy / MANIFEST).is_file():
        return f"no {MANIFEST} manifest in the submitted folder"
    try:
        spec = entry.spec()
    except ManifestError as exc:
        return str(exc).replace(str(copy) + os.sep, "")
    if spec.trusted:
        return f"{MANIFEST}: a submitted bot cannot be trusted (remove 'trusted')"
    if spec.network:
        return f"{MANIFEST}: a submitted bot plays without the network (remove 'network')"
    return None


def _decide(store: Store, row: LeagueRow, bot: str, content: str, version: int | None,
            reason: str | None, report: str) -> None:
    """Store the verdict on ``bot``'s ``content`` (accepted as ``version``, or refused for
    ``reason``) and write it to the owner's folder."""
    now = time.time()
    state = ACCEPTED if reason is None else REFUSED
    with store.write():
        store.execute(
            "INSERT INTO league_submissions VALUES (?, ?, ?, ?, ?, ?, ?, ?) "
            "ON CONFLICT (league, bot, hash) DO UPDATE SET state = excluded.state, "
            "version = excluded.version, reason = excluded.reason, decided = excluded.decided",
            (row.name, bot, content, now, state, version, reason, now))
    if reason is None or _valid_name(bot):
        folder = owner_folder(store, row.name, bot) / "validation"
        verdict = (f"accepted as {bot}@{version}" if reason is None else f"refused: {reason}")
        write_private(folder / f"{content[:16]}.txt",
                      f"{bot}, content {content}: {verdict}\n" + (report and f"\n{report}\n"))


def _valid_name(bot: str) -> bool:
    try:
        check_bot_name(bot)
    except LeagueError:
        return False
    return True
