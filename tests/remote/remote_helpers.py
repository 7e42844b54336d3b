"""Helpers of the remote-seat tests: remote bot processes, their settings, driving a hub."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import zmq

from protocols.transport import Hub, Peer

ROOT = Path(__file__).resolve().parents[2]
FLAKY = Path(__file__).parent / "botprograms" / "flaky.py"


def settings(hub: Hub, peer: Peer, server_key: bytes | None = None) -> dict[str, str]:
    """The three connection settings of ``peer`` (``server_key`` instead of the hub's, if given)."""
    key = server_key if server_key is not None else hub.server_key(peer)
    assert key is not None and hub.listening is not None
    return {"ARENA_ENDPOINT": hub.listening, "ARENA_TOKEN": peer.token, "ARENA_SERVER_KEY": key.decode()}


def start(command: list[str], env: dict[str, str]) -> subprocess.Popen[str]:
    """A remote bot process (its own program, its own settings), output captured as text."""
    return subprocess.Popen(command, env={**os.environ, **env}, cwd=ROOT, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def sdk_bot(*args: str) -> list[str]:
    """The command of the built-in random bot (written with the SDK) with extra arguments."""
    return [sys.executable, "-m", "bots.random", *args]


def flaky(mode: str, count: int = 0) -> list[str]:
    return [sys.executable, str(FLAKY), mode, str(count)]


def stop(process: subprocess.Popen[str], wait: float = 0.0) -> tuple[str, str]:
    """End ``process`` if it still runs after ``wait`` seconds; its output."""
    try:
        return process.communicate(timeout=max(wait, 0.001))
    except subprocess.TimeoutExpired:
        process.kill()
        return process.communicate(timeout=10)


def when_file_appears(path: Path, then: list[str], delay: float = 0.0,
                      env: dict[str, str] | None = None) -> tuple[threading.Thread, list[subprocess.Popen[str]]]:
    """A thread that waits for ``path``, waits ``delay`` seconds more, then starts ``then`` (the
    started process is put in the returned list)."""
    started: list[subprocess.Popen[str]] = []

    def run() -> None:
        deadline = time.monotonic() + 30
        while not path.exists() and time.monotonic() < deadline:
            time.sleep(0.02)
        time.sleep(delay)
        started.append(start([part.replace("{file}", str(path)) for part in then], env or {}))

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread, started


def wait_until(hub: Hub, condition: Callable[[], bool], timeout: float) -> bool:
    """Drive ``hub`` until ``condition()`` holds or ``timeout`` seconds pass."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        hub.receive(0.05)
    return bool(condition())


def curve_dealer(hub: Hub) -> zmq.Socket[bytes]:
    """A DEALER socket with a key pair of its own, connected to ``hub``'s CURVE tcp endpoint."""
    socket: zmq.Socket[bytes] = zmq.Context.instance().socket(zmq.DEALER)
    socket.setsockopt(zmq.LINGER, 0)
    public, secret = zmq.curve_keypair()
    assert hub.curve_public is not None and hub.listening is not None
    socket.curve_serverkey, socket.curve_publickey, socket.curve_secretkey = (hub.curve_public, public, secret)
    socket.connect(hub.listening)
    return socket
