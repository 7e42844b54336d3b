"""Games by name: every subpackage of ``engine`` that exports ``GAME`` is registered.

Adding a game is adding one folder ``engine/<name>/`` whose ``__init__`` defines ``GAME``.
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache

import engine
from engine.core import ConfigError, Game


@cache
def games() -> dict[str, Game]:
    """Every registered game by ``name@version``, sorted by key."""
    found: dict[str, Game] = {}
    for info in pkgutil.iter_modules(engine.__path__):
        if not info.ispkg:
            continue
        module = importlib.import_module(f"engine.{info.name}")
        game = getattr(module, "GAME", None)
        if isinstance(game, Game):
            found[game.key] = game
    return dict(sorted(found.items()))


def get_game(spec: str) -> Game:
    """The game named ``name@version``, or the newest version of ``name``.

    Raises :class:`ConfigError` listing the known games.
    """
    known = games()
    if spec in known:
        return known[spec]
    versions = [g for g in known.values() if g.name == spec]
    if versions:
        return max(versions, key=lambda g: g.version)
    listing = ", ".join(known) or "none"
    raise ConfigError(f"unknown game {spec!r}; known games: {listing}")
