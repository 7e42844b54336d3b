"""Leaderboards of stored tournaments: the results store in, a :class:`Leaderboard` out."""

from __future__ import annotations

from typing import cast

from arena.store.db import Store
from arena.tournament.config import config_from_plain
from arena.tournament.schedule import build_schedule
from engine.core import Wire
from leaderboards.build import build_leaderboard
from leaderboards.errors import LeaderboardError
from leaderboards.model import Leaderboard, RatingSettings, TournamentInfo


def stored_leaderboard(
    store: Store, tournament: str | None = None, settings: RatingSettings = RatingSettings()
) -> Leaderboard:
    """Rate every stored game of ``tournament`` (the only one stored when ``None``).

    The board is provisional while scheduled games are missing. Raises :class:`LeaderboardError`
    when nothing can be rated yet, and the store's own error for an unknown tournament.
    """
    row = store.tournament(tournament)
    games = store.games(row.name)
    if not games:
        raise LeaderboardError(
            f"tournament {row.name!r} has no stored games yet; play some with "
            f"`arena tournament run` or `arena tournament resume --db {store.path}`"
        )
    config = config_from_plain(row.config, source=f"{store.path}: tournament {row.name!r}")
    scheduled = len(build_schedule(config))
    info = TournamentInfo(
        name=row.name,
        settings=cast(dict[str, Wire], dict(row.config)),
        provisional=len(games) < scheduled,
    )
    return build_leaderboard((g.record for g in games), info, settings)
