"""Junk at the referee as fast as one process can send it, for the flood tests and benchmark.

Usage:
``python flood_bot.py seat``      with ``ARENA_ENDPOINT``/``ARENA_TOKEN``: plays a seat (first legal
                                  action, at once), sends a burst of junk on its own connection
                                  after every reply, and floods the hub from strangers' connections
                                  (that never say hello) the whole time;
``python flood_bot.py stranger ENDPOINT SECONDS``: only the strangers, at ENDPOINT, for SECONDS
                                  (prints ``flooding`` as it starts).

The junk: 1 MiB of nested empty arrays (over the socket's size limit), 100 KiB of them (under it),
and 400-byte frames that are no hello. Strangers reconnect under a fresh identity every few
hundred frames, so being ignored after a few strikes does not stop them. Prints how many frames
it sent when it ends.
"""

from __future__ import annotations

import os
import sys
import threading
import time

import msgpack
import zmq

NESTED_1M = b"\x91" * (1 << 20)
NESTED_100K = b"\x91" * (100 << 10)
SMALL = b"\x91" * 400
#: Frames a stranger sends before reconnecting under a fresh identity.
PER_IDENTITY = 300


def strangers(context: zmq.Context[zmq.Socket[bytes]], endpoint: str, until: float, sent: list[int]) -> None:
    """Send junk from connections that never say hello until ``until`` (monotonic seconds)."""
    frames = [SMALL, NESTED_100K, SMALL, SMALL]
    while time.monotonic() < until:
        socket = context.socket(zmq.DEALER)
        socket.setsockopt(zmq.LINGER, 0)
        socket.setsockopt(zmq.SNDHWM, 16)
        socket.connect(endpoint)
        for n in range(PER_IDENTITY):
            try:
                socket.send(frames[n % len(frames)], flags=zmq.NOBLOCK)
                sent[0] += 1
            except zmq.Again:
                time.sleep(0.0005)
            if time.monotonic() >= until:
                break
        # Over the socket's size limit: the referee's side closes this connection at once.
        try:
            socket.send(NESTED_1M, flags=zmq.NOBLOCK)
        except zmq.Again:
            pass
        socket.close()


def play_seat(context: zmq.Context[zmq.Socket[bytes]]) -> None:
    """Say hello, answer every ``act`` at once, and follow each reply with a junk burst."""
    socket = context.socket(zmq.DEALER)
    socket.setsockopt(zmq.LINGER, 0)
    socket.connect(os.environ["ARENA_ENDPOINT"])
    socket.send(msgpack.packb({"type": "hello", "protocol": 1, "name": "flood", "version": "1",
                               "token": os.environ["ARENA_TOKEN"]}))
    while True:
        message = msgpack.unpackb(socket.recv())
        if message["type"] == "bye":
            return
        if message["type"] == "act":
            socket.send(msgpack.packb({"type": "action", "seq": message["seq"],
                                       "action": message["legal"][0]}))
            for junk in (NESTED_100K, SMALL, NESTED_100K, SMALL):
                try:
                    socket.send(junk, flags=zmq.NOBLOCK)
                except zmq.Again:
                    pass


def main() -> int:
    context: zmq.Context[zmq.Socket[bytes]] = zmq.Context()
    sent = [0]
    if sys.argv[1] == "stranger":
        print("flooding", flush=True)
        strangers(context, sys.argv[2], time.monotonic() + float(sys.argv[3]), sent)
    else:
        flooding = threading.Thread(
            target=strangers,
            args=(context, os.environ["ARENA_ENDPOINT"], time.monotonic() + 3600, sent),
            daemon=True,
        )
        flooding.start()
        play_seat(context)
    print(f"sent {sent[0]} junk frames", flush=True)
    os._exit(0)


if __name__ == "__main__":
    sys.exit(main())
