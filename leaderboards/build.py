"""Rate a set of finished games (:class:`RatedGame`) and assemble the leaderboard.

Arena Elo is the Plackett–Luce fit of every game's finishing order (seat terms per game and table
size, a weak Gaussian prior), ``1500 + 400/ln 10 · θ`` with mean 1500 in each connected group, the
intervals from a bootstrap over duplicate blocks. The order the records come in does not matter.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Iterable
from typing import TypeAlias

import numpy as np
from threadpoolctl import threadpool_limits

from leaderboards.bootstrap import bootstrap_thetas, percentile_interval, superiority
from leaderboards.errors import LeaderboardError
from leaderboards.field import flags
from leaderboards.model import (
    Flag,
    Leaderboard,
    RatingSettings,
    SeatAdvantage,
    Standing,
    TournamentInfo,
)
from leaderboards.pairwise import comparisons, fit_pairwise
from leaderboards.plackett_luce import Finish, FloatArray, IndexArray, PlackettLuceModel
from leaderboards.results import RatedGame, common_clock
from leaderboards.scale import ELO_MEAN, ELO_PER_THETA
from leaderboards.seats import prior_bound_tables
from leaderboards.stats import (
    TableResults,
    bot_totals,
    fault_counts,
    head_to_head,
    latencies,
    pair_counts,
    seat_totals,
    table_results,
)

BlockKey: TypeAlias = Callable[[RatedGame], Hashable]
"""Maps a record to its duplicate block: records with equal keys are resampled together."""


def deal_block(record: RatedGame) -> Hashable:
    """The default block: the same deal (game, variant, seed) played by the same bots."""
    return (record.game, record.variant, record.seed, tuple(sorted(record.bots)))


def build_leaderboard(
    records: Iterable[RatedGame],
    tournament: TournamentInfo | None = None,
    settings: RatingSettings = RatingSettings(),
    block_key: BlockKey = deal_block,
) -> Leaderboard:
    """Rate ``records`` and tabulate them; raises :class:`LeaderboardError` if they cannot be rated.

    Linear algebra runs on one thread: the matrices are small (bots and seat terms), and several
    BLAS threads spin against each other on a busy machine (200 bots: 18 s against 6.5 s)."""
    with threadpool_limits(limits=1, user_api="blas"):
        return _build(list(records), tournament, settings, block_key)


def _build(
    games: list[RatedGame],
    tournament: TournamentInfo | None,
    settings: RatingSettings,
    block_key: BlockKey,
) -> Leaderboard:
    _check(games, settings)
    bots = sorted({bot for record in games for bot in record.bots})
    index = {bot: i for i, bot in enumerate(bots)}
    seat_keys = sorted({(r.game, r.players) for r in games}) if settings.seat_terms else []
    seat_group = {key: g for g, key in enumerate(seat_keys)}
    finishes = [
        Finish(
            items=tuple(index[bot] for bot in record.bots),
            ranks=record.ranks,
            seat_group=seat_group.get((record.game, record.players), -1),
        )
        for record in games
    ]
    model = PlackettLuceModel(len(bots), finishes, [players for _, players in seat_keys])
    prior = settings.prior_sd / ELO_PER_THETA
    fit = model.fit(prior_sd=prior, max_iterations=settings.max_iterations)
    keys = [block_key(r) for r in games]
    # Blocks numbered in a fixed order of their keys, so the resampling depends on the games only.
    block_ids = {key: i for i, key in enumerate(sorted(set(keys), key=repr))}
    blocks = np.array([block_ids[key] for key in keys], dtype=np.intp)
    samples = bootstrap_thetas(
        model, fit, blocks, prior, settings.bootstrap_samples, settings.seed
    )
    anchor = None if settings.anchor is None else index[settings.anchor]

    def to_elo(theta: FloatArray) -> FloatArray:
        return _elo_scale(theta, model.components, anchor, settings.anchor_elo)

    elo = to_elo(fit.theta)
    sampled_elo = to_elo(samples)
    low, high = percentile_interval(sampled_elo, settings.confidence, len(block_ids))
    tables = table_results(games, index)
    pairs = pair_counts(tables, len(bots))
    seat_base = dict(zip(seat_keys, np.cumsum([0] + [p for _, p in seat_keys])[:-1].tolist()))
    cross = fit_pairwise(comparisons(tables, seat_base), len(bots),
                         sum(p for _, p in seat_keys), model.components, prior,
                         settings.max_iterations)
    pairwise = to_elo(cross.theta)
    bound_tables = prior_bound_tables(tables, seat_keys)
    totals = bot_totals(tables, pairs, len(bots))
    faults = fault_counts(games, bots)
    bot_flags = flags(pairs.beat, model.components, [t.games for t in totals], settings.few_games)
    remote = set() if tournament is None else set(tournament.remote)
    bot_flags = [f + ((Flag.REMOTE,) if bots[i] in remote else ()) for i, f in enumerate(bot_flags)]
    order = sorted(range(len(bots)), key=lambda i: (-elo[i], bots[i]))
    group_number: dict[int, int] = {}
    for i in order:
        group_number.setdefault(int(model.components[i]), len(group_number))
    los = superiority(elo, sampled_elo, model.components)
    standings = tuple(
        Standing(
            rank=position + 1,
            bot=bots[i],
            elo=float(elo[i]),
            ci_low=None if _unbounded(bot_flags[i])[0] else float(low[i]),
            ci_high=None if _unbounded(bot_flags[i])[1] else float(high[i]),
            pairwise_elo=float(pairwise[i]),
            games=totals[i].games,
            score=totals[i].score,
            average_place=totals[i].average_place,
            win_share=totals[i].win_share,
            faults=faults[i].total,
            los_next=los[i][order[position + 1]] if position + 1 < len(order) else None,
            group=group_number[int(model.components[i])],
            flags=bot_flags[i],
        )
        for position, i in enumerate(order)
    )
    ranked = [bots[i] for i in order]
    groups = tuple(
        tuple(bots[i] for i in order if group_number[int(model.components[i])] == g)
        for g in range(len(group_number))
    )
    return Leaderboard(
        tournament=tournament,
        settings=settings,
        games=len(games),
        blocks=len(block_ids),
        standings=standings,
        los=tuple(tuple(los[i][j] for j in order) for i in order),
        head_to_head=head_to_head(pairs, bots, order),
        seat_advantage=_seat_advantage(tables, seat_group, fit.seat_terms, bound_tables),
        faults=tuple(faults[i] for i in order),
        latency=latencies(games, ranked),
        groups=groups,
        notes=_notes(fit.converged, fit.iterations, cross.converged, bound_tables),
        clock=common_clock(g.clock for g in games),
    )


def _unbounded(bot_flags: tuple[Flag, ...]) -> tuple[bool, bool]:
    """Which ends of a bot's interval only the prior bounds: (lower, upper). An unbeaten bot's
    rating runs off upwards, a winless one's downwards; any other prior-bound one either way."""
    if Flag.UNBEATEN in bot_flags:
        return Flag.WINLESS in bot_flags, True
    if Flag.WINLESS in bot_flags:
        return True, False
    bound = Flag.PRIOR_BOUND in bot_flags
    return bound, bound


