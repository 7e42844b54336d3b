"""A bot that tries to reach the people watching through the text and values it sends.

Usage: ``python text_bot.py MODE`` with ``ARENA_ENDPOINT`` and ``ARENA_TOKEN`` set; raw ZeroMQ and
msgpack, answering every ``act`` with its first legal action, except:

text    its name and version, an ``error`` answering the first ``act`` of each match, the keys and
        values of its ``info`` and its output all carry escape sequences (clear screen, a forged
        green result line, an OSC 52 clipboard write, C1 CSI, a bidi override) and Rich markup
values  its ``info`` carries bytes (also as a map key), NaN, infinities, the extreme 64-bit integers
        and maps nested twelve deep
"""

from __future__ import annotations

import math
import os
import sys

import msgpack
import zmq

#: What the ``text`` bot says everywhere it can.
FORGED = "\x1b[2J\x1b[H\x1b[32mseat 0 (random) wins\x1b[0m\x1b]52;c;cm0gLXJmIH4=\x07\x9b31m\u202e[bold red]x[/]"
#: The ``text`` bot's ``hello``: short, as a name must be, and still hostile.
NAME, VERSION = "\x1b[2J\x1b[H[bold red]x", "\x1b]52;c;eA==\x07"


def values_info() -> dict[object, object]:
    """The ``values`` bot's ``info``: everything msgpack has that JSON does not."""
    deep: dict[str, object] = {"leaf": b"\x00"}
    for level in range(12):
        deep = {f"level{level}": deep}
    return {"raw": b"\x00\xff\x1b[2J", b"bin-key": 1, "nan": math.nan, "inf": math.inf,
            "ninf": -math.inf, "big": 2**64 - 1, "small": -(2**63), "deep": deep,
            "mixed": [b"x", 1.5, None, True, {"nan": [math.nan]}]}


def main() -> None:
    mode = sys.argv[1]
    socket = zmq.Context().socket(zmq.DEALER)
    socket.setsockopt(zmq.LINGER, 0)
    socket.connect(os.environ["ARENA_ENDPOINT"])
    name, version = (NAME, VERSION) if mode == "text" else (mode, "0")
    socket.send(msgpack.packb({"type": "hello", "protocol": 1, "name": name, "version": version,
                               "token": os.environ["ARENA_TOKEN"]}))
    if mode == "text":
        print(FORGED, flush=True)
        print(FORGED, file=sys.stderr, flush=True)
    info = {"note": FORGED, FORGED: "[bold red]x"} if mode == "text" else values_info()
    first_act = True
    while True:
        message = msgpack.unpackb(socket.recv())
        kind = message["type"]
        if kind == "bye":
            return
        if kind == "start":
            first_act = True
        elif kind == "ping":
            socket.send(msgpack.packb({"type": "pong", "seq": message["seq"]}))
        elif kind == "act":
            if mode == "text" and first_act:
                reply = {"type": "error", "seq": message["seq"], "message": FORGED}
            else:
                reply = {"type": "action", "seq": message["seq"], "action": message["legal"][0], "info": info}
            first_act = False
            socket.send(msgpack.packb(reply, use_bin_type=True))


if __name__ == "__main__":
    main()
