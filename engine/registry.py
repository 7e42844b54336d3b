"""Games by name: the built-in games, and the games installed as plugins.

A built-in game is a subpackage of ``engine`` that exports ``GAME``. An installed game is an entry
point in the group ``arena.games`` (``name = "module:GAME"`` in its distribution's metadata) that
loads to a :class:`engine.core.Game`. Every game must declare an engine contract this Arena supports
(:data:`engine.core.CONTRACT_VERSION`).

A plugin that cannot be used (it fails to import, is not a ``Game``, declares another contract, lacks
metadata, or takes a key already registered) is skipped with a one-line warning naming its distribution, and is
listed by :func:`broken_games`; it never stops the others loading.
"""

from __future__ import annotations

import importlib
import logging
import pkgutil
from dataclasses import dataclass
from functools import cache
from importlib.metadata import EntryPoint, entry_points

import engine
from engine.core import CONTRACT_VERSION, ConfigError, Game, Knob, Variant

#: The entry-point group installed games register in.
ENTRY_POINT_GROUP = "arena.games"

#: The engine contract versions this Arena runs.
SUPPORTED_CONTRACTS = frozenset({CONTRACT_VERSION})

#: Where a built-in game comes from, as :func:`origin` says it.
BUILT_IN = "built-in"

_log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class BrokenGame:
    """An installed game that was skipped: where it comes from and why."""

    source: str
    reason: str


@dataclass(frozen=True, slots=True)
class _Catalogue:
    games: dict[str, Game]
    origins: dict[str, str]
    broken: tuple[BrokenGame, ...]


def contract_problem(game: Game) -> str | None:
    """Why this Arena cannot run ``game``'s declared engine contract, or ``None`` if it can."""
    declared = getattr(game, "contract", None)
    if declared in SUPPORTED_CONTRACTS:
        return None
    supported = ", ".join(str(v) for v in sorted(SUPPORTED_CONTRACTS))
    return f"game {getattr(game, 'name', '?')} declares engine contract {declared!r}; this Arena supports {supported}"


def _source(point: EntryPoint) -> str:
    dist = point.dist
    owner = f"distribution {dist.name} {dist.version}" if dist is not None else "an unknown distribution"
    return f"{owner} (entry point {point.name} = {point.value})"


def _plugin(point: EntryPoint) -> Game:
    """The game ``point`` loads to; raises ``ValueError`` saying why it is not usable."""
    try:
        loaded = point.load()
    except (Exception, SystemExit) as exc:  # noqa: BLE001 (a plugin's import may raise anything; it is reported)
        raise ValueError(f"cannot be imported: {type(exc).__name__}: {exc}") from None
    if not isinstance(loaded, Game):
        raise ValueError(f"loads to a {type(loaded).__name__}, not an engine.core.Game instance")
    problem = contract_problem(loaded) or metadata_problem(loaded)
    if problem is not None:
        raise ValueError(problem)
    return loaded


#: The metadata every game sets, and the type of each.
_METADATA: tuple[tuple[str, type], ...] = (
    ("name", str), ("version", int), ("title", str), ("min_players", int), ("max_players", int),
    ("variants", tuple), ("knobs", tuple),
)


def metadata_problem(game: Game) -> str | None:
    """What is missing or malformed in ``game``'s metadata (name, version, title, player counts,
    variants, knobs), or ``None``."""
    for attribute, kind in _METADATA:
        value = getattr(game, attribute, None)
        if not isinstance(value, kind) or isinstance(value, bool):
            return f"its {attribute} is {value!r}, not a {kind.__name__}"
    if not game.variants or not all(isinstance(v, Variant) for v in game.variants):
        return "its variants are not a non-empty tuple of engine.core.Variant"
    if not all(isinstance(k, Knob) for k in game.knobs):
        return "its knobs are not engine.core.Knob"
    if not 1 <= game.min_players <= game.max_players:
        return f"its players {game.min_players}-{game.max_players} are not a range"
    return None


@cache
def _catalogue() -> _Catalogue:
    found: dict[str, Game] = {}
    origins: dict[str, str] = {}
    for info in pkgutil.iter_modules(engine.__path__):
        if not info.ispkg:
            continue
        module = importlib.import_module(f"engine.{info.name}")
        game = getattr(module, "GAME", None)
        if isinstance(game, Game):
            problem = contract_problem(game)
            if problem is not None:
                raise ConfigError(problem)
            found[game.key] = game
            origins[game.key] = BUILT_IN
    broken: list[BrokenGame] = []
    for point in sorted(entry_points(group=ENTRY_POINT_GROUP), key=lambda p: (p.name, p.value)):
        source = _source(point)
        try:
            game = _plugin(point)
            if game.key in found:
                raise ValueError(f"its key {game.key} is already registered by {origins[game.key]}")
        except ValueError as exc:
            broken.append(BrokenGame(source, str(exc)))
            _log.warning("skipped the installed game of %s: %s", source, exc)
            continue
        found[game.key] = game
        origins[game.key] = source
    keys = sorted(found)
    return _Catalogue({k: found[k] for k in keys}, {k: origins[k] for k in keys}, tuple(broken))


def games() -> dict[str, Game]:
    """Every registered game, built-in and installed, by ``name@version``, sorted by key."""
    return dict(_catalogue().games)


def origin(game: Game) -> str:
    """Where a registered game comes from: :data:`BUILT_IN`, or its distribution and entry point."""
    return _catalogue().origins.get(game.key, "not registered")


def broken_games() -> tuple[BrokenGame, ...]:
    """The installed games that were skipped, with why."""
    return _catalogue().broken


def get_game(spec: str) -> Game:
    """The game named ``name@version``, or the newest version of ``name``.

    Raises :class:`ConfigError` listing the known games.
    """
    known = _catalogue().games
    if spec in known:
        return known[spec]
    versions = [g for g in known.values() if g.name == spec]
    if versions:
        return max(versions, key=lambda g: g.version)
    listing = ", ".join(known) or "none"
    broken = len(_catalogue().broken)
    plural = "s" if broken != 1 else ""
    skipped = f" ({broken} installed game{plural} could not be loaded: arena games lists why)" if broken else ""
    raise ConfigError(f"unknown game {spec!r}; known games: {listing}{skipped}")
