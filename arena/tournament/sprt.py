"""Early stopping of a gauntlet: the sequential test (:mod:`leaderboards.sprt`) on its stored games.

A duplicate block is one deal of one table in all its rotations; it counts once every rotation is
stored. Its score is the candidate's pairwise score against the pool over those games: for each
game and each other seat, 1 for finishing above it, 1/2 for a tie, 0 below, averaged. Deal luck
cancels within a block, which is what makes blocks (not games) the test's independent observations.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from fractions import Fraction

from arena.store.db import StoredGame
from arena.tournament.config import TournamentConfig
from leaderboards.sprt import SprtResult, sprt


class SprtMonitor:
    """The test of a gauntlet's candidate as games are stored (:meth:`add`), in any order."""

    def __init__(self, config: TournamentConfig) -> None:
        if config.sprt is None or len(config.candidates) != 1:
            raise ValueError("early stopping needs an sprt table and one candidate")
        self.settings = config.sprt
        self.candidate = config.candidates[0]
        self.rotations = config.table_size
        self._partial: dict[tuple[int, int], tuple[int, int]] = {}
        self._scores: Counter[Fraction] = Counter()
        self._result: SprtResult | None = None

    def add(self, table: int, deal: int, bots: tuple[str, ...], ranks: tuple[int, ...]) -> None:
        """Count one stored game of block ``(table, deal)``."""
        if self.candidate not in bots:
            return
        seat = bots.index(self.candidate)
        mine = ranks[seat]
        points = sum(
            2 if mine < theirs else 1 if mine == theirs else 0
            for other, theirs in enumerate(ranks)
            if other != seat
        )
        games, total = self._partial.get((table, deal), (0, 0))
        games, total = games + 1, total + points
        if games < self.rotations:
            self._partial[(table, deal)] = (games, total)
            return
        self._partial.pop((table, deal), None)
        self._scores[Fraction(total, 2 * (len(bots) - 1) * games)] += 1
        self._result = None

    def add_stored(self, games: Iterable[StoredGame]) -> None:
        """Count stored games."""
        for game in games:
            self.add(game.placement.table, game.placement.deal, game.record.bots, game.record.ranks)

    def result(self) -> SprtResult:
        """Where the test stands on the complete blocks counted so far."""
        if self._result is None:
            scores = {float(score): count for score, count in self._scores.items()}
            self._result = sprt(self.candidate, scores, self.settings)
        return self._result


def stored_sprt(config: TournamentConfig, games: Iterable[StoredGame]) -> SprtResult | None:
    """The test on ``games`` (``None`` for a tournament without early stopping)."""
    if config.sprt is None:
        return None
    monitor = SprtMonitor(config)
    monitor.add_stored(games)
    return monitor.result()
