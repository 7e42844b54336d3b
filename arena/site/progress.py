"""Each bot's rating over the course of a tournament: the field rated again on the games stored
up to each of a few checkpoints (in the order they were stored)."""

from __future__ import annotations

from collections.abc import Sequence

from leaderboards.errors import LeaderboardError
from leaderboards.model import RatingSettings
from leaderboards.results import RatedGame

#: How many points each bot's rating line has at most.
CHECKPOINTS = 12

_QUICK = RatingSettings(bootstrap_samples=2)


def rating_history(games: Sequence[RatedGame], checkpoints: int = CHECKPOINTS) -> list[tuple[int, dict[str, float]]]:
    """``(games rated, {bot: Elo})`` after each checkpoint, the last after every game. Checkpoints
    too early to rate (fewer than two bots met) are left out."""
    from leaderboards.build import build_leaderboard  # the fit and scipy load only when used

    total = len(games)
    marks = sorted({max(1, round(total * k / checkpoints)) for k in range(1, checkpoints + 1)})
    history: list[tuple[int, dict[str, float]]] = []
    for mark in marks:
        try:
            board = build_leaderboard(games[:mark], None, _QUICK)
        except LeaderboardError:
            continue
        history.append((mark, {s.bot: s.elo for s in board.standings}))
    return history
