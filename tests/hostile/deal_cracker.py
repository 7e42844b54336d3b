"""A bot that tries to learn the deal from what the referee tells it.

Usage: ``python deal_cracker.py`` with ``ARENA_ENDPOINT``/``ARENA_TOKEN``. At every match it takes
every number it can find in ``start`` and the first ``act`` outside the observation (the seed, the
match id read as decimal and hex and in pieces, ``seq``, ``ply``), deals the game from each as if it
were the deal's seed, and compares that deal's observation for its seat with the one it was sent.
It plays the first legal action and reports ``{"cracked": bool, "tried": n}`` in ``info``.
"""

from __future__ import annotations

import os
import re
from typing import Any

import msgpack
import zmq

from engine.core import WireMap
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


def cracks(start: dict[str, Any], observation: WireMap, seed: int) -> bool:
    """Whether dealing the game of ``start`` from ``seed`` shows this seat ``observation``."""
    game = get_game(f"{start['game']}@{start['version']}")
    config = game.configure(start["players"], start["variant"], start["knobs"])
    return game.start(config, seed).observation(start["seat"]) == observation


def main() -> None:
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
                tried = candidates(start, message)
                cracked = any(cracks(start, message["observation"], s) for s in tried)
                verdict = {"cracked": cracked, "tried": len(tried)}
            socket.send(msgpack.packb({"type": "action", "seq": message["seq"],
                                       "action": message["legal"][0], "info": verdict}))


if __name__ == "__main__":
    main()
