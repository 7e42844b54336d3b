"""The tournament config: a strict TOML file (plus command-line overrides) read into frozen values.

Every problem is a :class:`~arena.tournament.TournamentError` naming the file and the key, e.g.
``league.toml: bots[2].command: expected a list of strings, got int``. Unknown keys are rejected.
"""

from __future__ import annotations

import enum
import hashlib
import json
import os
import secrets
import shlex
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from arena.clock import CLOCK_CHOICES, ClockRule, TimeControl, TimeControlError
from arena.manifest import BotSpec, ManifestError, builtin_bots, resolve_bot
from arena.remote import RemoteError
from arena.remote.connection import check_name
from arena.remote.seats import remote_spec
from arena.remote.settings import POSTPONE_AFTER, RemoteSettings
from protocols.guard import ConnectionCaps
from arena.tournament import TournamentError
from bots.shared.levels import ENV_LEVEL, LevelError, check_level
from engine.core import ConfigError, KnobValue, MatchConfig
from engine.registry import get_game
from leaderboards.sprt import SprtError, SprtSettings
from protocols.codec import BOT_FRAME_LIMIT
from protocols.messages import ENV_NODES


class Format(str, enum.Enum):
    """How tables are drawn from the field."""

    ROUND_ROBIN = "round-robin"
    """Every table of ``table_size`` bots from the whole field."""
    GAUNTLET = "gauntlet"
    """Every candidate with every ``table_size - 1`` bots of the pool (the non-candidates)."""
    SAMPLED = "sampled"
    """``tables_per_bot`` tables for every bot, drawn from the seed so that pairs of bots share
    tables as evenly as the numbers allow (:mod:`arena.tournament.sampled`)."""
    SWISS = "swiss"
    """``rounds`` rounds of tables of bots of similar standing, each round formed from the games
    stored before it (:mod:`arena.tournament.swiss`)."""


@dataclass(frozen=True, slots=True)
class BotEntry:
    """A bot of the field: its name in this tournament, what to run, extra environment, and a node
    budget (``nodes``, given to the bot as ``ARENA_NODES``; ``None`` leaves the manifest's).

    ``bot`` is what :func:`arena.manifest.resolve_bot` accepts: a built-in bot's name, a command
    line, or a manifest file (an absolute path once loaded). A command line runs in ``folder`` (the
    config file's, absolute), which its relative paths are relative to; ``None`` for other bots
    (and for command lines stored before folders were: they run in the current folder).
    """

    name: str
    bot: str
    env: Mapping[str, str] = field(default_factory=dict)
    nodes: int | None = None
    #: The organiser's own bot: it may run outside the sandbox (``trusted = true`` in ``[[bots]]``).
    trusted: bool = False
    #: Run outside the sandbox because the whole tournament does (not stored with the entry).
    unconfined: bool = False
    folder: str | None = None
    #: A remote entrant (``remote = true``): it connects over the config's ``listen`` endpoint.
    remote: bool = False
    #: Where its processes' output is kept (its owner's folder in a league; not stored with the
    #: entry); ``None``: the worker's scratch folder, removed when the worker leaves.
    log_folder: str | None = field(default=None, compare=False)

    def spec(self) -> BotSpec:
        """How to start this bot here (resolved on the machine that runs it).

        Raises :class:`~arena.manifest.ManifestError` if it cannot be resolved.
        """
        if self.remote:
            return remote_spec(self.name)
        spec = (
            resolve_bot(self.bot)
            if self.folder is None
            else _in_folder(self.bot, self.folder, self.name)
        )
        nodes = {} if self.nodes is None else {ENV_NODES: str(self.nodes)}
        return replace(spec, name=self.name or spec.name, env={**spec.env, **self.env, **nodes},
                       trusted=spec.trusted or self.trusted or self.unconfined,
                       log_dir=None if self.log_folder is None else Path(self.log_folder))

    def to_plain(self) -> dict[str, Any]:
        """The entry as plain data, in the config file's shape (what the store keeps)."""
        if self.remote:
            return {"name": self.name, "remote": True}
        plain: dict[str, Any] = {"name": self.name, "bot": self.bot, "env": dict(self.env)}
        if self.nodes is not None:
            plain["nodes"] = self.nodes
        if self.trusted:
            plain["trusted"] = True
        if self.folder is not None:
            plain["folder"] = self.folder
        return plain


