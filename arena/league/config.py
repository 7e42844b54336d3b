"""A league's config: a TOML file like a tournament's (game, variant, knobs, table size, time
control, ``[[bots]]`` with node budgets, sandboxing, ...) without the keys of a fixed schedule, plus
a ``[matchmaking]`` table of :class:`~arena.league.matchmaking.Policy` settings.

It is read with the tournament config's parser (:func:`arena.tournament.config.parse_config`), so
bots, time controls and knobs mean exactly what they mean there. Each table of the league is then a
one-table round-robin tournament of its seated versions (:func:`table_config`).
"""

from __future__ import annotations

import hashlib
import math
import tomllib
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path
from typing import Any

from arena.errors import ArenaError
from arena.league.matchmaking import EntrantKey, Policy
from arena.tournament.config import (
    REMOTE_KEYS,
    BotEntry,
    Format,
    TournamentConfig,
    config_from_plain,
    parse_config,
)


class LeagueError(ArenaError):
    """A league config, command or run problem the user can act on."""


#: Tournament keys that fix a schedule, which a league decides table by table.
_SCHEDULE_KEYS = ("format", "candidates", "deals", "rounds", "tables_per_bot", "sprt",
                  "late_entries", "deal_secret_file", *REMOTE_KEYS)


@dataclass(frozen=True, slots=True)
class LeagueConfig:
    """A league: its name, the template of every table (a tournament config whose ``bots`` are the
    entrants it started with) and the matchmaker's settings."""

    template: TournamentConfig
    policy: Policy
    submissions: Intake | None = None

    @property
    def name(self) -> str:
        return self.template.name


#: Seconds a submitted folder's content must stay the same before it is taken, by default.
SETTLE_SECONDS = 10.0


@dataclass(frozen=True, slots=True)
class Intake:
    """The watched submissions folder (absolute) and how long, in seconds, a submitted folder's
    content must stay unchanged, across two looks, before it is taken (docs/league.md)."""

    folder: str
    settle: float = SETTLE_SECONDS


def read_intake(raw: Any, source: str, base: Path) -> Intake:
    """The ``[submissions]`` table (``folder``, relative to ``base``; ``settle_seconds``)."""
    if not isinstance(raw, dict):
        raise LeagueError(f"{source}: submissions: expected a table, got {raw!r}")
    unknown = sorted(set(raw) - {"folder", "settle_seconds"})
    if unknown:
        raise LeagueError(f"{source}: submissions.{unknown[0]}: unknown setting (known: folder, "
                          "settle_seconds)")
    folder = raw.get("folder")
    if not isinstance(folder, str) or not folder.strip():
        raise LeagueError(f"{source}: submissions.folder: expected a folder, got {folder!r}")
    settle = raw.get("settle_seconds", SETTLE_SECONDS)
    if isinstance(settle, bool) or not isinstance(settle, (int, float)) or settle < 0:
        raise LeagueError(f"{source}: submissions.settle_seconds: expected a number of at least "
                          f"0, got {settle!r}")
    return Intake(str((base / folder).resolve()), float(settle))


