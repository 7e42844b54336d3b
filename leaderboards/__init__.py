"""Ratings from finished games, and publishing them.

``build_leaderboard(games, tournament, settings)`` rates :class:`RatedGame` facts (handed over by the
arena: :mod:`arena.rating_input`) into a :class:`Leaderboard`;
``render_table``/``render_markdown``/``render_json``/``render_html`` give its published forms and
``publish(board, out_dir)`` writes ``index.html``, ``leaderboard.md`` and ``leaderboard.json``.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from leaderboards.errors import LeaderboardError
from leaderboards.model import Leaderboard, RatingSettings, TournamentInfo
from leaderboards.publish import publish
from leaderboards.render_html import render_html
from leaderboards.render_json import render_json
from leaderboards.render_markdown import render_markdown
from leaderboards.render_table import render_table
from leaderboards.results import RatedGame

if TYPE_CHECKING:
    from leaderboards.build import build_leaderboard, deal_block


def __getattr__(name: str) -> object:
    """The fitting code (and scipy) loads on first use of its names, not with the package."""
    if name in ("build_leaderboard", "deal_block"):
        return getattr(importlib.import_module("leaderboards.build"), name)
    raise AttributeError(f"module 'leaderboards' has no attribute {name!r}")


__all__ = [
    "Leaderboard",
    "LeaderboardError",
    "RatedGame",
    "RatingSettings",
    "TournamentInfo",
    "build_leaderboard",
    "deal_block",
    "publish",
    "render_html",
    "render_json",
    "render_markdown",
    "render_table",
]
