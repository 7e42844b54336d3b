"""A descriptor flood: thousands of TCP connections that never finish the handshake.

Usage: ``python connection_flood.py HOST:PORT COUNT [SOURCES [RATE]]``

Opens COUNT connections to HOST:PORT, from SOURCES loopback addresses in turn (127.0.0.2, 127.0.0.3,
…; one address, this machine's own choice, without SOURCES), and holds them open. A third of them
stay idle, a third send the first half of a ZMTP greeting and stop, a third send 64 bytes of
garbage. It raises its own descriptor limit first (above COUNT where it may). Once every connection is made
(or has failed within 10 s), it prints ``flooding MADE of COUNT`` and holds them until its standard
input closes; then it prints ``closed N``, N being the connections the other side had closed by
then, and exits.

With RATE (connections a second, 0 for as many as it can) it churns instead, until its standard
input closes: it opens COUNT connections, then the next COUNT, closing the ones before, and so on,
no faster than RATE; it prints ``flooding`` once the first COUNT are made, and at the end
``made N in S s``.
"""

from __future__ import annotations

import errno
import resource
import selectors
import socket
import sys
import threading
import time

#: The first 10 bytes of a ZMTP 3 greeting (the signature), then nothing.
HALF_GREETING = b"\xff" + b"\x00" * 8 + b"\x7f"
GARBAGE = bytes(range(7, 71))
#: Seconds to wait for every connection to be made.
CONNECT_WITHIN = 10.0


def open_all(host: str, port: int, count: int, sources: int,
             within: float = CONNECT_WITHIN) -> list[socket.socket]:
    """Start ``count`` non-blocking connections; wait until each is made or failed (``within``
    seconds at most); the made."""
    pending: dict[socket.socket, int] = {}
    selector = selectors.DefaultSelector()
    for n in range(count):
        conn = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        conn.setblocking(False)
        if sources:
            conn.bind((f"127.0.0.{2 + n % sources}", 0))
        code = conn.connect_ex((host, port))
        if code not in (0, errno.EINPROGRESS):
            conn.close()
            continue
        pending[conn] = n
        selector.register(conn, selectors.EVENT_WRITE)
    made: list[socket.socket] = []
    deadline = time.monotonic() + within
    while pending and time.monotonic() < deadline:
        for key, _ in selector.select(max(0.0, deadline - time.monotonic())):
            conn = key.fileobj
            assert isinstance(conn, socket.socket)
            selector.unregister(conn)
            n = pending.pop(conn)
            if conn.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR):
                conn.close()
                continue
            payload = (b"", HALF_GREETING, GARBAGE)[n % 3]
            try:
                if payload:
                    conn.send(payload)
            except OSError:
                pass
            made.append(conn)
    for conn in pending:
        conn.close()
    selector.close()
    return made


def closed_by_peer(conns: list[socket.socket]) -> int:
    """How many of ``conns`` the other side has closed (a read finds the end, or an error)."""
    closed = 0
    for conn in conns:
        try:
            while conn.recv(4096):  # a greeting from the other side may come first
                pass
            closed += 1
        except BlockingIOError:
            continue
        except OSError:
            closed += 1
    return closed


def churn(host: str, port: int, count: int, sources: int, rate: float) -> int:
    """Open ``count`` connections after ``count``, closing the ones before, no faster than
    ``rate`` a second (0: no limit), until standard input closes; how many were made."""
    stop = threading.Event()
    threading.Thread(target=lambda: (sys.stdin.read(), stop.set()), daemon=True).start()
    held: list[socket.socket] = []
    made = 0
    started = time.monotonic()
    while not stop.is_set():
        batch = open_all(host, port, count, sources, within=1.0)
        for conn in held:
            conn.close()
        if not made:
            print("flooding", flush=True)
        held, made = batch, made + len(batch)
        if rate > 0:
            stop.wait(max(0.0, started + made / rate - time.monotonic()))
    for conn in held:
        conn.close()
    return made


def main() -> int:
    host, port = sys.argv[1].rsplit(":", 1)
    count = int(sys.argv[2])
    sources = int(sys.argv[3]) if len(sys.argv) > 3 else 0
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    try:  # above the hard limit where allowed (as root), so that it never limits the flood
        resource.setrlimit(resource.RLIMIT_NOFILE, (max(hard, count + 64),) * 2)
    except (ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    if len(sys.argv) > 4:
        started = time.monotonic()
        made = churn(host, int(port), count, sources, float(sys.argv[4]))
        print(f"made {made} in {time.monotonic() - started:.2f} s", flush=True)
        return 0
    conns = open_all(host, int(port), count, sources)
    print(f"flooding {len(conns)} of {count}", flush=True)
    sys.stdin.read()
    print(f"closed {closed_by_peer(conns)}", flush=True)
    for conn in conns:
        conn.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
