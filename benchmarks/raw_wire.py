"""The raw wire the referee is measured against: a bare ROUTER socket in this process and one bare
DEALER echo process per seat, which unpacks each map it is sent and answers an ``action`` map with
the first legal id (plain msgpack and ZeroMQ: no checks, no SDK). ``None`` stops an echo."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile

import msgpack
import zmq

ECHO = """
import sys, msgpack, zmq
socket = zmq.Context().socket(zmq.DEALER)
socket.setsockopt(zmq.LINGER, 0)
socket.connect(sys.argv[1])
socket.send(b"ready")
while True:
    message = msgpack.unpackb(socket.recv())
    if message is None:
        break
    socket.send(msgpack.packb({"type": "action", "seq": message["seq"], "action": message["legal"][0],
                               "seat": message["seat"]}))
"""


class RawWire:
    """The ROUTER (``router``) and the echoes' routing ids by seat (``identities``)."""

    def __init__(self, players: int) -> None:
        self.folder = tempfile.mkdtemp(prefix="arena-bench-")
        endpoint = f"ipc://{os.path.join(self.folder, 'raw.sock')}"
        self.context = zmq.Context()
        self.router = self.context.socket(zmq.ROUTER)
        self.router.setsockopt(zmq.LINGER, 0)
        self.router.bind(endpoint)
        self.echoes = [subprocess.Popen([sys.executable, "-c", ECHO, endpoint]) for _ in range(players)]
        self.identities = [self.router.recv_multipart()[0] for _ in self.echoes]

    def close(self) -> None:
        """Stop the echo processes and remove the socket folder."""
        for identity in self.identities:
            self.router.send_multipart([identity, msgpack.packb(None)])
        for echo in self.echoes:
            try:
                echo.wait(5)
            finally:
                echo.kill()
                echo.wait()
        self.router.close()
        self.context.term()
        shutil.rmtree(self.folder, ignore_errors=True)
