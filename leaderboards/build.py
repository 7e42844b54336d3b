"""Rate a set of match records and assemble the leaderboard.

Arena Elo is the Plackett–Luce fit of every game's finishing order (seat terms per game and table
size, a weak Gaussian prior), ``1500 + 400/ln 10 · θ`` with mean 1500 in each connected group, the
intervals from a bootstrap over duplicate blocks. The order the records come in does not matter.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from typing import TypeAlias

import numpy as np

from arena.record import MatchRecord
from leaderboards.bootstrap import bootstrap_thetas, percentile_interval, superiority
from leaderboards.errors import LeaderboardError
from leaderboards.field import flags
from leaderboards.model import (
    Leaderboard,
    RatingSettings,
    SeatAdvantage,
    Standing,
    TournamentInfo,
)
from leaderboards.pairwise import fit_pairwise
from leaderboards.plackett_luce import Finish, FloatArray, IndexArray, PlackettLuceModel
from leaderboards.scale import ELO_MEAN, ELO_PER_THETA
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

BlockKey: TypeAlias = Callable[[MatchRecord], Hashable]
"""Maps a record to its duplicate block: records with equal keys are resampled together."""


def deal_block(record: MatchRecord) -> Hashable:
    """The default block: the same deal (game, variant, seed) played by the same bots."""
    return (record.game, record.variant, record.seed, tuple(sorted(record.bots)))


def build_leaderboard(
    records: Iterable[MatchRecord],
    tournament: TournamentInfo | None = None,
    settings: RatingSettings = RatingSettings(),
    block_key: BlockKey = deal_block,
) -> Leaderboard:
    """Rate ``records`` and tabulate them; raises :class:`LeaderboardError` if they cannot be rated."""
    games = list(records)
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
    fit = model.fit(prior_sd=prior)
    block_ids: dict[Hashable, int] = {}
    blocks = np.array(
        [block_ids.setdefault(block_key(r), len(block_ids)) for r in games], dtype=np.intp
    )
    samples = bootstrap_thetas(
        model, fit, blocks, prior, settings.bootstrap_samples, settings.seed
    )
    anchor = None if settings.anchor is None else index[settings.anchor]

    def to_elo(theta: FloatArray) -> FloatArray:
        return _elo_scale(theta, model.components, anchor, settings.anchor_elo)

    elo = to_elo(fit.theta)
    sampled_elo = to_elo(samples)
    low, high = percentile_interval(sampled_elo, settings.confidence)
    tables = table_results(games, index)
    pairs = pair_counts(tables, len(bots))
    pairwise = to_elo(fit_pairwise(pairs.points, model.components, prior))
    totals = bot_totals(tables, pairs, len(bots))
    faults = fault_counts(games, bots)
    bot_flags = flags(pairs.beat, model.components, [t.games for t in totals], settings.few_games)
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
            ci_low=float(low[i]),
            ci_high=float(high[i]),
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
        seat_advantage=_seat_advantage(tables, seat_group, fit.seat_terms),
        faults=tuple(faults[i] for i in order),
        latency=latencies(games, ranked),
        groups=groups,
    )


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
            )
        )
    return tuple(rows)


def _check(games: list[MatchRecord], settings: RatingSettings) -> None:
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
    if settings.bootstrap_samples < 2:
        raise LeaderboardError("bootstrap_samples must be at least 2")
    if not 0.0 < settings.confidence < 1.0:
        raise LeaderboardError("confidence must be between 0 and 1")
    if not settings.prior_sd > 0.0:
        raise LeaderboardError("prior_sd must be a positive number of Elo points")
