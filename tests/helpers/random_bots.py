"""A module-wide referee hub with connected built-in random bots, for the fixtures of the referee
and hostile suites."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from arena.handle import BotHandle, close_all
from arena.manifest import resolve_bot
from protocols.transport import Hub


@contextmanager
def connected_random_bots(hub: Hub, count: int, log_dir: Path) -> Iterator[list[BotHandle]]:
    """``count`` random bots connected to ``hub`` (asserted), closed on leaving."""
    handles = BotHandle.launch_all([resolve_bot("random")] * count, hub, log_dir)
    try:
        assert all(h.failure is None for h in handles), [h.failure for h in handles]
        yield handles
    finally:
        close_all(handles)
