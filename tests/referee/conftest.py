"""Shared fixtures for referee tests: registered games, a hub with long-lived random bots."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from random_bots import connected_random_bots

from arena.handle import BotHandle
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
def random_bots(hub: Hub, tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[BotHandle]]:
    """Four connected random bots on the module's hub, reused across matches."""
    with connected_random_bots(hub, 4, tmp_path_factory.mktemp("logs")) as handles:
        yield handles
