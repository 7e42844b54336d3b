"""A bot that tries to learn the deal, and so every rival's hidden cards, from guessable numbers.

Usage: ``python deal_cracker.py [numbers|invert|deal]`` with ``ARENA_ENDPOINT``/``ARENA_TOKEN``.
At the first ``act`` of every match it runs one attack, plays the first legal action and reports
``{"attack": ..., "cracked": bool, "tried": n, "seed": the deal's engine seed or None}`` in ``info``:

* ``numbers``: every number in ``start`` and the first ``act`` outside the observation (the seed,
  the match id read as decimal and hex and in pieces, ``seq``, ``ply``) dealt as the deal's seed.
* ``invert``: ``start.seed`` inverted: every guessable seed (:func:`guessable_seeds`) whose
  ``start.seed`` for this seat would be the one it was sent.
* ``deal``: every guessable seed dealt until one shows this seat the observation it was sent.

A seed counts as cracked only once dealing it shows this seat its observation (:func:`cracks`):
the bot then knows the whole deal. Guessable seeds are the small numbers ``0 .. CRACK_UP_TO`` (an
organiser's ``--seed 7``), what a series of ``arena play --games`` derives from them, and, given a
published tournament's field (``CRACK_FIELD``, names comma-separated, ``CRACK_TABLE_SIZE``,
``CRACK_DEALS``), each round-robin deal's seed under each small master seed.
"""

from __future__ import annotations

import itertools
import os
import re
import sys
from collections.abc import Iterator
from typing import Any

import msgpack
import zmq

from engine.core import WireMap, derive_seed
from engine.registry import get_game


def candidates(start: dict[str, Any], act: dict[str, Any]) -> set[int]:
    """Every number in ``start`` and ``act`` (but the observation) that could be a seed."""
    found: set[int] = set()
    texts = [str(start.get("match", ""))]
    for message in (start, act):
        for key, value in message.items():
            if key in ("observation", "actions"):
                continue
            if isinstance(value, int) and not isinstance(value, bool):
                found.add(value)
            elif isinstance(value, str):
                texts.append(value)
    for text in texts:
        for piece in re.split(r"[^0-9a-fA-F]+", text) + [text]:
            if piece.isdigit():
                found.add(int(piece))
            if piece and re.fullmatch(r"[0-9a-fA-F]+", piece):
                found.add(int(piece, 16))
    return {n for n in found if 0 <= n < 2**64}


def guessable_seeds(up_to: int, series: int = 4) -> Iterator[int]:
    """Seeds an organiser might deal from: small numbers, the first ``series`` matches' seeds of
    an ``arena play --games`` series from each, and the deals of a published round-robin field
    (from the environment) under each small master seed."""
    field = [n for n in os.environ.get("CRACK_FIELD", "").split(",") if n]
    size = int(os.environ.get("CRACK_TABLE_SIZE", "0"))
    deals = int(os.environ.get("CRACK_DEALS", "1"))
    tables = ["/".join(t) for t in itertools.combinations(field, size)] if field and size else []
    for seed in range(up_to + 1):
        yield seed
        for number in range(series):
            yield derive_seed(seed, "game", number)
        for label in tables:
            for deal in range(deals):
                yield derive_seed(seed, "deal", label, deal)


#: What of a Wongar seat's observation the deal alone decides until its first turn, whatever the
#: seats before it do: its hand, the start player, the boomerang, and the hidden stacks' contents.
DEALT = {"wongar": ("hand", "start_player", "boomerang", "stack_cards", "scorpions_under")}


def cracks(start: dict[str, Any], observation: WireMap, seed: int) -> bool:
    """Whether dealing the game of ``start`` from ``seed`` shows this seat ``observation`` (at its
    first turn: in what the deal alone decides, for a game of :data:`DEALT`)."""
    game = get_game(f"{start['game']}@{start['version']}")
    config = game.configure(start["players"], start["variant"], start["knobs"])
    dealt = msgpack.unpackb(msgpack.packb(game.start(config, seed).observation(start["seat"])))
    keys = DEALT.get(start["game"], tuple(dealt))
    return all(dealt.get(key) == observation.get(key) for key in keys)


def attack(mode: str, start: dict[str, Any], act: dict[str, Any]) -> dict[str, Any]:
    """Run attack ``mode`` on the match of ``start`` at its first ``act``; the verdict."""
    observation = act["observation"]
    tried = 0
    if mode == "numbers":
        found = candidates(start, act)
        tried = len(found)
        cracked = [s for s in found if cracks(start, observation, s)]
    elif mode == "invert":
        cracked = []
        for seed in guessable_seeds(int(os.environ.get("CRACK_UP_TO", "5000"))):
            tried += 1
            if derive_seed(seed, "bot", start["seat"]) == start["seed"]:
                if cracks(start, observation, seed):
                    cracked.append(seed)
                break
    else:
        cracked = []
        for seed in guessable_seeds(int(os.environ.get("CRACK_UP_TO", "60"))):
            tried += 1
            if cracks(start, observation, seed):
                cracked.append(seed)
                break
    return {"attack": mode, "cracked": bool(cracked), "tried": tried,
            "seed": cracked[0] if cracked else None}


def main() -> None:
    mode = sys.argv[1] if len(sys.argv) > 1 else "numbers"
    context: zmq.Context[zmq.Socket[bytes]] = zmq.Context()
    socket = context.socket(zmq.DEALER)
    socket.setsockopt(zmq.LINGER, 0)
    socket.connect(os.environ["ARENA_ENDPOINT"])
    socket.send(msgpack.packb({"type": "hello", "protocol": 1, "name": "cracker", "version": "1",
                               "token": os.environ["ARENA_TOKEN"]}))
    start: dict[str, Any] = {}
    verdict: dict[str, Any] | None = None
    while True:
        message = msgpack.unpackb(socket.recv())
        kind = message["type"]
        if kind == "bye":
            return
        if kind == "start":
            start, verdict = message, None
        elif kind == "act":
            if verdict is None:
                verdict = attack(mode, start, message)
            socket.send(msgpack.packb({"type": "action", "seq": message["seq"],
                                       "action": message["legal"][0], "info": verdict}))


if __name__ == "__main__":
    main()
