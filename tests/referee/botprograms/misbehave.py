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
twice       answers every ``act`` twice
exit-hello  exits with status 4 right after sending ``hello``
wrong-token says hello with a token it was not given, then waits
hang        says hello and never reads again
shape       answers with valid msgpack of the wrong shape or types (a different one each time)
big         answers with a 96 KiB frame (over the 64 KiB limit of bot frames, under the socket's)
fat-info    behaves, with an 8 KB ``info`` in every reply (over the 4 KiB cap)
huge        answers the first ``act`` with a 64 MiB frame, then behaves
flood       before answering each of its first three ``act``s sends 1000 unsolicited 60 KiB frames
fork        starts 200 sleeping children (in its process group), then behaves
hog         allocates memory without bound at its first ``act``
spin        behaves, but spins the CPU between turns
chatter     behaves, while a thread writes to stdout and stderr without pause
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
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
    if mode == "wrong-token":
        token = token[::-1] + "x"
    socket.send(msgpack.packb({"type": "hello", "protocol": 1, "name": mode, "version": "0", "token": token}))
    if mode == "exit-hello":
        os._exit(4)
    if mode == "hang":
        time.sleep(600)
    if mode == "stubborn":
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
    if mode == "fork":
        for _ in range(200):
            if os.fork() == 0:
                time.sleep(600)
                os._exit(0)
    if mode == "chatter":
        threading.Thread(target=chatter, daemon=True).start()
    acts = 0
    while True:
        if mode == "spin":
            while not socket.poll(0):
                pass
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
        elif mode == "twice":
            socket.send(msgpack.packb(reply))
        elif mode == "shape":
            wrong: list[object] = [
                [reply],
                {**reply, "seq": str(message["seq"])},
                {"type": "action", "seq": message["seq"]},
                {**reply, "action": [message["legal"][0]]},
            ]
            socket.send(msgpack.packb(wrong[acts % len(wrong)]))
            continue
        elif mode == "big":
            reply["info"] = {"pad": b"\0" * (96 << 10)}
        elif mode == "fat-info":
            reply["info"] = {"pad": "x" * 8000}
        elif mode == "huge" and acts == 1:
            socket.send(b"\0" * (64 << 20))
        elif mode == "flood" and acts <= 3:
            pad = "x" * 60000
            for n in range(1000):
                socket.send(msgpack.packb({"type": "pong", "seq": n, "pad": pad}))
        elif mode == "hog":
            hoard = []
            while True:
                hoard.append(bytearray(16 << 20))
        socket.send(msgpack.packb(reply))


def chatter() -> None:
    """Write to stdout and stderr until the process ends."""
    line = b"chatter " * 8000 + b"\n"
    while True:
        os.write(1, line)
        os.write(2, line)


if __name__ == "__main__":
    main()
