"""Maximum-likelihood Plackett–Luce strengths from finishing orders, with ties and seat terms.

Each game is a finishing order of its seats. Under Plackett–Luce the order ``π`` (best first) has
probability ``∏_j exp(s_πj) / Σ_{l≥j} exp(s_πl)``, where a seat's strength ``s`` is its item's strength
``θ`` (natural-log units) plus the seat term of its seat at that kind of table. A game with tied places
scores the mean log-likelihood over the strict orders consistent with its tied groups (a two-player
draw is exactly half a win and half a loss). Every game is weighted (the bootstrap reweights).

Games are grouped by table size and tie pattern, so one pass is a handful of numpy operations per
pattern; the gradient and Hessian are analytic and the fit takes Newton trust-region steps. An
optional Gaussian prior ``N(0, τ²)`` on every parameter keeps an item that won or lost everything
finite.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import NDArray

from leaderboards.errors import LeaderboardError
from leaderboards.newton import minimise

if TYPE_CHECKING:
    from scipy.sparse import csr_matrix

FloatArray = NDArray[np.float64]
IndexArray = NDArray[np.intp]


@dataclass(frozen=True, slots=True)
class Finish:
    """One game as the fit sees it.

    ``items[s]`` is the item (bot index) in seat ``s``; ``ranks[s]`` its place (1 best, ties share a
    place); ``seat_group`` names the kind of table whose seat terms apply (``-1``: no seat terms).
    """

    items: tuple[int, ...]
    ranks: tuple[int, ...]
    seat_group: int = -1


@dataclass(frozen=True, slots=True)
class _Pattern:
    """Games with the same table size and tie pattern, columns in finishing position order."""

    items: IndexArray
    """(positions, games): the item at each finishing position (tied seats in seat order)."""
    seat_params: IndexArray
    """(positions, games): the seat-term parameter of each position (``n_params``: the constant 0)."""
    game_index: IndexArray
    """(games,): each row's index in the list of finishes."""
    orders: IndexArray
    """(orders, positions): the row permutations giving every strict order consistent with the ties."""


@dataclass(frozen=True, slots=True)
class PlackettLuceFit:
    """A fitted model in θ units.

    ``theta[i]`` is item ``i``'s strength, centred to mean 0 within each connected component;
    ``seat_terms[g]`` the seat terms of seat group ``g`` in seat order, centred to mean 0 (a positive
    term is an advantage over the average seat at that table).
    """

    theta: FloatArray
    seat_terms: tuple[FloatArray, ...]
    log_likelihood: float
    iterations: int
    converged: bool


