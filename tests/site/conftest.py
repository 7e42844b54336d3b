"""Stored tournaments of both games, and their published sites, shared by the site's tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from arena.site.build import SiteReport
from tests.site.site_league import published


@pytest.fixture(scope="session")
def leagues(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The database of a stored tournament of each game, by game."""
    return {game: db for game, (db, _) in published(tmp_path_factory).items()}


@pytest.fixture(scope="session")
def sites(tmp_path_factory: pytest.TempPathFactory) -> dict[str, SiteReport]:
    """The published site of each league, by game."""
    return {game: site for game, (_, site) in published(tmp_path_factory).items()}
