"""The next table of a continuous league: a pure function of the entrants, the rating fit, the table
size and the tables played lately (no I/O; the same state and seed give the same tables).

Each table is chosen in three steps (docs/league.md, "Matchmaking"):

1. **Quota.** An active entrant that has waited a :func:`period` (K tables) less one round of the
   field is due: the longest-waiting is seated next, with other due entrants beside it, so that
   even a whole field falling due at once is seated within the round and nobody waits longer than
   about K tables. Otherwise an entrant still in its placement (fewer than
   :func:`placement_tables` tables: a new entrant or a new version) is seated next, the one with
   fewest tables first: a new version plays its first tables at once.
2. **Information.** Otherwise the table is the one expected to shrink most the uncertainty that
   matters. The rating fit is a Gaussian over the entrants' strengths; the uncertainty is a
   weighted sum of variances, each relative to its present value (the differences between top
   ranks, each weighted by how unsure their order is; the ratings of entrants in placement; a
   little of everyone's); a table's gain is what its expected Fisher information (Plackett-Luce,
   every rotation of a duplicate block) takes off that sum. The best pair is chosen over all
   pairs, then filled a seat at a time with the entrant that adds most, which is an entrant close
   in rating to those seated.
3. **Recency.** The last seat never completes a table played within ``repeat_window`` tables while
   another entrant can take it.

Choosing several tables at once (:func:`next_tables`) applies each one's expected information
before choosing the next, so a batch spreads over the uncertainty instead of repeating its best
table. Ties go to a seeded shuffle of the entrants.
"""

from __future__ import annotations

import enum
import functools
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from arena.errors import ArenaError
from leaderboards.scale import ELO_MEAN, ELO_PER_THETA

FloatArray = NDArray[np.float64]
IndexArray = NDArray[np.intp]

EntrantKey = tuple[str, int]
"""An entrant's identity: its bot and version (each version is rated on its own)."""


#: The most seats a table may have: a table's information sums over every set of its seats.
MAX_TABLE_SIZE = 12


class MatchmakingError(ArenaError):
    """The league's state cannot be matched: the message says what is wrong with it."""


@dataclass(frozen=True, slots=True)
class Entrant:
    """One version of a bot in the league: whether it still plays (a retired one never does), the
    league table count when it arrived (how many tables the league had played), and the tables it
    has played."""

    bot: str
    version: int
    active: bool
    arrived: int
    tables: int

    @property
    def key(self) -> EntrantKey:
        return (self.bot, self.version)


@dataclass(frozen=True, slots=True)
class Ratings:
    """A rating fit as a Gaussian: ``elo[i]`` the rating of ``keys[i]``, ``covariance`` (Elo points
    squared) of the ratings. Entrants it does not hold are taken at the prior (see :class:`Policy`)."""

    keys: tuple[EntrantKey, ...]
    elo: FloatArray
    covariance: FloatArray

    def __post_init__(self) -> None:
        n = len(self.keys)
        if len(set(self.keys)) != n:
            raise MatchmakingError("the ratings name an entrant twice")
        if self.elo.shape != (n,) or self.covariance.shape != (n, n):
            raise MatchmakingError(
                f"the ratings hold {n} entrants but {self.elo.shape} ratings and a "
                f"{self.covariance.shape} covariance"
            )
        if not (np.isfinite(self.elo).all() and np.isfinite(self.covariance).all()):
            raise MatchmakingError("the ratings or their covariance are not finite")
        if not np.allclose(self.covariance, self.covariance.T, rtol=1e-6, atol=1e-6):
            raise MatchmakingError("the rating covariance is not symmetric")
        if (np.diag(self.covariance) < 0).any():
            raise MatchmakingError("a rating has a negative variance")

    @classmethod
    def from_errors(
        cls, keys: Sequence[EntrantKey], elo: Sequence[float], errors: Sequence[float]
    ) -> Ratings:
        """Ratings with standard errors (Elo points) and no covariance between them."""
        return cls(tuple(keys), np.array(elo, dtype=np.float64),
                   np.diag(np.square(np.array(errors, dtype=np.float64))))

    @classmethod
    def none(cls) -> Ratings:
        """No fit yet: every entrant at the prior."""
        return cls((), np.zeros(0), np.zeros((0, 0)))