class PlackettLuceModel:
    """Compiled finishes: the weighted log-likelihood, its gradient, and the fit.

    ``components[i]`` labels the connected component of item ``i`` (items linked through shared games);
    strengths are only comparable, and are centred, within a component.
    """

    def __init__(
        self,
        n_items: int,
        finishes: Sequence[Finish],
        seat_group_sizes: Sequence[int] = (),
    ) -> None:
        """``seat_group_sizes[g]`` is the table size of seat group ``g``; groups give seat terms."""
        if not finishes:
            raise LeaderboardError("no games to rate")
        self.n_items = n_items
        self.n_games = len(finishes)
        offsets = np.cumsum([0, *(size - 1 for size in seat_group_sizes)]).astype(np.intp)
        self._seat_offsets = offsets
        self._seat_group_sizes = tuple(seat_group_sizes)
        self.n_seat_params = int(offsets[-1])
        self._patterns = _compile(finishes, n_items, offsets)
        self.components = _components(n_items, finishes)

    @property
    def n_params(self) -> int:
        """Item strengths followed by the free seat terms (seat 0 of each group is the reference)."""
        return self.n_items + self.n_seat_params

    def log_likelihood(
        self, params: FloatArray, weights: FloatArray, hessian: bool = False
    ) -> tuple[float, FloatArray, FloatArray | None]:
        """The weighted log-likelihood at ``params``, its gradient, and (if asked) its Hessian.

        Gradient and Hessian use the layout of ``params``.
        """
        size = self.n_params + 1  # the last slot is the constant-zero seat term of seat 0
        padded = np.append(params, 0.0)
        total = 0.0
        grad = np.zeros(size)
        hess = np.zeros(size * size) if hessian else None
        for pattern in self._patterns:
            w = weights[pattern.game_index]
            strengths = np.take(padded, pattern.items) + np.take(padded, pattern.seat_params)
            terms = _order_terms(strengths, pattern.orders, hessian)
            total += float(terms.log_likelihood @ w)
            weighted = (terms.gradient * w).ravel()
            grad += np.bincount(pattern.items.ravel(), weighted, size)
            grad += np.bincount(pattern.seat_params.ravel(), weighted, size)
            if hess is not None and terms.hessian is not None:
                h = (terms.hessian * w).ravel()
                for rows in (pattern.items, pattern.seat_params):
                    for cols in (pattern.items, pattern.seat_params):
                        pairs = rows[:, None, :] * size + cols[None, :, :]
                        hess += np.bincount(pairs.ravel(), h, size * size)
        full_hessian = None if hess is None else hess.reshape(size, size)[:-1, :-1]
        return total, grad[:-1], full_hessian

    def gradient_by_group(self, params: FloatArray, groups: IndexArray, n_groups: int) -> FloatArray:
        """(n_groups, n_params): the log-likelihood gradient at ``params`` summed over the games of
        each group (``groups[g]`` is game ``g``'s group), every game weighted 1.

        A reweighting by group is then a matrix product: ``counts @ result`` is the gradient with
        every game of group ``b`` weighted ``counts[b]``.
        """
        size = self.n_params + 1
        padded = np.append(params, 0.0)
        total = np.zeros(n_groups * size)
        for pattern in self._patterns:
            strengths = np.take(padded, pattern.items) + np.take(padded, pattern.seat_params)
            grad = _order_terms(strengths, pattern.orders, hessian=False).gradient.ravel()
            base = (groups[pattern.game_index] * size)[None, :]
            for columns in (pattern.items, pattern.seat_params):
                total += np.bincount((base + columns).ravel(), grad, n_groups * size)
        by_group: FloatArray = total.reshape(n_groups, size)[:, :-1]
        return by_group

    def hessian_by_group(self, params: FloatArray, groups: IndexArray, n_groups: int) -> csr_matrix:
        """(n_groups, n_params²), sparse: the log-likelihood Hessian at ``params`` summed over the
        games of each group and flattened row by row, every game weighted 1 (like
        :meth:`gradient_by_group`): ``(counts @ result).reshape(n_params, n_params)`` is the Hessian
        with every game of group ``b`` weighted ``counts[b]``."""
        from scipy.sparse import csr_matrix  # scipy loads with the first fit, not with the command line

        n = self.n_params
        padded = np.append(params, 0.0)
        group_rows: list[IndexArray] = []
        columns: list[IndexArray] = []
        values: list[FloatArray] = []
        for pattern in self._patterns:
            strengths = np.take(padded, pattern.items) + np.take(padded, pattern.seat_params)
            hessian = _order_terms(strengths, pattern.orders, hessian=True).hessian
            assert hessian is not None
            group = np.broadcast_to(groups[pattern.game_index], hessian.shape)
            for rows in (pattern.items, pattern.seat_params):
                for cols in (pattern.items, pattern.seat_params):
                    row, col = rows[:, None, :], cols[None, :, :]
                    free = (row < n) & (col < n)  # not the constant seat term of seat 0
                    group_rows.append(group[free])
                    columns.append(np.broadcast_to(row * n + col, hessian.shape)[free])
                    values.append(hessian[free])
        return csr_matrix(
            (np.concatenate(values), (np.concatenate(group_rows), np.concatenate(columns))),
            shape=(n_groups, n * n),
        )

    def fit(
        self,
        weights: FloatArray | None = None,
        prior_sd: float | None = None,
        start: FloatArray | None = None,
        tolerance: float = 1e-8,
        max_iterations: int = 100,
    ) -> PlackettLuceFit:
        """Maximise the (weighted, optionally penalised) log-likelihood by Newton trust-region steps.

        ``prior_sd`` is the standard deviation of the Gaussian prior on every parameter in θ units
        (``None``: plain maximum likelihood, which is infinite for an item that won or lost
        everything). ``start`` is a warm start in the raw parameter layout (see :meth:`raw_params`).
        ``tolerance`` bounds the gradient norm of the per-game mean objective; ``max_iterations``
        bounds the Newton steps (a warm-started bootstrap replicate may take only a few).
        """
        w = np.ones(self.n_games) if weights is None else np.asarray(weights, dtype=np.float64)
        scale = max(float(w.sum()), 1.0)
        precision = 0.0 if prior_sd is None else 1.0 / prior_sd**2
        identity = np.eye(self.n_params)
        cache: dict[bytes, tuple[float, FloatArray, FloatArray | None]] = {}

        def evaluate(x: FloatArray) -> tuple[float, FloatArray, FloatArray | None]:
            key = x.tobytes()
            if key not in cache:
                cache.clear()
                cache[key] = self.log_likelihood(x, w, hessian=True)
            return cache[key]

        def value(x: FloatArray) -> float:
            return -(evaluate(x)[0] - 0.5 * precision * float(x @ x)) / scale

        def gradient(x: FloatArray) -> FloatArray:
            grad: FloatArray = -(evaluate(x)[1] - precision * x) / scale
            return grad

        def curvature(x: FloatArray) -> FloatArray:
            hess = evaluate(x)[2]
            assert hess is not None
            result: FloatArray = -(hess - precision * identity) / scale
            return result

        x0 = np.zeros(self.n_params) if start is None else np.asarray(start, dtype=np.float64)
        found = minimise(value, gradient, curvature, x0, tolerance, max_iterations)
        return PlackettLuceFit(
            theta=self._centred_items(found.x[: self.n_items]),
            seat_terms=self._centred_seats(found.x[self.n_items :]),
            log_likelihood=self.log_likelihood(found.x, w)[0],
            iterations=found.iterations,
            converged=found.converged,
        )

    def refit(
        self,
        weights: FloatArray,
        prior_sd: float | None,
        start: FloatArray,
        step_matrix: FloatArray,
        tolerance: float = 1e-5,
        max_steps: int = 30,
    ) -> PlackettLuceFit:
        """Re-fit for new ``weights`` from a nearby solution ``start`` (raw layout) by chord steps.

        Each step is a Newton step with the fixed ``step_matrix``: the inverse of the negated
        curvature (prior included) at or near ``start`` under these weights, e.g. from
        :meth:`hessian_by_group`. One gradient per step, converging fast when the optimum is near.
        Stops once no parameter moves more than ``tolerance`` (θ units); falls back to :meth:`fit`
        if that does not happen within ``max_steps``.
        """
        precision = 0.0 if prior_sd is None else 1.0 / prior_sd**2
        x = np.array(start, dtype=np.float64)
        for step_count in range(1, max_steps + 1):
            ll, grad, _ = self.log_likelihood(x, weights)
            residual = grad - precision * x
            step = step_matrix @ residual
            x += step
            if float(np.max(np.abs(step))) <= tolerance:
                return PlackettLuceFit(
                    theta=self._centred_items(x[: self.n_items]),
                    seat_terms=self._centred_seats(x[self.n_items :]),
                    log_likelihood=ll,
                    iterations=step_count,
                    converged=True,
                )
        return self.fit(weights, prior_sd, start=x)

    def raw_params(self, fit: PlackettLuceFit) -> FloatArray:
        """``fit`` in the raw parameter layout, for a warm start."""
        seats = [terms[1:] - terms[0] for terms in fit.seat_terms]
        return np.concatenate([fit.theta, *seats]) if seats else fit.theta.copy()

    def _centred_items(self, theta: FloatArray) -> FloatArray:
        sums = np.bincount(self.components, theta)
        counts = np.bincount(self.components)
        centred: FloatArray = theta - (sums / counts)[self.components]
        return centred

    def _centred_seats(self, free: FloatArray) -> tuple[FloatArray, ...]:
        terms: list[FloatArray] = []
        for group, size in enumerate(self._seat_group_sizes):
            start = int(self._seat_offsets[group])
            full = np.concatenate([[0.0], free[start : start + size - 1]])
            terms.append(full - full.mean())
        return tuple(terms)


