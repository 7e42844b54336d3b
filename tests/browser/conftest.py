"""One headless Chromium for the browser tests, and the published sites they open."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from selenium import webdriver

from arena.site.build import SiteReport, build_site
from arena.store.db import Store
from chromium import chromium
from leaderboards.model import RatingSettings
from tests.site.site_league import store_league


@pytest.fixture(scope="session")
def browser() -> Iterator[webdriver.Chrome]:
    """A fresh headless Chromium (fails under CI=true when Chromium is missing)."""
    with chromium() as driver:
        yield driver


@pytest.fixture(scope="session")
def published(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, SiteReport]]:
    """A stored tournament of each game and its published site: ``{game: (database, site)}``."""
    folder = tmp_path_factory.mktemp("browser-leagues")
    built: dict[str, tuple[Path, SiteReport]] = {}
    for game, variant in (("wongar", "basic"), ("waroong", "five-stars")):
        db = store_league(folder, game, variant)
        with Store(db) as store:
            built[game] = (db, build_site(store, folder / f"site-{game}", settings=RatingSettings(bootstrap_samples=4)))
    return built