def is_command_line(bot: str) -> bool:
    """Whether a ``bot`` text is a command line (not a built-in bot's name or a manifest)."""
    return not bot.endswith(".toml") and bot not in builtin_bots()


def _in_folder(command_line: str, folder: str, name: str) -> BotSpec:
    """A command line's spec, run in ``folder``: its program is looked for there when it is a
    relative path (``./mybot``), and its relative arguments are relative to it."""
    if not os.path.isdir(folder):
        raise ManifestError(
            f"the folder {folder} of bot {name!r} no longer exists "
            "(moved? run its config from where it is now)"
        )
    try:
        command = shlex.split(command_line)
    except ValueError as exc:
        raise ManifestError(f"cannot split bot command {command_line!r}: {exc}") from None
    if command and os.sep in command[0] and not os.path.isabs(command[0]):
        spec = resolve_bot(shlex.join([os.path.join(folder, command[0]), *command[1:]]))
    else:
        spec = resolve_bot(command_line)
    return replace(spec, command=tuple(command), cwd=Path(folder))


@dataclass(frozen=True, slots=True)
class TournamentConfig:
    """A validated tournament. ``concurrency`` 0 means: choose from the core count and table size.
    ``pin_cpus``: run each local match slot on a processor of its own (when there are enough)."""

    name: str
    game: str
    variant: str | None
    knobs: Mapping[str, KnobValue]
    table_size: int
    format: Format
    candidates: tuple[str, ...]
    deals: int
    time_control: TimeControl
    strikes: int
    seed: int
    concurrency: int
    trusted: bool
    bots: tuple[BotEntry, ...]
    pin_cpus: bool = True
    #: The largest frame a bot may send, KiB (SPEC.md §2).
    frame_limit_kb: int = BOT_FRAME_LIMIT >> 10
    #: What decisions are charged (CPU or elapsed time) and the elapsed-time cap under the CPU clock.
    clock: ClockRule = ClockRule()
    #: The config named no seed, so ``seed`` was drawn at random (64 bits, from ``secrets``); a
    #: stored tournament of the same name keeps its own (:func:`arena.tournament.runner.keep_stored_seed`).
    seed_drawn: bool = False
    #: Untrusted bots run in the sandbox; ``False`` (``--no-sandbox``) runs every bot unconfined,
    #: and the stored tournament and its leaderboard say so.
    sandbox: bool = True
    #: Tables each bot plays (format ``sampled``).
    tables_per_bot: int = 0
    #: Rounds (format ``swiss``).
    rounds: int = 0
    #: Early stopping of a one-candidate gauntlet, or of a paired one of two candidates
    #: (``sprt = { elo0, elo1, alpha, beta }``).
    sprt: SprtSettings | None = None
    #: A gauntlet whose candidates play the same deals with the same pool bots in the same seats
    #: (``paired = true``), so candidates are compared deal by deal (``arena test``).
    paired: bool = False
    #: Bots added to the stored tournament after it started, in the order added (the last bots of
    #: ``bots``); their tables come after the others (``arena tournament add-bot``).
    late_entries: tuple[str, ...] = ()
    #: Where remote entrants connect (``listen``, ``address``, ``postpone_after``).
    remote: RemoteSettings | None = None
    #: A file holding the deal secret to use when the tournament is first stored (an absolute
    #: path; ``deal_secret_file``, relative to the config file's folder): an input of the run,
    #: never stored with the config (:mod:`arena.tournament.dealbook`).
    deal_secret_file: str | None = None

    def __post_init__(self) -> None:
        if not self.sandbox:
            object.__setattr__(self, "bots", tuple(replace(b, unconfined=True) for b in self.bots))

    def bot(self, name: str) -> BotEntry:
        """The entry named ``name``; ``KeyError`` if there is none."""
        for entry in self.bots:
            if entry.name == name:
                return entry
        raise KeyError(name)

    def to_plain(self) -> dict[str, Any]:
        """The config as plain, JSON-able data; :func:`config_from_plain` reads it back unchanged."""
        plain: dict[str, Any] = {
            "name": self.name,
            "game": self.game,
            "knobs": dict(self.knobs),
            "table_size": self.table_size,
            "format": self.format.value,
            "candidates": list(self.candidates),
            "deals": self.deals,
            "time_control": str(self.time_control),
            "strikes": self.strikes,
            "seed": self.seed,
            "concurrency": self.concurrency,
            "pin_cpus": self.pin_cpus,
            "trusted": self.trusted,
            "bots": [b.to_plain() for b in self.bots],
        }
        if self.variant is not None:
            plain["variant"] = self.variant
        if self.frame_limit_kb != BOT_FRAME_LIMIT >> 10:
            plain["frame_limit_kb"] = self.frame_limit_kb
        if self.clock.kind != ClockRule().kind:
            plain["clock"] = self.clock.kind
        if self.clock.wall_cap != ClockRule().wall_cap:
            plain["wall_cap"] = self.clock.wall_cap
        if not self.sandbox:
            plain["sandbox"] = False
        if self.tables_per_bot:
            plain["tables_per_bot"] = self.tables_per_bot
        if self.rounds:
            plain["rounds"] = self.rounds
        if self.sprt is not None:
            plain["sprt"] = self.sprt.to_plain()
        if self.paired:
            plain["paired"] = True
        if self.late_entries:
            plain["late_entries"] = list(self.late_entries)
        if self.remote is not None:
            plain.update(self.remote.to_plain())
        return plain

    def fingerprint(self) -> str:
        """A hash of everything that decides the schedule and the games (not how many run at once
        or where)."""
        plain = self.to_plain()
        del plain["concurrency"], plain["pin_cpus"]
        for key in REMOTE_KEYS:  # where remote bots connect
            plain.pop(key, None)
        for bot in plain["bots"]:  # where the bots' files are is not what plays
            bot.pop("folder", None)
        text = json.dumps(plain, sort_keys=True, separators=(",", ":"))
        return hashlib.blake2b(text.encode(), digest_size=8).hexdigest()

    def match_config(self) -> MatchConfig:
        """The engine setup every game uses; raises :class:`TournamentError` if the game rejects it."""
        try:
            game = get_game(self.game)
            return game.configure(self.table_size, self.variant, dict(self.knobs))
        except ConfigError as exc:
            raise TournamentError(f"tournament {self.name!r}: {exc}") from None


