"""Pairwise Elo known answers: the comparisons a table yields, and fits whose maximum is known in
closed form (or by a one-dimensional root), with and without seat terms and a prior."""

from __future__ import annotations

import math
import warnings
import numpy as np
from scipy.optimize import brentq, fsolve

from leaderboards.pairwise import comparisons, fit_pairwise
from leaderboards.stats import TableResults


def table(players: int, games: list[tuple[str, list[int], list[int]]]) -> TableResults:
    return TableResults(
        players,
        np.array([g for g, _, _ in games]),
        np.array([b for _, b, _ in games], dtype=np.intp),
        np.array([r for _, _, r in games], dtype=np.int64),
    )


def rows(tables: list[TableResults], base: dict[tuple[str, int], int]) -> dict[tuple[int, ...], float]:
    data = comparisons(tables, base)
    assert [column.dtype for column in (data.first, data.second, data.first_seat, data.second_seat)] == [
        np.dtype(np.intp)] * 4
    assert data.points.dtype == np.float64
    return {
        (int(a), int(b), int(sa), int(sb)): float(p)
        for a, b, sa, sb, p in zip(data.first, data.second, data.first_seat, data.second_seat, data.points)
    }


def test_comparisons_count_every_seat_pair_of_different_bots() -> None:
    three = table(3, [
        ("wongar", [0, 1, 2], [1, 2, 2]),
        ("wongar", [2, 0, 0], [3, 1, 2]),
        ("other", [1, 0, 2], [2, 2, 1]),
    ])
    two = table(2, [("wongar", [1, 0], [1, 2])])
    got = rows([three, two], {("wongar", 3): 4, ("wongar", 2): 1})
    assert got == {
        # game 0, seat terms 4, 5, 6
        (0, 1, 4, 5): 1.0, (1, 0, 5, 4): 0.0, (0, 2, 4, 6): 1.0, (2, 0, 6, 4): 0.0,
        (1, 2, 5, 6): 0.5, (2, 1, 6, 5): 0.5,
        # game 1: bot 0 in seats 1 and 2 never meets itself
        (2, 0, 4, 5): 0.0, (0, 2, 5, 4): 1.0, (2, 0, 4, 6): 0.0, (0, 2, 6, 4): 1.0,
        # game 2: a kind of table without seat terms
        (1, 0, -1, -1): 0.5, (0, 1, -1, -1): 0.5, (1, 2, -1, -1): 0.0, (2, 1, -1, -1): 1.0,
        (0, 2, -1, -1): 0.0, (2, 0, -1, -1): 1.0,
        # the two-seat table, seat terms 1, 2
        (1, 0, 1, 2): 1.0, (0, 1, 2, 1): 0.0,
    }


def test_comparisons_add_up_repeated_pairs_and_keep_zero_rows() -> None:
    games = [("wongar", [0, 1], [1, 2])] * 3 + [("wongar", [0, 1], [2, 1]), ("wongar", [0, 1], [1, 1])]
    assert rows([table(2, games)], {}) == {(0, 1, -1, -1): 3.5, (1, 0, -1, -1): 1.5}
    assert rows([table(2, [("wongar", [0, 0], [1, 2])])], {}) == {}
    empty = comparisons([], {})
    assert empty.first.shape == empty.points.shape == (0,)
    assert empty.first.dtype == np.intp and empty.points.dtype == np.float64


def two_bots(wins: int, losses: int, ties: int = 0) -> TableResults:
    return table(2, [("wongar", [0, 1], [1, 2])] * wins + [("wongar", [0, 1], [2, 1])] * losses
                 + [("wongar", [0, 1], [1, 1])] * ties)


def test_two_bots_rate_the_log_odds_of_their_points() -> None:
    fit = fit_pairwise(comparisons([two_bots(3, 1)], {}), 2, 0, np.array([0, 0]))
    assert fit.converged
    assert np.allclose(fit.theta, [math.log(3) / 2, -math.log(3) / 2], atol=1e-7)
    tied = fit_pairwise(comparisons([two_bots(2, 1, 1)], {}), 2, 0, np.array([0, 0]))
    assert np.allclose(tied.theta, [math.log(2.5 / 1.5) / 2, -math.log(2.5 / 1.5) / 2], atol=1e-7)


def test_the_fit_warns_of_nothing() -> None:
    # scipy warns when the method it is left with cannot use the curvature the fit supplies.
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        fit = fit_pairwise(comparisons([two_bots(3, 1)], {}), 2, 0, np.array([0, 0]), prior_sd=0.5)
    assert fit.converged


