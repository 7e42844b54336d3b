"""The league's rating fit from its stored games: the leaderboard's Plackett-Luce model (seat terms
for the league's table size, the leaderboard's prior) fitted exactly to every stored game of every
table, with Laplace covariance (:func:`arena.league.ratings.laplace_ratings`), or a cheap step
from a previous fit: one Newton step over every stored game, warm-started at the previous fit
(new versions at the prior mean), in place of iterating to convergence."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from arena.league.book import RatingRow, TableRow
from arena.league.config import label, unlabel
from arena.league.matchmaking import EntrantKey, FloatArray, Ratings
from arena.league.ratings import laplace_ratings
from arena.store.db import Store, StoredGame
from leaderboards.model import RatingSettings
from leaderboards.plackett_luce import Finish, PlackettLuceModel
from leaderboards.scale import ELO_PER_THETA

#: The fit's prior, in θ units: the leaderboard's.
PRIOR_SD = RatingSettings().prior_sd / ELO_PER_THETA
#: A rating whose standard error exceeds this (Elo) is provisional: its 95% interval is wider than
#: about ±100 Elo.
PROVISIONAL_SD = 50.0


@dataclass(frozen=True, slots=True)
class LeagueFit:
    """The ratings of every version that has played, and its games."""

    ratings: Ratings
    games: dict[EntrantKey, int]
    #: The fit in the model's raw layout (strengths in θ, then the free seat terms): a warm start.
    raw: FloatArray
    #: Whether the fit was iterated to convergence (else it is one step from a previous fit).
    exact: bool = True

    def rows(self, tables: int) -> list[RatingRow]:
        """The fit as history rows, made when the league had played ``tables`` tables."""
        return [
            RatingRow(tables, key[0], key[1], float(self.ratings.elo[i]),
                      math.sqrt(max(float(self.ratings.covariance[i, i]), 0.0)), self.games[key],
                      self.exact)
            for i, key in enumerate(self.ratings.keys)
        ]


def league_games(store: Store, tables: Sequence[TableRow]) -> list[StoredGame]:
    """Every stored game of ``tables`` (a void attempt is never among them)."""
    return [game for table in tables for game in store.games(table.tournament)]


Outcome = tuple[tuple[str, ...], tuple[int, ...]]
"""A game as the fit reads it: the bot in each seat and its place."""


def league_outcomes(store: Store, league_name: str) -> list[Outcome]:
    """Every stored game of the league's tables as seats and places, read from the per-seat rows
    alone (not the whole records), in a stable order. Void attempts are never among them."""
    outcomes: list[Outcome] = []
    last: tuple[str, str] | None = None
    for tournament, game, bot, rank in store.rows(
        "SELECT s.tournament, s.game, s.bot, s.rank FROM game_seats s JOIN league_tables t "
        "ON t.tournament = s.tournament WHERE t.league = ? ORDER BY t.number, s.game, s.seat",
        (league_name,),
    ):
        if (tournament, game) != last:
            outcomes.append(((), ()))
            last = (tournament, game)
        bots, ranks = outcomes[-1]
        outcomes[-1] = ((*bots, bot), (*ranks, int(rank)))
    return outcomes


def fit_games(games: Sequence[Outcome], table_size: int,
              previous: LeagueFit | None = None) -> LeagueFit | None:
    """The exact fit to ``games`` (``None`` without any); with ``previous``, one Newton step from
    it instead (not exact: cheaper by the iterations it skips)."""
    if not games:
        return None
    keys = sorted({unlabel(bot) for bots, _ in games for bot in bots})
    items = {label(key): i for i, key in enumerate(keys)}
    finishes = [
        Finish(tuple(items[b] for b in bots), ranks, 0 if len(bots) == table_size else -1)
        for bots, ranks in games
    ]
    model = PlackettLuceModel(len(keys), finishes, [table_size])
    if previous is None:
        fit = model.fit(prior_sd=PRIOR_SD)
    else:
        fit = model.fit(prior_sd=PRIOR_SD, start=_warm_start(previous, keys), max_iterations=1)
    counts = Counter(unlabel(bot) for bots, _ in games for bot in bots)
    return LeagueFit(laplace_ratings(model, fit, PRIOR_SD, keys), {k: counts[k] for k in keys},
                     model.raw_params(fit), previous is None)


def _warm_start(previous: LeagueFit, keys: Sequence[EntrantKey]) -> FloatArray:
    """``previous`` in the raw layout of a fit of ``keys`` (a version it lacks at 0)."""
    known = {key: i for i, key in enumerate(previous.ratings.keys)}
    strengths = [previous.raw[known[key]] if key in known else 0.0 for key in keys]
    return np.concatenate([np.array(strengths), previous.raw[len(known):]])