@dataclass(frozen=True, slots=True)
class League:
    """What the matchmaker reads: the entrants, the fit, the table size, the tables the league has
    played so far, and its latest tables (oldest first), at least the last :func:`period` of them
    (an entrant absent from them is taken to have last played before them, or at its arrival)."""

    entrants: tuple[Entrant, ...]
    ratings: Ratings
    table_size: int
    played: int
    recent: tuple[tuple[EntrantKey, ...], ...] = ()
    #: Tables decided but not played whole yet (counted in ``played`` and ``recent`` like the
    #: others, but their games are not in ``ratings``): their expected information is applied
    #: before choosing, so the next table is not chosen as if they were not coming.
    pending: tuple[tuple[EntrantKey, ...], ...] = ()


@dataclass(frozen=True, slots=True)
class Policy:
    """The matchmaker's settings.

    ``placement_games``: games an entrant plays at once when it arrives (``placement_tables``
    tables). ``period_rounds``: the longest wait, in rounds of the active field (a round seats
    everyone once). ``top``: ranks whose order matters. Weights of the uncertainty: ``top_weight``
    on each ambiguous top pair, ``new_weight`` on the variance of an entrant in placement,
    ``base_weight`` on everyone's; a pair ``z`` standard errors apart weighs ``2Φ(−|z|/sure_z)``.
    ``prior_sd``: Elo points of doubt about an entrant the fit does not hold yet (whose rating is
    taken from its latest rated earlier version, else the field's mean). ``repeat_window``: tables
    within which the same table is not played again.
    """

    placement_games: int = 32
    period_rounds: float = 5.0
    top: int = 5
    top_weight: float = 1.0
    new_weight: float = 1.0
    base_weight: float = 0.01
    sure_z: float = 3.0
    prior_sd: float = 200.0
    repeat_window: int = 3


class Reason(str, enum.Enum):
    """Why a table was chosen."""

    DUE = "due"
    """An entrant had waited its longest."""
    PLACEMENT = "placement"
    """An entrant was still playing its first tables."""
    INFORMATION = "information"
    """It was the table expected to shrink the uncertainty that matters most."""


@dataclass(frozen=True, slots=True)
class Table:
    """A chosen table: its entrants (sorted; the runner plays the deal in every rotation), why,
    and its expected gain (the share of the weighted uncertainty it takes off, summed over the
    quantities that matter: see the module text)."""

    seats: tuple[EntrantKey, ...]
    reason: Reason
    gain: float


def placement_tables(table_size: int, policy: Policy = Policy()) -> int:
    """Tables an entrant plays at once when it arrives: ``placement_games`` over the rotations."""
    return max(1, math.ceil(policy.placement_games / table_size))


def period(active: int, table_size: int, policy: Policy = Policy()) -> int:
    """The longest an active entrant waits between tables (K): ``period_rounds`` rounds."""
    return max(1, math.ceil(policy.period_rounds * active / table_size))


def next_table(league: League, rng: random.Random, policy: Policy = Policy()) -> Table | None:
    """The next table, or ``None`` while fewer entrants are active than a table seats."""
    tables = next_tables(league, 1, rng, policy)
    return tables[0] if tables else None


def next_tables(
    league: League, count: int, rng: random.Random, policy: Policy = Policy()
) -> list[Table]:
    """The next ``count`` tables, each chosen as if those before it had been played (their expected
    information applied, the quota counts moved on); none while fewer entrants are active than a
    table seats. Raises :class:`MatchmakingError` for a state that makes no sense."""
    _check(league, count)
    active = [e for e in league.entrants if e.active]
    if len(active) < league.table_size:
        return []
    state = _State(league, active, policy)
    chosen: list[Table] = []
    for _ in range(count):
        table = state.choose(rng)
        state.record(table)
        chosen.append(Table(tuple(sorted(state.keys[i] for i in table.seats)), table.reason,
                            table.gain))
    return chosen


