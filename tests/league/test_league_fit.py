"""The league's rating step between exact fits: one Newton step warm-started at the fit before,
close to the exact fit, exact where it starts at the answer, and a new version starting at the
prior mean."""

from __future__ import annotations

import random

import numpy as np
import pytest

from arena.league.fit import Outcome, fit_games


def games(count: int, seed: int, names: str = "abc") -> list[Outcome]:
    """``count`` three-seat games where ``a`` mostly beats ``b``, which mostly beats ``c``."""
    rng = random.Random(seed)
    found: list[Outcome] = []
    for _ in range(count):
        bots = list(names[:3])
        rng.shuffle(bots)
        order = sorted(bots, key=lambda b: names.index(b) + rng.uniform(0, 2.5))
        found.append((tuple(f"{b}@1" for b in bots), tuple(order.index(b) + 1 for b in bots)))
    return found


def test_a_step_from_the_exact_fit_of_the_same_games_stays_there() -> None:
    played = games(60, 1)
    exact = fit_games(played, 3)
    assert exact is not None and exact.exact
    step = fit_games(played, 3, previous=exact)
    assert step is not None and not step.exact
    assert step.ratings.elo == pytest.approx(exact.ratings.elo, abs=1e-3)


def test_a_step_after_a_table_is_close_to_the_exact_refit() -> None:
    before = games(60, 2)
    after = before + games(3, 3)
    previous = fit_games(before, 3)
    exact = fit_games(after, 3)
    step = fit_games(after, 3, previous=previous)
    assert previous is not None and exact is not None and step is not None
    moved = np.abs(exact.ratings.elo - previous.ratings.elo).max()
    assert moved > 1.0, "the new table moves the ratings"
    assert np.abs(step.ratings.elo - exact.ratings.elo).max() < moved / 10
    assert step.games == exact.games


def test_a_new_version_in_a_step_starts_from_the_prior_mean() -> None:
    previous = fit_games(games(30, 4), 3)
    with_new = games(30, 4) + games(3, 5, names="abd")
    step = fit_games(with_new, 3, previous=previous)
    exact = fit_games(with_new, 3)
    assert step is not None and exact is not None
    assert step.ratings.keys == exact.ratings.keys == (("a", 1), ("b", 1), ("c", 1), ("d", 1))
    assert step.ratings.elo == pytest.approx(exact.ratings.elo, abs=25.0)