#: The keys of where and how remote entrants connect (``listen`` first), none of which changes
#: what is played.
REMOTE_KEYS = ("listen", "address", "postpone_after", "connections_per_address", "connections",
               "hello_within")

_TOP_KEYS = {
    "name": "a string",
    "game": "a string",
    "variant": "a string",
    "knobs": "a table",
    "table_size": "a whole number",
    "format": "a string",
    "candidates": "a list of strings",
    "deals": "a whole number",
    "time_control": "a string",
    "strikes": "a whole number",
    "seed": "a whole number",
    "concurrency": "a whole number",
    "pin_cpus": "true or false",
    "frame_limit_kb": "a whole number",
    "clock": "a string",
    "listen": "a string",
    "address": "a string",
    "postpone_after": "a whole number",
    "connections_per_address": "a whole number",
    "connections": "a whole number",
    "hello_within": "a whole number",
    "wall_cap": "a number",
    "trusted": "true or false",
    "sandbox": "true or false",
    "tables_per_bot": "a whole number",
    "rounds": "a whole number",
    "sprt": "a table",
    "paired": "true or false",
    "late_entries": "a list of strings",
    "deal_secret_file": "a string",
    "bots": "an array of tables",
}
_BOT_KEYS = ("name", "bot", "env", "nodes", "level", "trusted", "remote")


class _Reader:
    """Typed access to a raw mapping, with errors that name the source and the key path."""

    def __init__(self, source: str, data: Mapping[str, Any], prefix: str = "") -> None:
        self.source = source
        self.data = data
        self.prefix = prefix

    def error(self, key: str, problem: str) -> TournamentError:
        return TournamentError(f"{self.source}: {self.prefix}{key}: {problem}")

    def reject_unknown(self, allowed: Sequence[str]) -> None:
        unknown = sorted(set(self.data) - set(allowed))
        if unknown:
            raise self.error(unknown[0], f"unknown key; allowed keys: {', '.join(allowed)}")

    def _get(self, key: str, kind: type | tuple[type, ...], expected: str, default: Any) -> Any:
        if key not in self.data:
            if default is _REQUIRED:
                raise self.error(key, f"missing; expected {expected}")
            return default
        value = self.data[key]
        if isinstance(value, bool) and kind is not bool or not isinstance(value, kind):
            raise self.error(key, f"expected {expected}, got {type(value).__name__} {value!r}")
        return value

    def string(self, key: str, default: Any = None) -> Any:
        value = self._get(key, str, "a string", default)
        if key in self.data and not value.strip():
            raise self.error(key, "must not be empty")
        return value

    def integer(self, key: str, default: Any, minimum: int, maximum: int | None = None) -> int:
        value: int = self._get(key, int, "a whole number", default)
        if value < minimum:
            raise self.error(key, f"must be at least {minimum}, not {value}")
        if maximum is not None and value > maximum:
            raise self.error(key, f"must be at most {maximum:,}, not {value:,}")
        return value

    def boolean(self, key: str, default: bool) -> bool:
        value: bool = self._get(key, bool, "true or false", default)
        return value

    def strings(self, key: str, default: Any) -> tuple[str, ...]:
        value = self._get(key, list, "a list of strings", default)
        for i, item in enumerate(value):
            if not isinstance(item, str) or not item:
                raise self.error(f"{key}[{i}]", f"expected a non-empty string, got {item!r}")
        return tuple(value)

    def table(self, key: str) -> dict[str, Any]:
        value: dict[str, Any] = self._get(key, dict, "a table", {})
        return value


