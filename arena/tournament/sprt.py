"""Early stopping of a gauntlet: the sequential test (:mod:`leaderboards.sprt`) on its stored games.

A duplicate block is one deal of one table in all its rotations; it counts once every rotation is
stored. Its score is the candidate's pairwise score against the pool over those games: for each
game and each other seat, 1 for finishing above it, 1/2 for a tie, 0 below, averaged. Deal luck
cancels within a block, which is what makes blocks (not games) the test's independent observations.

A paired gauntlet of two candidates (``arena test``) is tested by :mod:`leaderboards.paired`
instead: its observation is a deal pair (one deal of one pool combination, each candidate's block
of it complete), valued at the first candidate's block score minus the second's.

The test is checked after every complete block (the runner adds each game as it is stored); a
block counts whatever the order its games were stored in.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from fractions import Fraction

from arena.store.db import StoredGame
from arena.tournament.config import TournamentConfig
from arena.tournament.schedule import tables_of
from leaderboards.paired import PairedResult, mean_interval, paired_sprt
from leaderboards.sprt import SprtResult, sprt

#: Where a test stands: a gauntlet's, or a paired gauntlet's.
TestResult = SprtResult | PairedResult


class SprtMonitor:
    """The test of a gauntlet's candidate as games are stored (:meth:`add`), in any order."""

    def __init__(self, config: TournamentConfig) -> None:
        if config.sprt is None or len(config.candidates) != (2 if config.paired else 1):
            raise ValueError("early stopping needs an sprt table and one candidate (paired: two)")
        self.settings = config.sprt
        self.candidates = config.candidates
        self.paired = config.paired
        self.rotations = config.table_size
        #: Tables per candidate: table ``t`` pairs with ``t ± per_side`` in a paired gauntlet.
        self.per_side = len(tables_of(config)) // len(config.candidates)
        self._partial: dict[tuple[int, int], tuple[int, int]] = {}
        self._halves: dict[tuple[int, int], dict[int, Fraction]] = {}
        self._scores: Counter[Fraction] = Counter()
        #: Each complete deal pair's block scores, first candidate's then second's (paired only).
        self.twins: list[tuple[Fraction, Fraction]] = []
        self._result: TestResult | None = None

    @property
    def blocks(self) -> int:
        """Observations counted so far (blocks; deal pairs in a paired gauntlet)."""
        return sum(self._scores.values())

    def add(self, table: int, deal: int, bots: tuple[str, ...], ranks: tuple[int, ...]) -> None:
        """Count one stored game of block ``(table, deal)``."""
        mine_of = [c for c in self.candidates if c in bots]
        if not mine_of:
            return
        seat = bots.index(mine_of[0])
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
        score = Fraction(total, 2 * (len(bots) - 1) * games)
        if self.paired:
            side, combination = divmod(table, self.per_side)
            halves = self._halves.setdefault((combination, deal), {})
            halves[side] = score
            if len(halves) < 2:
                return
            del self._halves[(combination, deal)]
            self.twins.append((halves[0], halves[1]))
            score = halves[0] - halves[1]
        self._scores[score] += 1
        self._result = None

    def add_stored(self, games: Iterable[StoredGame]) -> None:
        """Count stored games."""
        for game in games:
            self.add(game.placement.table, game.placement.deal, game.record.bots, game.record.ranks)

    def result(self) -> TestResult:
        """Where the test stands on the complete blocks (or deal pairs) counted so far."""
        if self._result is None:
            scores = self.observations()
            self._result = (
                paired_sprt(self.candidates[0], self.candidates[1], scores, self.settings)
                if self.paired
                else sprt(self.candidates[0], scores, self.settings)
            )
        return self._result


    def observations(self) -> dict[float, int]:
        """The values counted (block scores; deal-pair differences when paired), by how often."""
        return {float(score): count for score, count in self._scores.items()}

    def describe(self) -> str:
        """The test's line; a gauntlet's with its mean block score and that mean's 95% interval."""
        result = self.result()
        mean, interval = mean_interval(self.observations())
        if self.paired or mean is None:
            return result.describe()
        spread = "" if interval is None else f" (95% {interval[0]:.4f} .. {interval[1]:.4f})"
        return f"{result.describe()}; mean block score {mean:.4f}{spread}"


def stored_sprt(config: TournamentConfig, games: Iterable[StoredGame]) -> TestResult | None:
    """The test on ``games`` (``None`` for a tournament without early stopping)."""
    if config.sprt is None:
        return None
    monitor = SprtMonitor(config)
    monitor.add_stored(games)
    return monitor.result()