def _notes(
    converged: bool, iterations: int, cross_converged: bool, bound_tables: set[tuple[str, int]]
) -> tuple[str, ...]:
    """What a reader of the board must be told: a fit that did not converge, unbounded seat terms."""
    notes: list[str] = []
    if not converged:
        notes.append(f"the rating fit did not converge ({iterations} iterations): ratings may be off")
    if not cross_converged:
        notes.append("the pairwise Elo fit did not converge: that column may be off")
    notes.extend(
        f"seat terms of {game} at {players} players are finite only because of the prior: "
        "some seats never finished below the others"
        for game, players in sorted(bound_tables)
    )
    return tuple(notes)


def _elo_scale(
    theta: FloatArray, components: IndexArray, anchor: int | None, anchor_elo: float
) -> FloatArray:
    """θ centred per component (items on the last axis) on the Elo scale: mean 1500 per component,
    except that the anchor's component is shifted to put the anchor at ``anchor_elo``."""
    elo: FloatArray = theta * ELO_PER_THETA + ELO_MEAN
    if anchor is not None:
        same_group = components == components[anchor]
        elo = elo + (anchor_elo - elo[..., [anchor]]) * same_group
    return elo


def _seat_advantage(
    tables: list[TableResults],
    seat_group: dict[tuple[str, int], int],
    terms: tuple[FloatArray, ...],
    bound_tables: set[tuple[str, int]],
) -> tuple[SeatAdvantage, ...]:
    """Seat totals beside the fitted seat terms (in Elo points) of their game and table size."""
    rows: list[SeatAdvantage] = []
    for seat in seat_totals(tables):
        group = seat_group.get((seat.game, seat.players))
        elo = None if group is None else float(terms[group][seat.seat] * ELO_PER_THETA)
        rows.append(
            SeatAdvantage(
                seat.game, seat.players, seat.seat, seat.games,
                seat.average_place, seat.win_share, elo,
                (seat.game, seat.players) in bound_tables,
            )
        )
    return tuple(rows)


def _check(games: list[RatedGame], settings: RatingSettings) -> None:
    """Refuse what cannot be rated, saying why."""
    if not games:
        raise LeaderboardError("no games to rate: the results hold no finished games yet")
    bots = {bot for record in games for bot in record.bots}
    if len(bots) < 2:
        raise LeaderboardError(
            f"only one bot ({next(iter(bots))}) has played: a rating needs at least two"
        )
    for number, record in enumerate(games):
        if len(record.ranks) != record.players or record.players < 2:
            raise LeaderboardError(
                f"game {number} ({record.game}, seed {record.seed}) has {record.players} seats "
                f"and {len(record.ranks)} places: cannot rate it"
            )
    if settings.anchor is not None and settings.anchor not in bots:
        raise LeaderboardError(f"anchor bot {settings.anchor!r} has not played any rated game")
    if settings.max_iterations < 1:
        raise LeaderboardError("max_iterations must be at least 1")
    if settings.bootstrap_samples < 2:
        raise LeaderboardError("bootstrap_samples must be at least 2")
    if not 0.0 < settings.confidence < 1.0:
        raise LeaderboardError("confidence must be between 0 and 1")
    if not (math.isfinite(settings.prior_sd) and settings.prior_sd > 0.0):
        raise LeaderboardError(
            f"prior_sd must be a positive, finite number of Elo points, not {settings.prior_sd!r}: "
            "the prior keeps ratings finite (for a weak prior give a large number, e.g. 10000)"
        )
