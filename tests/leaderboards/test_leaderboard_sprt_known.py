"""SPRT known answers: Wald's bounds at their edges, the settings' checks, one-valued and draw-only
blocks (where the pseudo-counts decide), batched rows and the one-line description."""

from __future__ import annotations

import math

import numpy as np
import pytest

from leaderboards.sprt import (
    PSEUDO_COUNT,
    SprtError,
    SprtResult,
    SprtSettings,
    elo_to_score,
    llr_batch,
    score_to_elo,
    sprt,
    verdict,
)

RULE = SprtSettings(elo0=0, elo1=10, alpha=0.05, beta=0.1)


def test_bounds_and_verdicts_at_their_edges() -> None:
    assert RULE.lower == math.log(0.1 / 0.95) and RULE.upper == math.log(0.9 / 0.05)
    assert verdict(RULE.upper, RULE) == "H1"
    assert verdict(math.nextafter(RULE.upper, 0), RULE) is None
    assert verdict(RULE.lower, RULE) == "H0"
    assert verdict(math.nextafter(RULE.lower, 0), RULE) is None
    assert RULE.to_plain() == {"elo0": 0, "elo1": 10, "alpha": 0.05, "beta": 0.1}


@pytest.mark.parametrize(
    ("values", "message"),
    [
        ({"elo0": math.inf}, "elo0 and elo1 must be finite"),
        ({"elo1": math.nan}, "elo0 and elo1 must be finite"),
        ({"elo0": 10.0, "elo1": 10.0}, "elo0 (10) must be below elo1 (10)"),
        ({"alpha": 0.5}, "alpha must be between 0 and 0.5, not 0.5"),
        ({"beta": 0.0}, "beta must be between 0 and 0.5, not 0"),
        ({"beta": -0.1}, "beta must be between 0 and 0.5, not -0.1"),
    ],
)
def test_settings_refused_with_their_reason(values: dict[str, float], message: str) -> None:
    with pytest.raises(SprtError) as error:
        SprtSettings(**values)
    assert str(error.value) == message


def test_settings_just_inside_the_limits_are_accepted() -> None:
    settings = SprtSettings(elo0=-1.0, elo1=-0.5, alpha=0.4999, beta=1e-9)
    assert settings.lower == math.log(1e-9 / (1 - 0.4999))


def test_elo_and_score_are_the_logistic_curve() -> None:
    assert elo_to_score(0.0) == 0.5
    assert math.isclose(elo_to_score(400.0), 10 / 11, rel_tol=1e-15)
    assert math.isclose(elo_to_score(-400.0), 1 / 11, rel_tol=1e-15)
    assert math.isclose(score_to_elo(10 / 11), 400.0, rel_tol=1e-12)
    assert math.isclose(score_to_elo(0.25), -400 * math.log10(3), rel_tol=1e-12)


def test_one_valued_blocks_give_the_bernoulli_llr() -> None:
    s0, s1 = 0.5, elo_to_score(10)
    wins = sprt("c", {1.0: 7}, RULE)
    assert math.isclose(wins.llr, 7 * math.log(s1 / s0), rel_tol=1e-9)
    assert wins.score == 1.0 and wins.elo is None and wins.blocks == 7
    losses = sprt("c", {0.0: 9}, RULE)
    assert math.isclose(losses.llr, 9 * math.log((1 - s1) / (1 - s0)), rel_tol=1e-9)
    assert losses.score == 0.0 and losses.elo is None


def three_point_log_factors(freq: list[float], s: float) -> list[float]:
    """log(1 + λ d_j) on scores 0, 1/2, 1 with mean ``s``: the root of the quadratic."""
    d = [0 - s, 0.5 - s, 1 - s]
    a = sum(freq[j] * d[j] * math.prod(d[i] for i in range(3) if i != j) for j in range(3))
    b = sum(freq[j] * d[j] * sum(d[i] for i in range(3) if i != j) for j in range(3))
    c = sum(freq[j] * d[j] for j in range(3))
    if a == 0:  # a mean of 1/2 on symmetric frequencies: the equation is linear
        roots = [-c / b]
    else:
        roots = [(-b + sign * math.sqrt(b * b - 4 * a * c)) / (2 * a) for sign in (1, -1)]
    lam = next(r for r in roots if all(1 + r * dj > 0 for dj in d))
    return [math.log1p(lam * dj) for dj in d]