#: The most deals per table (and rounds, or tables per bot) a config may ask for: a schedule is
#: built whole before the first game, and a million deals took minutes and gigabytes to plan.
MOST_DEALS = 100_000
#: The most matches a config or ``-j`` may play at once (each a worker process).
MOST_CONCURRENCY = 1024
_REQUIRED = object()


def load_config(path: Path, overrides: Mapping[str, Any] | None = None) -> TournamentConfig:
    """Read and validate the TOML file at ``path``; ``overrides`` (same keys) win over the file,
    knobs one by one.

    Relative paths of bot manifests are resolved against the file's folder, and command-line bots
    run in it (see :attr:`BotEntry.folder`).
    """
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise TournamentError(f"{path}: no such config file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise TournamentError(f"{path}: cannot read: {exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise TournamentError(f"{path}: not valid TOML: {exc}") from None
    changes = {k: v for k, v in (overrides or {}).items() if v is not None}
    if isinstance(raw.get("knobs"), dict) and "knobs" in changes:
        changes["knobs"] = {**raw["knobs"], **changes["knobs"]}
    raw.update(changes)
    return parse_config(raw, source=str(path), base=path.resolve().parent)


def config_from_plain(plain: Mapping[str, Any], source: str = "stored config") -> TournamentConfig:
    """Inverse of :meth:`TournamentConfig.to_plain` (with the same validation as a file)."""
    return parse_config(dict(plain), source=source, base=Path.cwd(), stored=True)


def parse_config(
    raw: Mapping[str, Any], source: str, base: Path, stored: bool = False
) -> TournamentConfig:
    """Validate a raw mapping (parsed TOML); raises :class:`TournamentError` naming source and key.

    Command-line bots run in ``base``; a ``stored`` config keeps the folder stored with each."""
    top = _Reader(source, raw)
    top.reject_unknown(list(_TOP_KEYS))
    bots = _read_bots(top, base, stored)
    table_size = top.integer("table_size", _REQUIRED, minimum=1)
    fmt_name = top.string("format", Format.ROUND_ROBIN.value)
    try:
        fmt = Format(fmt_name)
    except ValueError:
        allowed = ", ".join(f.value for f in Format)
        raise top.error("format", f"must be one of {allowed}, not {fmt_name!r}") from None
    candidates = top.strings("candidates", [])
    _check_field(top, fmt, bots, candidates, table_size)
    tables_per_bot, rounds = _check_format_counts(top, fmt)
    paired = top.boolean("paired", False)
    if paired and fmt is not Format.GAUNTLET:
        raise top.error("paired", "only a gauntlet pairs its candidates")
    sprt = _sprt_settings(top, fmt, candidates, paired)
    late_entries = _late_entries(top, fmt, bots)
    knobs = top.table("knobs")
    for key, value in knobs.items():
        if not isinstance(value, (bool, int, float, str)):
            raise top.error(f"knobs.{key}", f"expected a string, number or boolean, got {value!r}")
    try:
        time_control = TimeControl.parse(top.string("time_control", _REQUIRED))
    except TimeControlError as exc:
        raise top.error("time_control", str(exc)) from None
    return TournamentConfig(
        name=top.string("name", _REQUIRED),
        game=top.string("game", _REQUIRED),
        variant=top.string("variant", None),
        knobs=dict(knobs),
        table_size=table_size,
        format=fmt,
        candidates=candidates,
        deals=top.integer("deals", 1, minimum=1, maximum=MOST_DEALS),
        time_control=time_control,
        strikes=top.integer("strikes", 3, minimum=1),
        seed=secrets.randbits(64) if "seed" not in raw else top.integer("seed", 0, minimum=0),
        concurrency=top.integer("concurrency", 0, minimum=0, maximum=MOST_CONCURRENCY),
        trusted=top.boolean("trusted", False),
        bots=bots,
        pin_cpus=top.boolean("pin_cpus", True),
        frame_limit_kb=top.integer("frame_limit_kb", BOT_FRAME_LIMIT >> 10, minimum=1),
        clock=_clock_rule(top),
        seed_drawn="seed" not in raw,
        sandbox=top.boolean("sandbox", True),
        tables_per_bot=tables_per_bot,
        rounds=rounds,
        sprt=sprt,
        paired=paired,
        late_entries=late_entries,
        remote=_remote_settings(top, bots),
        deal_secret_file=_deal_secret_file(top, base),
    )


def _deal_secret_file(top: _Reader, base: Path) -> str | None:
    """``deal_secret_file``, made absolute against the config file's folder."""
    given = top.string("deal_secret_file", None)
    return None if given is None else str((base / given).resolve())


def _remote_settings(top: _Reader, bots: Sequence[BotEntry]) -> RemoteSettings | None:
    """``listen`` and the other :data:`REMOTE_KEYS`: needed by, and only for, remote entrants."""
    listen = top.string("listen", None)
    if listen is None:
        for key in REMOTE_KEYS[1:]:
            if key in top.data:
                raise top.error(key, "only a tournament that sets listen has it")
        if any(b.remote for b in bots):
            raise top.error("listen", "remote bots need a tcp://HOST:PORT to connect to")
        return None
    if top.data.get("clock") == "cpu" and any(b.remote for b in bots):
        raise top.error("clock", "remote bots are timed on the wall clock: cpu cannot time them")
    try:
        default = ConnectionCaps()
        caps = ConnectionCaps(
            per_address=top.integer("connections_per_address", default.per_address, minimum=1),
            connections=top.integer("connections", default.connections, minimum=1),
            hello_within=top.integer("hello_within", int(default.hello_within), minimum=1))
        return RemoteSettings(listen, top.string("address", None),
                              top.integer("postpone_after", POSTPONE_AFTER, minimum=1), caps)
    except RemoteError as exc:
        raise top.error("listen", str(exc)) from None


def _check_format_counts(top: _Reader, fmt: Format) -> tuple[int, int]:
    """``tables_per_bot`` (required by, and only for, ``sampled``) and ``rounds`` (``swiss``)."""
    counts = {"tables_per_bot": Format.SAMPLED, "rounds": Format.SWISS}
    found = []
    for key, needs in counts.items():
        if fmt is needs:
            found.append(top.integer(key, _REQUIRED, minimum=1, maximum=MOST_DEALS))
        elif key in top.data:
            raise top.error(key, f"only the {needs.value} format has {key}")
        else:
            found.append(0)
    return found[0], found[1]


def _sprt_settings(
    top: _Reader, fmt: Format, candidates: Sequence[str], paired: bool
) -> SprtSettings | None:
    """The ``sprt`` table: early stopping, for a gauntlet of one candidate (or a paired one of two:
    the first against the second)."""
    if "sprt" not in top.data:
        return None
    reader = _Reader(top.source, top.table("sprt"), prefix="sprt.")
    keys = ("elo0", "elo1", "alpha", "beta")
    reader.reject_unknown(keys)
    if fmt is not Format.GAUNTLET or len(candidates) != (2 if paired else 1):
        raise top.error("sprt", "early stopping needs a gauntlet with exactly one candidate "
                                "(a paired one: two)")
    defaults = SprtSettings()
    values = {
        key: float(reader._get(key, (int, float), "a number", getattr(defaults, key)))
        for key in keys
    }
    try:
        return SprtSettings(**values)
    except SprtError as exc:
        raise top.error("sprt", str(exc)) from None


def _late_entries(top: _Reader, fmt: Format, bots: Sequence[BotEntry]) -> tuple[str, ...]:
    """``late_entries``: names of the last bots of the field, for a round-robin or sampled one."""
    late = top.strings("late_entries", [])
    if not late:
        return late
    if fmt not in (Format.ROUND_ROBIN, Format.SAMPLED):
        raise top.error("late_entries", "only a round-robin or sampled tournament takes late entries")
    names = [b.name for b in bots]
    if len(set(late)) != len(late) or names[len(names) - len(late):] != list(late):
        raise top.error("late_entries", "must name the last bots of the field, in their order")
    return late


def _clock_rule(top: _Reader) -> ClockRule:
    kind = top.string("clock", ClockRule().kind)
    wall_cap = top._get("wall_cap", (int, float), "a number", ClockRule().wall_cap)
    try:
        return ClockRule(kind, float(wall_cap))
    except TimeControlError as exc:
        raise top.error("clock" if kind not in CLOCK_CHOICES else "wall_cap", str(exc)) from None


def _read_bots(top: _Reader, base: Path, stored: bool) -> tuple[BotEntry, ...]:
    entries = top._get("bots", list, "an array of tables ([[bots]])", _REQUIRED)
    bots: list[BotEntry] = []
    for i, item in enumerate(entries):
        if not isinstance(item, dict):
            raise top.error(f"bots[{i}]", f"expected a table, got {item!r}")
        reader = _Reader(top.source, item, prefix=f"bots[{i}].")
        reader.reject_unknown([*_BOT_KEYS, "folder"] if stored else _BOT_KEYS)
        env = reader.table("env")
        for key, value in env.items():
            if not isinstance(value, str):
                raise reader.error(f"env.{key}", f"expected a string, got {value!r}")
        if reader.boolean("remote", False):
            bots.append(_remote_entry(reader))
            continue
        text = reader.string("bot", _REQUIRED).strip()
        if text.endswith(".toml"):
            text = str((base / text).resolve())
        nodes = reader.integer("nodes", None, minimum=1) if "nodes" in item else None
        if "level" in item:
            env = {**env, **_level_env(reader, text, nodes)}
        entry = BotEntry("", text, dict(env), nodes, reader.boolean("trusted", False))
        if stored:  # resolved when played (run and resume check it), not to read results
            bots.append(replace(entry, name=reader.string("name", _REQUIRED),
                                folder=reader.string("folder", None)))
            continue
        if is_command_line(text):
            entry = replace(entry, folder=str(base))
        try:
            spec = entry.spec()
        except ManifestError as exc:
            raise reader.error("bot", str(exc)) from None
        bots.append(replace(entry, name=reader.string("name", spec.name)))
    names = [b.name for b in bots]
    for name in names:
        if names.count(name) > 1:
            raise top.error("bots", f"bot name {name!r} appears more than once")
    return tuple(bots)


def _level_env(reader: _Reader, bot: str, nodes: int | None) -> dict[str, str]:
    """A built-in bot's ``level`` (:mod:`bots.shared.levels`) as the environment that gives it."""
    if nodes is not None:
        raise reader.error("level", "give a level or a node budget (nodes), not both")
    try:
        level = check_level(bot, reader.data["level"])
    except LevelError as exc:
        raise reader.error("level", str(exc)) from None
    return {ENV_LEVEL: str(level)}


def _remote_entry(reader: _Reader) -> BotEntry:
    """A ``remote = true`` entry: a name, nothing to run here."""
    for key in ("bot", "env", "nodes", "level", "trusted", "folder"):
        if key in reader.data:
            raise reader.error(key, "a remote bot runs on its owner's machine; give only its name")
    name = reader.string("name", _REQUIRED)
    try:
        check_name(name)
    except RemoteError as exc:
        raise reader.error("name", str(exc)) from None
    return BotEntry(name, f"remote:{name}", remote=True)


def _check_field(
    top: _Reader, fmt: Format, bots: Sequence[BotEntry], candidates: Sequence[str], table_size: int
) -> None:
    names = {b.name for b in bots}
    if fmt is not Format.GAUNTLET:
        if candidates:
            raise top.error("candidates", "only a gauntlet has candidates")
        if table_size > len(bots):
            raise top.error(
                "table_size", f"{table_size} is larger than the field of {len(bots)} bots"
            )
        return
    if not candidates:
        raise top.error("candidates", "a gauntlet needs at least one candidate")
    for name in candidates:
        if name not in names:
            raise top.error("candidates", f"{name!r} is not one of the bots")
    pool = len(names - set(candidates))
    if table_size - 1 > pool:
        raise top.error(
            "table_size",
            f"{table_size} needs a pool of {table_size - 1} bots besides the candidate, "
            f"but the pool has {pool}",
        )