def load_league_config(path: Path) -> LeagueConfig:
    """Read and check the TOML file at ``path``; :class:`LeagueError` naming the key otherwise."""
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise LeagueError(f"{path}: no such config file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise LeagueError(f"{path}: cannot read: {exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise LeagueError(f"{path}: not valid TOML: {exc}") from None
    for key in _SCHEDULE_KEYS:
        if key in raw:
            raise LeagueError(f"{path}: {key}: not a league setting (the league chooses its "
                              "tables one at a time)")
    policy = read_policy(raw.pop("matchmaking", {}), str(path))
    submissions = raw.pop("submissions", None)
    intake = None if submissions is None else read_intake(submissions, str(path),
                                                          path.resolve().parent)
    template = parse_config(raw, source=str(path), base=path.resolve().parent)
    template.match_config()  # the game accepts the setup
    if intake is not None and not template.sandbox:
        raise LeagueError(f"{path}: submissions: a league that plays unsandboxed takes no "
                          "submissions (submitted bots are strangers' programs)")
    for entry in template.bots:
        check_bot_name(entry.name)
        if entry.remote:
            raise LeagueError(f"{path}: bots: {entry.name!r}: remote entrants are not supported "
                              "in a league")
    return LeagueConfig(template, policy, intake)


#: Each ``[matchmaking]`` setting's range: its least value (``None``: above 0) and its most, far
#: beyond any league's needs and within what the matchmaker's arithmetic carries.
POLICY_RANGES: dict[str, tuple[float | None, float]] = {
    "placement_games": (1, 10_000), "period_rounds": (0, 10_000), "top": (0, 10_000),
    "top_weight": (0, 1e6), "new_weight": (0, 1e6), "base_weight": (0, 1e6),
    "sure_z": (None, 1_000), "prior_sd": (0, 10_000), "repeat_window": (0, 10_000),
}


def read_policy(raw: Any, source: str) -> Policy:
    """The ``[matchmaking]`` table as a :class:`Policy` (missing keys at their defaults), each
    setting within :data:`POLICY_RANGES`."""
    if not isinstance(raw, dict):
        raise LeagueError(f"{source}: matchmaking: expected a table, got {raw!r}")
    kinds = {f.name: type(getattr(Policy(), f.name)) for f in fields(Policy)}
    values: dict[str, Any] = {}
    for key, value in raw.items():
        if key not in kinds:
            raise LeagueError(f"{source}: matchmaking.{key}: unknown setting (known: "
                              f"{', '.join(kinds)})")
        kind = kinds[key]
        least, most = POLICY_RANGES[key]
        ok = (isinstance(value, int) and not isinstance(value, bool)) if kind is int else (
            isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value))
        if not ok or value > most or (value <= 0 if least is None else value < least):
            bounds = f"above 0 and at most {most:,.0f}" if least is None else f"from {least:,.0f} to {most:,.0f}"
            raise LeagueError(f"{source}: matchmaking.{key}: expected a "
                              f"{'whole number' if kind is int else 'number'} {bounds}, got {value!r}")
        values[key] = kind(value)
    return Policy(**values)


def policy_plain(policy: Policy) -> dict[str, Any]:
    """``policy`` as plain data (what the store keeps)."""
    return asdict(policy)


def check_bot_name(name: str) -> None:
    """Refuse a bot name that could not label a version or name its folder of submissions (empty,
    with ``@``, spaces, control characters or a path separator, or starting with a dot)."""
    if not name or name.startswith(".") or any(c in "@/\\" or c.isspace() or not c.isprintable() for c in name):
        raise LeagueError(f"bot name {name!r}: must be non-empty, without spaces, control characters, "
                          "'@', '/' or '\\', and not start with '.'")


def label(key: EntrantKey) -> str:
    """How a version plays and is rated: ``bot@version``."""
    return f"{key[0]}@{key[1]}"


def unlabel(text: str) -> EntrantKey:
    """Inverse of :func:`label`."""
    bot, _, version = text.rpartition("@")
    return (bot, int(version))


def table_seed(seed: int, number: int) -> int:
    """Table ``number``'s seed, derived from the league's."""
    digest = hashlib.blake2b(f"{seed}:{number}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


def table_name(league: str, number: int) -> str:
    """The tournament that plays table ``number`` of ``league``."""
    return f"{league}#{number}"


def table_config(
    template: dict[str, Any], league: str, number: int, seats: list[tuple[EntrantKey, BotEntry]],
    concurrency: int,
) -> TournamentConfig:
    """Table ``number``: a round robin of exactly the seated versions (one table, one deal, every
    rotation), from the stored ``template`` (plain data) and each seat's stored entry."""
    plain = dict(template)
    plain.update(
        name=table_name(league, number),
        format=Format.ROUND_ROBIN.value,
        candidates=[],
        deals=1,
        seed=table_seed(int(template["seed"]), number),
        concurrency=concurrency,
        table_size=len(seats),
        bots=[{**replace(entry, name=label(key)).to_plain()} for key, entry in seats],
    )
    config = config_from_plain(plain, source=f"league {league!r}, table {number}")
    logs = [entry.log_folder for _, entry in seats]  # not stored: where the seats' output goes
    return replace(config, bots=tuple(replace(bot, log_folder=folder)
                                      for bot, folder in zip(config.bots, logs, strict=True)))