def _check(league: League, count: int) -> None:
    if not 2 <= league.table_size <= MAX_TABLE_SIZE:
        raise MatchmakingError(
            f"a table seats 2 to {MAX_TABLE_SIZE} entrants, not {league.table_size}"
        )
    if count < 0:
        raise MatchmakingError(f"cannot choose {count} tables")
    keys = [e.key for e in league.entrants]
    if len(set(keys)) != len(keys):
        raise MatchmakingError("the league names an entrant (bot and version) twice")
    for e in league.entrants:
        if e.tables < 0 or not 0 <= e.arrived <= league.played:
            raise MatchmakingError(
                f"{e.bot} v{e.version}: {e.tables} tables played, arrived at table {e.arrived} "
                f"of {league.played}"
            )


@dataclass(frozen=True, slots=True)
class _Choice:
    seats: tuple[int, ...]
    reason: Reason
    gain: float


class _State:
    """The active entrants (by index) as the matchmaker tracks them through a batch: strengths and
    their covariance in θ units, tables played, tables waited, and the latest tables."""

    def __init__(self, league: League, active: list[Entrant], policy: Policy) -> None:
        self.policy = policy
        self.size = league.table_size
        self.keys = [e.key for e in active]
        self.index = {key: i for i, key in enumerate(self.keys)}
        self.mean, self.cov = _prior(league.ratings, active, policy)
        self.tables = np.array([e.tables for e in active], dtype=np.int64)
        self.arrived = np.array([e.arrived for e in active], dtype=np.int64)
        self.played = league.played
        self.recent = [frozenset(t) for t in league.recent]
        last = np.maximum(self.arrived, league.played - len(league.recent))
        for number, table in enumerate(league.recent):
            for key in table:
                if key in self.index:
                    last[self.index[key]] = league.played - len(league.recent) + number + 1
        self.last = last  # the league's table count after each entrant's last table (or arrival)
        for table in league.pending:
            if len(table) == self.size and all(key in self.index for key in table):
                self._inform(np.array([self.index[key] for key in table], dtype=np.intp))

    def choose(self, rng: random.Random) -> _Choice:
        n, k = len(self.keys), self.size
        order = list(range(n))
        rng.shuffle(order)
        rank = np.empty(n, dtype=np.int64)  # each entrant's place in the tie-break order
        rank[order] = np.arange(n)
        waited = self.played - self.last
        due = waited >= max(1, period(n, k, self.policy) - math.ceil(n / k))
        placing = self.tables < placement_tables(k, self.policy)
        relevance = _relevance(self.cov, self._weights(placing))
        if due.any():
            focus = min(np.flatnonzero(due), key=lambda i: (-waited[i], rank[i]))
            return self._fill([int(focus)], relevance, rank, due, Reason.DUE)
        if placing.any():
            focus = min(np.flatnonzero(placing),
                        key=lambda i: (self.tables[i], self.arrived[i], rank[i]))
            return self._fill([int(focus)], relevance, rank, None, Reason.PLACEMENT)
        pairs = np.stack(np.triu_indices(n, 1), axis=1)
        gains = np.where(self._fresh(pairs), _gains(self.mean, self.cov, relevance, pairs, k),
                         -np.inf)
        best = _best(gains, rank[pairs[:, 0]] * n + rank[pairs[:, 1]])
        return self._fill([int(v) for v in pairs[best]], relevance, rank, None,
                          Reason.INFORMATION)

    def _fill(
        self,
        seats: list[int],
        relevance: FloatArray,
        rank: IndexArray,
        preferred: NDArray[np.bool_] | None,
        reason: Reason,
    ) -> _Choice:
        """Add, a seat at a time, the entrant whose table gains most (the ``preferred`` ones while
        any is left; at the last seat, none that repeats a recent table while another can sit)."""
        n, k = len(self.keys), self.size
        while len(seats) < k:
            free = np.ones(n, dtype=bool)
            free[seats] = False
            if preferred is not None and (preferred & free).any():
                free &= preferred
            candidates = np.flatnonzero(free)
            tables = np.array([[*seats, int(c)] for c in candidates], dtype=np.intp)
            gains = _gains(self.mean, self.cov, relevance, tables, k)
            if len(seats) == k - 1:
                gains = np.where(self._fresh(tables), gains, -np.inf)
            seats.append(int(candidates[_best(gains, rank[candidates])]))
        table = np.array([seats], dtype=np.intp)
        return _Choice(tuple(seats), reason,
                       float(_gains(self.mean, self.cov, relevance, table, k)[0]))

    def _fresh(self, tables: IndexArray) -> NDArray[np.bool_]:
        """Which full tables (rows of entrant indices) were not played within the last
        ``repeat_window`` tables; every one if none is fresh."""
        window = set(self.recent[-self.policy.repeat_window:]) if self.policy.repeat_window else set()
        if len(tables[0]) < self.size or not window:
            return np.ones(len(tables), dtype=bool)
        fresh = np.array([frozenset(self.keys[i] for i in row) not in window for row in tables])
        return fresh if fresh.any() else ~fresh

    def record(self, table: _Choice) -> None:
        """Move the state on as if ``table`` had been played: its expected information applied."""
        seats = np.array(table.seats, dtype=np.intp)
        self.played += 1
        self.tables[seats] += 1
        self.last[seats] = self.played
        self.recent.append(frozenset(self.keys[i] for i in seats))
        self._inform(seats)

    def _inform(self, seats: IndexArray) -> None:
        """Apply the expected information of a table of ``seats`` to the covariance."""
        shrink = _shrinkage(self.mean[seats][None, :], self.cov[np.ix_(seats, seats)][None],
                            self.size)[0]
        cross = self.cov[:, seats]
        self.cov = self.cov - cross @ shrink @ cross.T
        self.cov = (self.cov + self.cov.T) / 2

    def _weights(self, placing: NDArray[np.bool_]) -> FloatArray:
        """W of the uncertainty ``trace(W Σ)``. Each variance that matters enters divided by its
        present value, so a table's gain is a sum of relative reductions (twice the information
        it gives, in nats, about each quantity): each top pair's difference (adjacent among the
        ``top`` best, and the ``top``-th against everyone below), weighted by how ambiguous it
        is; the variance of each entrant in placement; a little of every entrant's variance."""
        policy = self.policy
        n = len(self.keys)
        variance = np.maximum(np.diag(self.cov), _SMALLEST_VARIANCE)
        weights = np.diag((policy.base_weight + policy.new_weight * placing) / variance)
        order = sorted(range(n), key=lambda i: (-self.mean[i], self.keys[i]))
        cut = min(policy.top, n) - 1
        pairs = [(order[r], order[r + 1]) for r in range(cut)]
        pairs += [(order[cut], j) for j in order[cut + 1 :]] if cut >= 0 else []
        for a, b in pairs:
            spread = max(self.cov[a, a] + self.cov[b, b] - 2 * self.cov[a, b], _SMALLEST_VARIANCE)
            z = abs(self.mean[a] - self.mean[b]) / math.sqrt(spread)
            w = policy.top_weight * math.erfc(z / policy.sure_z / math.sqrt(2.0)) / spread
            weights[a, a] += w
            weights[b, b] += w
            weights[a, b] -= w
            weights[b, a] -= w
        return weights


