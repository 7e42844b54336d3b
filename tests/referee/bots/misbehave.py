"""A bot that breaks the protocol in one chosen way, for the referee's fault tests.

Usage: ``python misbehave.py MODE`` with ``ARENA_ENDPOINT`` and ``ARENA_TOKEN`` set. It speaks the
wire directly (raw ZeroMQ and msgpack, not the SDK), answering with the first legal action except
where MODE says otherwise:

silent      never answers an ``act``
late        answers every ``act`` 1 s after it arrives
crash       answers three ``act`` messages, then exits with status 3
garbage     sends bytes that are not msgpack in reply to the second ``act``
illegal     answers every ``act`` with an id that is not legal
stale       sends a reply with an old ``seq`` before every correct reply
wrong-seat  claims another seat in every reply
deep        puts a 100-level nested list in ``info``
stubborn    ignores ``bye`` and SIGTERM, and keeps a child process in its group
echo        behaves, and reports the ``act``'s ``ply`` in ``info``
error       answers every ``act`` with an ``error`` message
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import msgpack
import zmq


def main() -> None:
    mode = sys.argv[1]
    context = zmq.Context()
    socket = context.socket(zmq.DEALER)
    socket.setsockopt(zmq.LINGER, 0)
    socket.connect(os.environ["ARENA_ENDPOINT"])
    token = os.environ["ARENA_TOKEN"]
    socket.send(msgpack.packb({"type": "hello", "protocol": 1, "name": mode, "version": "0", "token": token}))
    if mode == "stubborn":
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
    acts = 0
    while True:
        message = msgpack.unpackb(socket.recv())
        kind = message["type"]
        if kind == "bye":
            if mode == "stubborn":
                continue
            return
        if kind == "ping":
            socket.send(msgpack.packb({"type": "pong", "seq": message["seq"]}))
        if kind != "act":
            continue
        acts += 1
        reply: dict[str, object] = {"type": "action", "seq": message["seq"], "action": message["legal"][0]}
        if mode == "silent":
            continue
        if mode == "late":
            time.sleep(1.0)
        elif mode == "crash" and acts > 3:
            os._exit(3)
        elif mode == "garbage" and acts == 2:
            socket.send(b"\xc1 not msgpack")
            continue
        elif mode == "illegal":
            reply["action"] = max(message["legal"]) + 1000
        elif mode == "stale":
            socket.send(msgpack.packb({**reply, "seq": message["seq"] - 1}))
        elif mode == "wrong-seat":
            reply["seat"] = message["seat"] + 1
        elif mode == "error":
            reply = {"type": "error", "seq": message["seq"], "message": "cannot decide"}
        elif mode == "echo":
            reply["info"] = {"ply": message["ply"]}
        elif mode == "deep":
            nested: list[object] = []
            for _ in range(100):
                nested = [nested]
            reply["info"] = {"nested": nested}
        socket.send(msgpack.packb(reply))


if __name__ == "__main__":
    main()