@dataclass(frozen=True, slots=True)
class _Terms:
    """Per game: mean log-likelihood over the consistent orders, its gradient and Hessian by column."""

    log_likelihood: FloatArray
    """(games,)"""
    gradient: FloatArray
    """(positions, games)"""
    hessian: FloatArray | None
    """(positions, positions, games)"""


def _order_terms(strengths: FloatArray, orders: IndexArray, hessian: bool) -> _Terms:
    """The Plackett–Luce terms of ``strengths`` (positions, games), averaged over ``orders``.

    For one strict order with ``e = exp(s)`` and tails ``T_j = Σ_{l≥j} e_l``, the log-probability is
    ``Σ_j s_j − log T_j``; its gradient ``1 − e_a Σ_{j≤a} 1/T_j``; its Hessian
    ``e_a e_b Σ_{j≤min(a,b)} 1/T_j² − [a=b] e_a Σ_{j≤a} 1/T_j``.
    """
    positions, games = strengths.shape
    total = np.zeros(games)
    grad = np.zeros_like(strengths)
    hess = np.zeros((positions, positions, games)) if hessian else None
    earlier = np.minimum.outer(np.arange(positions), np.arange(positions))
    diagonal = np.arange(positions)
    strict = len(orders) == 1  # the identity order: no ties
    for order in orders:
        s = strengths if strict else strengths[order]
        shifted = s - s.max(axis=0)
        e = np.exp(shifted)
        tails = _running_sum(e, backwards=True)
        inverse = 1.0 / tails
        total += shifted.sum(axis=0) - np.log(tails).sum(axis=0)
        reach = _running_sum(inverse)
        if strict:
            grad = 1.0 - e * reach
        else:
            grad[order] += 1.0 - e * reach
        if hess is not None:
            reach2 = _running_sum(inverse * inverse)
            h = e[:, None, :] * e[None, :, :] * reach2[earlier]
            h[diagonal, diagonal] -= e * reach
            hess[np.ix_(order, order)] += h
    count = len(orders)
    return _Terms(total / count, grad / count, None if hess is None else hess / count)


