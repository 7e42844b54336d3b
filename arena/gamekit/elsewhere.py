"""Determinism across processes: the same seed and decisions played in fresh Python processes.

A game that orders anything by ``hash()`` of strings (a ``set`` of names, a dict built from one),
by ``id()``, or by the clock plays the same within one process and otherwise in the next, so a
stored match no longer replays. :func:`fingerprints` digests random playouts of a game's setups;
:func:`fingerprints_elsewhere` has fresh interpreters with other hash seeds compute the same, and
the kit compares them. Run as ``python -m arena.gamekit.elsewhere`` it is that fresh process: it
reads the request as JSON on stdin and writes the digests as JSON on stdout.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import os
import subprocess
import sys
from collections.abc import Sequence
from functools import cache

from arena.gamekit.setups import Setup, game_setups, play_out
from engine.core import Game
from engine.registry import games, get_game

#: The hash seeds of the fresh processes: two, so that a game whose deal depends on the order of a
#: small set of strings is caught even where one seed happens to give the parent's order.
HASH_SEEDS = ("1", "2")


def fingerprint(setup: Setup, seed: int) -> str:
    """A digest of the deal of ``seed`` played out by the random policy: every decision, and each
    seat's opening and final view, events and the result."""
    opening = setup.game.start(setup.config, seed)
    final, decisions = play_out(setup, seed, seed + 1)
    seats = range(setup.config.players)
    result = final.result()
    played = {
        "opening": [opening.observation(seat) for seat in seats],
        "decisions": decisions,
        "final": [final.observation(seat) for seat in seats],
        "events": [final.events(seat)[0] for seat in seats],
        "result": [list(result.scores), list(result.ranks)],
    }
    return hashlib.sha256(json.dumps(played, sort_keys=True, default=repr).encode()).hexdigest()


def fingerprints(game: Game, seeds: Sequence[int]) -> dict[str, list[str]]:
    """Each setup's fingerprints of ``seeds``, by setup id."""
    return {setup.id: [fingerprint(setup, seed) for seed in seeds] for setup in game_setups(game)}


def _address(game: Game) -> dict[str, str] | None:
    """How a fresh process finds ``game``: by its registered key, else by its class's module and
    name; ``None`` for a class it cannot import (one defined inside a function)."""
    if any(registered is game for registered in games().values()):
        return {"key": game.key}
    cls = type(game)
    if "<locals>" in cls.__qualname__ or cls.__module__ == "__main__":
        return None
    return {"module": cls.__module__, "class": cls.__qualname__}


def fingerprints_elsewhere(game: Game, seeds: tuple[int, ...]) -> tuple[tuple[str, dict[str, list[str]]], ...]:
    """The fingerprints of ``game``'s setups computed by a fresh process per hash seed of
    :data:`HASH_SEEDS`, as ``(hash seed, fingerprints)``; empty when no fresh process can load
    the game (see :func:`_address`). Raises ``AssertionError`` when a fresh process fails."""
    address = _address(game)
    return () if address is None else _played_elsewhere(json.dumps({**address, "seeds": list(seeds)}))


@cache
def _played_elsewhere(request: str) -> tuple[tuple[str, dict[str, list[str]]], ...]:
    """:func:`fingerprints_elsewhere` of a request, once per request (every setup of a game asks)."""
    path = os.pathsep.join(entry for entry in sys.path if entry)
    runs = [
        (seed, subprocess.Popen(
            [sys.executable, "-m", "arena.gamekit.elsewhere"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, text=True, env={**os.environ, "PYTHONHASHSEED": seed, "PYTHONPATH": path},
        ))
        for seed in HASH_SEEDS
    ]
    found: list[tuple[str, dict[str, list[str]]]] = []
    for seed, run in runs:
        out, err = run.communicate(request)
        if run.returncode != 0:
            last = err.strip().splitlines()[-1:] or ["no message"]
            raise AssertionError(f"a fresh Python process (PYTHONHASHSEED={seed}) could not play the game: {last[0]}")
        found.append((seed, json.loads(out)))
    return tuple(found)


def _load(request: dict[str, object]) -> Game:
    if "key" in request:
        return get_game(str(request["key"]))
    owner: object = importlib.import_module(str(request["module"]))
    for part in str(request["class"]).split("."):
        owner = getattr(owner, part)
    assert isinstance(owner, type)
    game = owner()
    assert isinstance(game, Game)
    return game


def main() -> None:
    """Read a request (``key``, or ``module`` and ``class``; ``seeds``) on stdin; write the
    fingerprints on stdout."""
    request = json.loads(sys.stdin.read())
    print(json.dumps(fingerprints(_load(request), [int(seed) for seed in request["seeds"]])))


if __name__ == "__main__":
    main()