def test_draws_only_are_shaped_by_the_pseudo_counts() -> None:
    assert PSEUDO_COUNT == 1e-3
    total = 200 + 2 * PSEUDO_COUNT
    freq = [PSEUDO_COUNT / total, 200 / total, PSEUDO_COUNT / total]
    l0 = three_point_log_factors(freq, 0.5)
    l1 = three_point_log_factors(freq, elo_to_score(10))
    draws = sprt("c", {0.5: 200}, RULE)
    assert math.isclose(draws.llr, 200 * (l0[1] - l1[1]), rel_tol=1e-9)
    assert draws.score == 0.5 and draws.elo == 0.0


def test_a_batch_gives_each_row_its_own_llr_and_zero_without_blocks() -> None:
    values = np.array([0.0, 0.5, 1.0])
    counts = np.array([[[4, 3, 9], [0, 0, 0]], [[0, 5, 0], [2, 0, 1]]], dtype=float)
    got = llr_batch(values, counts, RULE)
    assert got.shape == (2, 2)
    for i in range(2):
        for j in range(2):
            alone = sprt("c", {v: int(n) for v, n in zip(values, counts[i, j]) if n}, RULE).llr
            assert math.isclose(got[i, j], alone, rel_tol=1e-12, abs_tol=1e-15)
    assert got[0, 1] == 0.0


def test_the_description_is_one_exact_line() -> None:
    result = SprtResult("cand", RULE, 12, 0.75, 1.234, None)
    assert result.describe() == (
        "SPRT cand [0, 10] alpha 0.05 beta 0.1: LLR 1.23 (-2.25, 2.89) after 12 blocks: running"
    )
    assert SprtResult("c", RULE, 1, 1.0, 3.0, "H1").describe().endswith(": H1 accepted (passed)")
    assert SprtResult("c", RULE, 1, 0.0, -3.0, "H0").describe().endswith(": H0 accepted (failed)")
    assert result.lower == RULE.lower and result.upper == RULE.upper
    assert math.isclose(result.elo or 0.0, 400 * math.log10(3), rel_tol=1e-12)
    assert SprtResult("c", RULE, 0, None, 0.0, None).elo is None


def test_observed_ends_get_no_pseudo_count() -> None:
    settings = SprtSettings(elo0=-5, elo1=20)
    for counts in ((1, 3, 1), (1, 6, 0), (0, 6, 1)):
        scores = {v: n for v, n in zip((0.0, 0.5, 1.0), counts) if n}
        total = sum(counts) + (0 if counts[0] else PSEUDO_COUNT) + (0 if counts[2] else PSEUDO_COUNT)
        freq = [(n or PSEUDO_COUNT) / total for n in counts]
        l0 = three_point_log_factors(freq, elo_to_score(-5))
        l1 = three_point_log_factors(freq, elo_to_score(20))
        expected = sum(n * (a - b) for n, a, b in zip(counts, l0, l1))
        assert math.isclose(sprt("c", scores, settings).llr, expected, rel_tol=1e-9), counts


def test_the_result_names_its_candidate_settings_and_verdict() -> None:
    assert sprt("cand", {}, RULE) == SprtResult("cand", RULE, 0, None, 0.0, None)
    one = sprt("cand", {1.0: 1}, RULE)
    assert one.blocks == 1 and one.llr > 0 and one.score == 1.0
    passed = sprt("cand", {1.0: 600, 0.0: 400}, RULE)
    assert (passed.candidate, passed.settings, passed.blocks, passed.score) == ("cand", RULE, 1000, 0.6)
    assert passed.verdict == "H1" and sprt("cand", {1.0: 400, 0.0: 600}, RULE).verdict == "H0"