def _running_sum(values: FloatArray, backwards: bool = False) -> FloatArray:
    """Cumulative sums down the rows of ``values`` (positions, games), from the last row up when
    ``backwards``: a row at a time, each a contiguous vector add (a cumulative sum along the short
    first axis of a wide array is many times slower in numpy)."""
    result = np.empty_like(values)
    rows = range(len(values) - 1, -1, -1) if backwards else range(len(values))
    running = np.zeros(values.shape[1:])
    for row in rows:
        running = running + values[row]
        result[row] = running
    return result


def _compile(
    finishes: Sequence[Finish], n_items: int, offsets: IndexArray
) -> list[_Pattern]:
    """Group games by table size and tie pattern; put rows in finishing order (ties by seat)."""
    zero_slot = n_items + int(offsets[-1])
    by_size: dict[int, list[int]] = {}
    for number, finish in enumerate(finishes):
        seats = len(finish.items)
        if seats < 2 or len(finish.ranks) != seats:
            raise LeaderboardError(f"game {number}: needs at least two seats, each with a place")
        by_size.setdefault(seats, []).append(number)
    patterns: list[_Pattern] = []
    for seats, numbers in sorted(by_size.items()):
        game_index = np.array(numbers, dtype=np.intp)
        items = np.array([finishes[g].items for g in numbers], dtype=np.intp)
        ranks = np.array([finishes[g].ranks for g in numbers], dtype=np.int64)
        groups = np.array([finishes[g].seat_group for g in numbers], dtype=np.intp)
        _check_rows(items, groups, game_index, n_items, offsets, seats)
        seat = np.arange(seats)
        by_place = np.argsort(ranks * seats + seat, axis=1, kind="stable")
        placed = np.take_along_axis(ranks, by_place, axis=1)
        base = n_items + offsets[np.maximum(groups, 0)] - 1
        seated = (groups[:, None] >= 0) & (by_place > 0)
        seat_params = np.where(seated, base[:, None] + by_place, zero_slot)
        breaks = placed[:, 1:] != placed[:, :-1]
        codes = breaks @ (1 << np.arange(seats - 1))
        for code in np.unique(codes):
            rows = codes == code
            patterns.append(
                _Pattern(
                    items=np.take_along_axis(items, by_place, axis=1)[rows].T.copy(),
                    seat_params=seat_params[rows].T.copy(),
                    game_index=game_index[rows],
                    orders=_consistent_orders(_tie_sizes(int(code), seats)),
                )
            )
    return patterns


