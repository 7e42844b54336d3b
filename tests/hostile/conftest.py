"""Fixtures of the hostile-bot suite: one hub with two well-behaved random bots per module."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from arena.handle import BotHandle, close_all
from arena.manifest import resolve_bot
from engine.core import Game
from engine.registry import get_game
from protocols.transport import Hub


@pytest.fixture(scope="session")
def wongar() -> Game:
    """The game the hostile matches are played in (three seats: one hostile, two random)."""
    return get_game("wongar")


@pytest.fixture(scope="module")
def hub() -> Iterator[Hub]:
    """One referee hub for a test module."""
    with Hub() as shared:
        yield shared


@pytest.fixture(scope="module")
def honest(hub: Hub, tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[BotHandle]]:
    """Two connected random bots on the module's hub, reused across matches."""
    handles = BotHandle.launch_all([resolve_bot("random")] * 2, hub, tmp_path_factory.mktemp("logs"))
    assert all(h.failure is None for h in handles), [h.failure for h in handles]
    yield handles
    close_all(handles)
