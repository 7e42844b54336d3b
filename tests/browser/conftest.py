"""One headless Chromium for the browser tests, and the published sites they open."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from selenium import webdriver

from arena.site.build import SiteReport
from chromium import chromium
from tests.site import site_league


@pytest.fixture(scope="session")
def browser() -> Iterator[webdriver.Chrome]:
    """A fresh headless Chromium (fails under CI=true when Chromium is missing)."""
    with chromium() as driver:
        yield driver


@pytest.fixture(scope="session")
def published(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, SiteReport]]:
    """A stored tournament of each game and its published site: ``{game: (database, site)}``."""
    return site_league.published(tmp_path_factory)
