"""Remote seats: ``remote:NAME`` on the command line, and waiting for remote bots to say hello."""

from __future__ import annotations

import time
from collections.abc import Callable

from arena.manifest import BotSpec
from arena.remote.connection import check_name
from protocols.transport import Hub, Peer

#: How a remote seat is named on the command line: ``remote:alice``.
PREFIX = "remote:"
#: Seconds between two calls of a waiting countdown.
TICK = 1.0

Countdown = Callable[[list[Peer], float], None]


def remote_name(text: str) -> str | None:
    """The entrant's name if ``text`` is ``remote:NAME``, else ``None``; raises
    :class:`~arena.remote.RemoteError` for a bad name."""
    text = text.strip()
    return check_name(text[len(PREFIX):].strip()) if text.startswith(PREFIX) else None


def remote_spec(name: str) -> BotSpec:
    """The spec of a remote seat: nothing to start here (it is not run on this machine)."""
    return BotSpec(name, (), version="remote", trusted=True)


def wait_for(hub: Hub, peers: list[Peer], timeout: float, countdown: Countdown | None = None) -> list[Peer]:
    """Wait until every peer in ``peers`` is connected, or ``timeout`` seconds pass; the ones still
    missing. ``countdown`` is called about every second with the missing ones and the seconds left.
    Connected peers are kept alive meanwhile (the hub pings them)."""
    deadline = time.monotonic() + timeout
    while True:
        missing = [p for p in peers if not p.connected]
        left = deadline - time.monotonic()
        if not missing or left <= 0:
            return missing
        if countdown is not None:
            countdown(missing, left)
        hub.wait_connected(missing, min(TICK, left))
