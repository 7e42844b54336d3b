"""A league's ladder (the leaderboard of all its stored games) and its published site, read from
one snapshot of the store while the league may be playing: the ladder, every game, a page per
version and the replays of every table played whole (a table's replays wait until it is whole,
as a tournament's wait for every seating of a deal)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import cast

from arena.league.book import LeagueRow, league, tables
from arena.rating_input import rated_game
from arena.site.build import SiteReport, private_board, write_site
from arena.site.privacy import public_bots
from arena.store.db import Store, StoredGame
from engine.core import Wire
from leaderboards.errors import LeaderboardError
from leaderboards.model import Leaderboard, RatingSettings, TournamentInfo


def league_board(row: LeagueRow, games: Sequence[StoredGame],
                 settings: RatingSettings = RatingSettings()) -> Leaderboard:
    """The leaderboard of the league's stored ``games`` (each version rated on its own, as
    bot@version); :class:`LeaderboardError` without any."""
    if not games:
        raise LeaderboardError(f"league {row.name!r} has no stored games yet; play some with: "
                               "arena league run")
    from leaderboards.build import build_leaderboard  # the rating stack loads only when rating

    shown = {k: v for k, v in row.template.items() if k not in ("format", "candidates", "deals")}
    info = TournamentInfo(name=row.name, settings=cast(dict[str, Wire], shown))
    return build_leaderboard((rated_game(g.record) for g in games), info, settings)


def build_league_site(store: Store, out: Path, name: str | None = None,
                      settings: RatingSettings = RatingSettings(),
                      include_commands: bool = False) -> SiteReport:
    """Write the site of the league ``name`` (the only one stored when ``None``) into ``out``
    (see :func:`arena.site.build.write_site`), from one snapshot of the store."""
    with store.snapshot():
        row = league(store, name)
        by_table = [(t, [numbered(g, t.number) for g in store.games(t.tournament)])
                    for t in tables(store, row.name)]
        everything = [game for _, games in by_table for game in games]
        rows = {b.name: b for t, _ in by_table for b in store.bots(t.tournament)}
        board = (private_board(league_board(row, everything, settings), include_commands)
                 if everything else None)
    withheld = {g.placement.game_id for _, games in by_table if len(games) < row.table_size
                for g in games}
    bots = public_bots([rows[n] for n in sorted(rows)], include_commands)
    return write_site(out, row.name, everything, bots, board, withheld)


def numbered(game: StoredGame, table: int) -> StoredGame:
    """``game`` of a league table placed at that table's number (each table is a tournament of
    its own, whose games all sit at its table 0), so that games are numbered across the league."""
    return replace(game, placement=replace(game.placement, table=table))