def test_the_prior_shrinks_by_its_precision() -> None:
    sd = 0.5
    fit = fit_pairwise(comparisons([two_bots(6, 2)], {}), 2, 0, np.array([0, 0]), prior_sd=sd)
    # θ0 = −θ1 = x: 6(1 − σ(2x)) − 2σ(2x) − x / sd² = 0.
    x = brentq(lambda x: 6 - 8 / (1 + math.exp(-2 * x)) - x / sd**2, 0.0, 5.0)
    assert fit.converged
    assert np.allclose(fit.theta, [x, -x], atol=1e-7)
    assert 0.2 < x < math.log(3) / 2


def test_seat_terms_take_out_the_seat_advantage() -> None:
    # Bot 0 wins 3 of 4 from seat 0 and 1 of 2 from seat 1: θ0 − θ1 ± (s0 − s1) = log 3 and 0.
    games = [("wongar", [0, 1], [1, 2])] * 3 + [("wongar", [0, 1], [2, 1])]
    games += [("wongar", [1, 0], [1, 2]), ("wongar", [1, 0], [2, 1])]
    data = comparisons([table(2, games)], {("wongar", 2): 0})
    fit = fit_pairwise(data, 2, 2, np.array([0, 0]))
    assert fit.converged
    assert np.allclose(fit.theta, [math.log(3) / 4, -math.log(3) / 4], atol=1e-6)
    plain = fit_pairwise(comparisons([table(2, games)], {}), 2, 0, np.array([0, 0]))
    assert np.allclose(plain.theta, [math.log(2) / 2, -math.log(2) / 2], atol=1e-7)


def test_each_component_is_centred_on_its_own() -> None:
    first = [("wongar", [0, 1], [1, 2])] * 3 + [("wongar", [0, 1], [2, 1])]
    second = [("wongar", [2, 3], [1, 2])] + [("wongar", [3, 4], [1, 2])] * 2 + [("wongar", [3, 4], [2, 1])]
    data = comparisons([table(2, first + second)], {})
    fit = fit_pairwise(data, 5, 0, np.array([0, 0, 1, 1, 1]), prior_sd=2.0)
    assert fit.converged
    assert abs(fit.theta[0] + fit.theta[1]) < 1e-9
    assert abs(fit.theta[2] + fit.theta[3] + fit.theta[4]) < 1e-9
    assert fit.theta[2] > fit.theta[3] > fit.theta[4]


def test_seat_terms_share_the_prior() -> None:
    # As above with prior precision p: θ0 = −θ1 = t, s0 = −s1 = u, x1 = 2t + 2u, x2 = 2t − 2u;
    # 2(3 − 4σ(x1)) ± 2(1 − 2σ(x2)) = 2p·(t, u).
    games = [("wongar", [0, 1], [1, 2])] * 3 + [("wongar", [0, 1], [2, 1])]
    games += [("wongar", [1, 0], [1, 2]), ("wongar", [1, 0], [2, 1])]
    p = 1 / 0.7**2

    def sigma(x: float) -> float:
        return 1 / (1 + math.exp(-x))

    def equations(v: list[float]) -> list[float]:
        t, u = v
        first, second = 3 - 4 * sigma(2 * t + 2 * u), 1 - 2 * sigma(2 * t - 2 * u)
        return [2 * first + 2 * second - 2 * p * t, 2 * first - 2 * second - 2 * p * u]

    t, u = fsolve(equations, [0.1, 0.1], xtol=1e-13)
    fit = fit_pairwise(comparisons([table(2, games)], {("wongar", 2): 0}), 2, 2, np.array([0, 0]),
                       prior_sd=0.7)
    assert fit.converged and u > 0.05
    assert np.allclose(fit.theta, [t, -t], atol=1e-7)


def test_a_bot_without_comparisons_rates_zero() -> None:
    data = comparisons([two_bots(3, 1)], {})
    fit = fit_pairwise(data, 3, 1, np.array([0, 0, 1]))
    assert fit.converged
    assert np.allclose(fit.theta, [math.log(3) / 2, -math.log(3) / 2, 0.0], atol=1e-7)


def test_a_strong_prior_still_converges_to_its_maximum() -> None:
    sd = 0.05
    fit = fit_pairwise(comparisons([two_bots(60, 20)], {}), 2, 0, np.array([0, 0]), prior_sd=sd)
    x = brentq(lambda x: 60 - 80 / (1 + math.exp(-2 * x)) - x / sd**2, 0.0, 5.0)
    assert fit.converged
    assert np.allclose(fit.theta, [x, -x], atol=1e-9)