#: Variances (θ²) below this count as this: an entrant the fit pins exactly would weigh without end.
_SMALLEST_VARIANCE = 1e-8


def _prior(ratings: Ratings, active: list[Entrant], policy: Policy) -> tuple[FloatArray, FloatArray]:
    """Strengths (θ) and covariance of the active entrants: the fit's where it holds them, else
    the prior (the latest rated earlier version's rating, else the mean of the rated ones)."""
    held = {key: i for i, key in enumerate(ratings.keys)}
    rated = [held[e.key] for e in active if e.key in held]
    fallback = float(ratings.elo[rated].mean()) if rated else ELO_MEAN
    n = len(active)
    elo = np.empty(n)
    cov = np.zeros((n, n))
    mine = np.array([e.key in held for e in active])
    where = np.flatnonzero(mine)
    cov[np.ix_(where, where)] = ratings.covariance[np.ix_(rated, rated)]
    elo[where] = ratings.elo[rated]
    for i in np.flatnonzero(~mine):
        e = active[int(i)]
        earlier = [key for key in held if key[0] == e.bot and key[1] < e.version]
        elo[i] = ratings.elo[held[max(earlier)]] if earlier else fallback
        cov[i, i] = policy.prior_sd**2
    return (elo - ELO_MEAN) / ELO_PER_THETA, cov / ELO_PER_THETA**2


