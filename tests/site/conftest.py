"""Stored tournaments of both games, and their published sites, shared by the site's tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from arena.site.build import SiteReport, build_site
from arena.store.db import Store
from leaderboards.model import RatingSettings
from site_league import store_league

LEAGUES = {"wongar": "basic", "waroong": "five-stars"}


@pytest.fixture(scope="session")
def leagues(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The database of a stored tournament of each game, by game."""
    folder = tmp_path_factory.mktemp("leagues")
    return {game: store_league(folder, game, variant) for game, variant in LEAGUES.items()}


@pytest.fixture(scope="session")
def sites(leagues: dict[str, Path], tmp_path_factory: pytest.TempPathFactory) -> dict[str, SiteReport]:
    """The published site of each league, by game."""
    built: dict[str, SiteReport] = {}
    for game, db in leagues.items():
        with Store(db) as store:
            built[game] = build_site(store, tmp_path_factory.mktemp(f"site-{game}"),
                                     settings=RatingSettings(bootstrap_samples=10))
    return built
