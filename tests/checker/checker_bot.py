"""A raw-protocol bot for the checker's tests: ``python checker_bot.py MODE [SECONDS]``.

good         prints ``server=<welcome.server>`` and answers every ``act`` with its first legal id
             (every mode prints ``act seq=<seq>`` for each ``act``)
wrong-token  says hello with a token it was not given, and exits with status 1 on the ``error``
wrong-seq    answers every ``act`` with a ``seq`` 1000 too high (pongs are right)
sleep-first  as good, but sleeps SECONDS before its first reply (elapsed time, almost no CPU)
burn-first   as good, but spends SECONDS of its own CPU time before its first reply
mute         never answers an ``act`` (pongs are right)
"""

from __future__ import annotations

import os
import sys
import time

import msgpack
import zmq


def slow_down(mode: str, seconds: float) -> None:
    """Take ``seconds`` before a reply: asleep for ``sleep-first``, computing for ``burn-first``."""
    if mode == "sleep-first":
        time.sleep(seconds)
    elif mode == "burn-first":
        until = time.process_time() + seconds
        while time.process_time() < until:
            pass


def main() -> None:
    mode = sys.argv[1]
    slow = float(sys.argv[2]) if len(sys.argv) > 2 else 0.0
    socket = zmq.Context().socket(zmq.DEALER)
    socket.setsockopt(zmq.LINGER, 0)
    socket.connect(os.environ["ARENA_ENDPOINT"])
    token = os.environ["ARENA_TOKEN"]
    if mode == "wrong-token":
        token = "0" * 32
    socket.send(msgpack.packb({"type": "hello", "protocol": 1, "name": mode, "version": "0", "token": token}))
    while True:
        message = msgpack.unpackb(socket.recv())
        kind = message["type"]
        if kind == "error":
            print(f"refused: {message['message']}", flush=True)
            sys.exit(1)
        if kind == "welcome":
            print(f"server={message['server']}", flush=True)
        elif kind == "bye":
            return
        elif kind == "ping":
            socket.send(msgpack.packb({"type": "pong", "seq": message["seq"]}))
        elif kind == "act":
            print(f"act seq={message['seq']}", flush=True)
            if mode == "mute":
                continue
            slow_down(mode, slow)
            slow = 0.0
            seq = message["seq"] + (1000 if mode == "wrong-seq" else 0)
            socket.send(msgpack.packb({"type": "action", "seq": seq, "action": message["legal"][0]}))


if __name__ == "__main__":
    main()
