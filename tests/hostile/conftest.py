"""Fixtures of the hostile-bot suite: one hub with two well-behaved random bots per module; every
hostile bot runs in the sandbox, so the suite needs one (skipped without, failed under CI)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from random_bots import connected_random_bots
from sandboxed import require_sandbox

from arena.handle import BotHandle
from engine.core import Game
from engine.registry import get_game
from protocols.transport import Hub


@pytest.fixture(scope="session")
def wongar() -> Game:
    """The game the hostile matches are played in (three seats: one hostile, two random)."""
    return get_game("wongar")


@pytest.fixture(scope="module")
def honest(hub: Hub, tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[BotHandle]]:
    """Two connected random bots on the module's hub, reused across matches."""
    with connected_random_bots(hub, 2, tmp_path_factory.mktemp("logs")) as handles:
        yield handles


@pytest.fixture(autouse=True)
def working_sandbox() -> None:
    """Skip (or, under CI, fail) each test when untrusted bots cannot be sandboxed here."""
    require_sandbox()