def _relevance(cov: FloatArray, weights: FloatArray) -> FloatArray:
    """``Σ W Σ``: a table S that adds information ``J`` takes ``trace(M (ΣWΣ)_SS)`` off
    ``trace(WΣ)``, with ``M = J (I + Σ_SS J)⁻¹`` (the Woodbury form of the posterior update)."""
    relevance: FloatArray = cov @ weights @ cov
    return relevance


def _gains(
    mean: FloatArray, cov: FloatArray, relevance: FloatArray, tables: IndexArray, size: int
) -> FloatArray:
    """(tables,): the weighted variance each table (rows of entrant indices) is expected to take
    off when played as a duplicate block of ``size`` rotations."""
    sigma = cov[tables[:, :, None], tables[:, None, :]]
    shrink = _shrinkage(mean[tables], sigma, size)
    gains: FloatArray = np.einsum("bij,bji->b", shrink,
                                  relevance[tables[:, :, None], tables[:, None, :]])
    return gains


def _shrinkage(strengths: FloatArray, sigma: FloatArray, rotations: int) -> FloatArray:
    """(tables, m, m): ``M = J (I + Σ_SS J)⁻¹`` for tables of strengths (tables, m) and their
    covariance, ``J`` the expected information of ``rotations`` Plackett-Luce games."""
    info = rotations * expected_information(strengths)
    eye = np.eye(strengths.shape[1])
    # M = J X⁻¹ with X = I + ΣJ, so Mᵀ = X⁻ᵀ J (J is symmetric).
    shrink_t = np.linalg.solve(np.swapaxes(eye + sigma @ info, 1, 2), info)
    shrink: FloatArray = np.swapaxes(shrink_t, 1, 2)
    return shrink


def expected_information(strengths: FloatArray) -> FloatArray:
    """(tables, m, m): the expected Fisher information about the strengths (θ, rows of ``m``) of one
    Plackett-Luce game at each table. Each stage picks the next finisher from those left, ``R``,
    with probabilities ``p = softmax(θ_R)`` and contributes ``diag(p) − p pᵀ`` on ``R``; the sum runs
    over every set ``R`` weighted by the chance that exactly ``R`` is left (2^m sets)."""
    tables, m = strengths.shape
    weights = np.exp(strengths - strengths.max(axis=1, keepdims=True))
    reach = np.zeros((1 << m, tables))
    reach[-1] = 1.0
    info = np.zeros((tables, m, m))
    for left, members, children in _stages(m):
        chance = reach[left]
        p = weights[:, members]
        p /= p.sum(axis=1, keepdims=True)
        stage = -p[:, :, None] * p[:, None, :]
        diagonal = np.arange(len(members))
        stage[:, diagonal, diagonal] += p
        info[:, members[:, None], members[None, :]] += chance[:, None, None] * stage
        reach[children] += chance * p.T
    return info


@functools.cache
def _stages(m: int) -> tuple[tuple[int, IndexArray, IndexArray], ...]:
    """Every set of two or more of ``m`` seats (a bit mask), supersets first (a superset is a
    larger number), with its members and the set left when each member finishes."""
    stages = []
    for left in range((1 << m) - 1, 0, -1):
        members = [i for i in range(m) if left >> i & 1]
        if len(members) >= 2:
            stages.append((left, np.array(members, dtype=np.intp),
                           np.array([left & ~(1 << i) for i in members], dtype=np.intp)))
    return tuple(stages)


def _best(gains: FloatArray, tie_order: IndexArray) -> int:
    """The index of the largest gain; among gains equal to within rounding, the first in
    ``tie_order``."""
    top = float(gains.max())
    close = np.flatnonzero(gains >= top - 1e-12 * max(1.0, abs(top)))
    return int(close[np.argmin(tie_order[close])])
