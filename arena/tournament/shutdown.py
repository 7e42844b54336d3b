"""Stopping a worker without losing track of its bots.

The runner stops a local worker with SIGTERM. :func:`on_sigterm` turns it into ``SystemExit`` so
the worker unwinds and closes every bot, except inside :func:`deferred` sections (starting or
closing bots), where the exit waits until the section ends: a bot process is never left started but
unrecorded. Python runs signal handlers in the main thread, which is where the worker plays.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType


class _State:
    depth = 0
    pending: int | None = None


def on_sigterm(signum: int, frame: FrameType | None) -> None:
    """The worker's SIGTERM handler: exit now, or when the current deferred section ends."""
    if _State.depth:
        _State.pending = signum
        return
    raise SystemExit(128 + signum)


@contextmanager
def deferred() -> Iterator[None]:
    """A section that a SIGTERM does not interrupt; the exit it asked for happens at the end."""
    _State.depth += 1
    try:
        yield
    finally:
        _State.depth -= 1
        if _State.depth == 0 and _State.pending is not None:
            signum, _State.pending = _State.pending, None
            raise SystemExit(128 + signum)


def on_sigint(signum: int, frame: FrameType | None) -> None:
    """The worker's SIGINT handler: nothing. Ctrl-C is the runner's to handle; a handler rather
    than ``SIG_IGN`` because an ignored signal would stay ignored in the bots started from here."""