def _check_rows(
    items: IndexArray,
    groups: IndexArray,
    game_index: IndexArray,
    n_items: int,
    offsets: IndexArray,
    seats: int,
) -> None:
    """Refuse items out of range and seat groups that do not exist or are for another table size."""
    bad_item = ((items < 0) | (items >= n_items)).any(axis=1)
    if bad_item.any():
        number = int(game_index[bad_item.argmax()])
        raise LeaderboardError(f"game {number}: an item outside 0..{n_items - 1}")
    missing = groups >= len(offsets) - 1
    if missing.any():
        number = int(game_index[missing.argmax()])
        raise LeaderboardError(f"game {number}: no seat group {int(groups[missing.argmax()])}")
    sizes = np.append(np.diff(offsets), -1)[np.maximum(groups, -1)] + 1  # no group: the sentinel
    wrong = (groups >= 0) & (sizes != seats)
    if wrong.any():
        number = int(game_index[wrong.argmax()])
        raise LeaderboardError(f"game {number}: its seat group is for another table size")


def _tie_sizes(code: int, seats: int) -> list[int]:
    """Sizes of the tied groups, in place order, from the bit mask of places that differ."""
    sizes = [1]
    for position in range(seats - 1):
        if code >> position & 1:
            sizes.append(1)
        else:
            sizes[-1] += 1
    return sizes


def _consistent_orders(sizes: Sequence[int]) -> IndexArray:
    """Every column permutation that reorders only within tied groups of these ``sizes``."""
    count = math.prod(math.factorial(n) for n in sizes)
    if count > 40_320:
        raise LeaderboardError(f"a tie among {max(sizes)} seats is too large to rate")
    starts = np.cumsum([0, *sizes])
    blocks = [
        list(itertools.permutations(range(int(a), int(b))))
        for a, b in zip(starts[:-1], starts[1:], strict=True)
    ]
    orders = [list(itertools.chain.from_iterable(parts)) for parts in itertools.product(*blocks)]
    return np.array(orders, dtype=np.intp)


def _components(n_items: int, finishes: Sequence[Finish]) -> IndexArray:
    """Connected-component label of every item (items are linked by sharing a game)."""
    from scipy.sparse import csr_matrix  # scipy loads with the first fit, not with the command line
    from scipy.sparse.csgraph import connected_components

    first = [finish.items[0] for finish in finishes for _ in finish.items[1:]]
    others = [item for finish in finishes for item in finish.items[1:]]
    links = csr_matrix(
        (np.ones(len(first)), (np.array(first, dtype=np.intp), np.array(others, dtype=np.intp))),
        shape=(n_items, n_items),
    )
    _, labels = connected_components(links, directed=False)
    return np.asarray(labels, dtype=np.intp)
