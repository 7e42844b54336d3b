"""Shared fixtures for referee tests: registered games, a hub with long-lived random bots."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from arena.handle import BotHandle, close_all
from arena.manifest import resolve_bot
from engine.core import Game
from engine.registry import games
from protocols.transport import Hub


@pytest.fixture(scope="session")
def first_game() -> Game:
    """The first registered game (fault handling does not depend on the game)."""
    registered = list(games().values())
    if not registered:
        pytest.skip("no game is registered")
    return registered[0]


@pytest.fixture(scope="module")
def hub() -> Iterator[Hub]:
    """One referee hub for a test module."""
    with Hub() as shared:
        yield shared


@pytest.fixture(scope="module")
def random_bots(hub: Hub, tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[BotHandle]]:
    """Four connected random bots on the module's hub, reused across matches."""
    handles = BotHandle.launch_all([resolve_bot("random")] * 4, hub, tmp_path_factory.mktemp("logs"))
    assert all(h.failure is None for h in handles), [h.failure for h in handles]
    yield handles
    close_all(handles)
