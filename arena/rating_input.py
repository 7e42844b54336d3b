"""Where the arena hands its results to the leaderboard: match records in, :class:`RatedGame` out.

``leaderboards`` knows nothing of the store, the runner or the schedule; this module reads them and
passes on only the facts a rating needs (data flows one way, ``arena`` → ``leaderboards``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from arena.record import MatchRecord
from arena.store.db import DealCommitment, Store, StoredGame, TournamentRow
from arena.tournament.config import config_from_plain
from arena.tournament.schedule import build_schedule, stored_results
from arena.tournament.sprt import stored_sprt
from engine.core import Wire
from leaderboards.errors import LeaderboardError
from leaderboards.model import Leaderboard, RatingSettings, Rounds, TournamentInfo
from leaderboards.results import RatedGame
from leaderboards.sprt import SprtResult


def rated_game(record: MatchRecord) -> RatedGame:
    """The facts of ``record`` a leaderboard rates: deal, seats, places, faults, reply times."""
    return RatedGame(
        game=record.game,
        variant=record.variant,
        seed=record.seed,
        bots=record.bots,
        ranks=record.ranks,
        faults=tuple((f.seat, f.kind.value) for f in record.faults),
        forfeited=record.forfeited,
        replies=tuple((d.seat, d.elapsed) for d in record.decisions if not d.fallback),
        clock=clock if isinstance(clock := record.detail.get("clock"), str) else None,
    )


def deal_settings(committed: DealCommitment | None) -> dict[str, str]:
    """What a board publishes of a tournament's deal secret: its commitment, and the secret once
    revealed (nothing for public deals)."""
    if committed is None:
        return {}
    shown = {"deal_commitment": committed.commitment}
    if committed.revealed is not None:
        shown["deal_secret"] = committed.revealed
    return shown


def stored_leaderboard(
    store: Store,
    tournament: str | None = None,
    settings: RatingSettings = RatingSettings(),
    games: Sequence[StoredGame] | None = None,
) -> Leaderboard:
    """Rate every stored game of ``tournament`` (the only one stored when ``None``): ``games`` when
    the caller has read them already (in the same :meth:`Store.snapshot`), else read here, every
read in one snapshot.

    The board is provisional while scheduled games are missing (and a gauntlet's early-stopping
    test has no verdict). It shows a swiss tournament's rounds and where the test stands. Raises :class:`LeaderboardError`
    when nothing can be rated yet, and the store's own error for an unknown tournament.
    """
    with store.snapshot():
        return _rate(store, store.tournament(tournament), settings, games)


def _rate(
    store: Store, row: TournamentRow, settings: RatingSettings, games: Sequence[StoredGame] | None
) -> Leaderboard:
    if games is None:
        games = store.games(row.name)
    if not games:
        raise LeaderboardError(
            f"tournament {row.name!r} has no stored games yet; play some with "
            f"`arena tournament run` or `arena tournament resume --db {store.path}`"
        )
    config = config_from_plain(row.config, source=f"{store.path}: tournament {row.name!r}")
    schedule = build_schedule(config, stored_results(games) if config.rounds else None)
    sprt = stored_sprt(config, games)
    info = TournamentInfo(
        name=row.name,
        settings=cast(dict[str, Wire], {**row.config, **deal_settings(store.deal_commitment(row.name))}),
        provisional=len(games) < len(schedule) and (sprt is None or sprt.verdict is None),
        sprt=sprt if isinstance(sprt, SprtResult) else None,  # a paired test is arena test's
        remote=tuple(b.name for b in config.bots if b.remote),
        rounds=Rounds(schedule.rounds_played({g.placement.game_id for g in games}), schedule.rounds)
        if schedule.rounds
        else None,
    )
    # The fit (and scipy) loads only here: every arena command imports this module.
    from leaderboards.build import build_leaderboard

    return build_leaderboard((rated_game(g.record) for g in games), info, settings)
