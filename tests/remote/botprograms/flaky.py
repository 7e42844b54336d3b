"""A remote bot whose connection comes and goes, for the remote-seat tests.

Usage: ``python flaky.py MODE N [GATE]`` with ``ARENA_ENDPOINT``, ``ARENA_TOKEN`` and ``ARENA_SERVER_KEY``
set. It speaks the wire directly (raw ZeroMQ and msgpack, not the SDK), answering every ``act``
with its first legal action, except:

drop     at its N+1-th ``act`` closes its connection without answering, connects afresh (a new
         socket, the same token), says hello again and plays on
vanish   at its N+1-th ``act`` exits with status 3 without answering
mute     says hello, then never answers a ``ping`` (nor anything else)
gate     at its N+1-th ``act`` prints ``deciding``, waits (up to a minute) until the file GATE
         exists, then drops and reconnects as ``drop`` does

It prints ``start`` to stdout at every ``start`` it is sent, and exits 0 on ``bye``.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import msgpack
import zmq


def connect(context: zmq.Context[zmq.Socket[bytes]]) -> zmq.Socket[bytes]:
    socket = context.socket(zmq.DEALER)
    socket.setsockopt(zmq.LINGER, 0)
    public, secret = zmq.curve_keypair()
    socket.curve_serverkey = os.environ["ARENA_SERVER_KEY"].encode()
    socket.curve_publickey, socket.curve_secretkey = public, secret
    socket.connect(os.environ["ARENA_ENDPOINT"])
    hello = {"type": "hello", "protocol": 1, "name": "flaky", "version": "1",
             "token": os.environ["ARENA_TOKEN"]}
    socket.send(msgpack.packb(hello))
    return socket


def main() -> int:
    mode, count = sys.argv[1], int(sys.argv[2])
    gate = Path(sys.argv[3]) if mode == "gate" else None
    context = zmq.Context()
    socket = connect(context)
    acts = 0
    while True:
        message = msgpack.unpackb(socket.recv())
        kind = message["type"]
        if mode == "mute":
            continue
        if kind == "start":
            print("start", flush=True)
        elif kind == "act":
            acts += 1
            if acts == count + 1 and mode == "vanish":
                return 3
            if acts == count + 1 and gate is not None:
                print("deciding", flush=True)
                waited = time.monotonic() + 60
                while not gate.exists() and time.monotonic() < waited:
                    time.sleep(0.01)
            if acts == count + 1 and mode in ("drop", "gate"):
                socket.close(linger=0)
                time.sleep(0.2)
                socket = connect(context)
                continue
            reply = {"type": "action", "seq": message["seq"], "action": message["legal"][0]}
            socket.send(msgpack.packb(reply))
        elif kind == "ping":
            socket.send(msgpack.packb({"type": "pong", "seq": message["seq"]}))
        elif kind == "bye":
            return 0


if __name__ == "__main__":
    raise SystemExit(main())
