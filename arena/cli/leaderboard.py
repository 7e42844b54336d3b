"""``arena leaderboard`` and ``arena publish``: ratings of a stored tournament, and its site."""

from __future__ import annotations

import enum
from pathlib import Path
from typing import Annotated

import typer

from arena.cli.common import console, fail, user_errors
from arena.cli.results import DEFAULT_DB, DbOpt, TournamentOpt, open_store
from arena.league.book import league_name
from arena.league.site import build_league_site
from arena.site.build import SiteReport, build_site, private_board
from leaderboards.model import DEFAULT_BOOTSTRAP_SAMPLES, RatingSettings
from leaderboards.render_html import render_html
from leaderboards.render_json import render_json
from leaderboards.render_markdown import render_markdown
from leaderboards.render_table import render_table
from arena.rating_input import stored_leaderboard


class BoardFormat(str, enum.Enum):
    """How to print a leaderboard."""

    TABLE = "table"
    MD = "md"
    JSON = "json"
    HTML = "html"


SamplesOpt = Annotated[
    int,
    typer.Option("--samples", min=2, help="Bootstrap samples for the confidence intervals."),
]
AnchorOpt = Annotated[
    str | None, typer.Option("--anchor", help="Pin this bot at --anchor-elo (default: mean 1500).")
]
AnchorEloOpt = Annotated[float, typer.Option("--anchor-elo", help="The anchored bot's rating.")]


def leaderboard_command(
    db: DbOpt = DEFAULT_DB,
    tournament: TournamentOpt = None,
    output: Annotated[
        BoardFormat, typer.Option("--format", "-f", help="table, md (Markdown), json or html.")
    ] = BoardFormat.TABLE,
    samples: SamplesOpt = DEFAULT_BOOTSTRAP_SAMPLES,
    anchor: AnchorOpt = None,
    anchor_elo: AnchorEloOpt = 1500.0,
) -> None:
    """Print the Elo leaderboard of a stored tournament (provisional while games are missing).

    \b
    Examples:
      arena leaderboard --db league.db
      arena leaderboard --db league.db --tournament spring --format md > standings.md
    """
    settings = RatingSettings(bootstrap_samples=samples, anchor=anchor, anchor_elo=anchor_elo)
    with open_store(db) as store, user_errors():
        league = league_name(store) if tournament is None else None
        if league is not None:
            raise fail(f"{db} holds league {league!r}, a tournament per table: its ladder is "
                       f"arena league ladder --db {db} (or name one table with --tournament)")
        board = private_board(stored_leaderboard(store, tournament, settings), include_commands=False)
    if output is BoardFormat.TABLE:
        console.print(render_table(board))
        return
    render = {BoardFormat.MD: render_markdown, BoardFormat.JSON: render_json, BoardFormat.HTML: render_html}
    print(render[output](board), end="")


def publish_command(
    out: Annotated[Path, typer.Option("--out", "-o", help="The folder to write into (created).")],
    db: DbOpt = DEFAULT_DB,
    tournament: TournamentOpt = None,
    samples: SamplesOpt = DEFAULT_BOOTSTRAP_SAMPLES,
    anchor: AnchorOpt = None,
    anchor_elo: AnchorEloOpt = 1500.0,
    include_commands: Annotated[
        bool,
        typer.Option("--include-commands", help="Also publish each bot's command line (never its env values)."),
    ] = False,
) -> None:
    """Write the tournament's static site: index.html (the leaderboard), leaderboard.md,
    leaderboard.json, games.html (every game, filterable by bot and fault), a page per bot, and a
    replay viewer for every game. It works from file:// or any static web host: nothing is loaded
    from elsewhere. Bots appear by name, version and file hash; env values are never published.
    On a league's database (without --tournament) it writes the league's site, its ladder and
    every game so far, at any moment, even while `arena league run` plays.

    \b
    Examples:
      arena publish --db league.db --out site/
    """
    settings = RatingSettings(bootstrap_samples=samples, anchor=anchor, anchor_elo=anchor_elo)
    with open_store(db) as store, user_errors():
        if tournament is None and league_name(store) is not None:
            site = build_league_site(store, out, None, settings, include_commands)
        else:
            site = build_site(store, out, tournament, settings, include_commands)
    print(f"published {site.stored} games of {site.bots} bots into {site.out}:")
    for name in ("index.html", "games.html", "leaderboard.md", "leaderboard.json") if site.stored else (
        "index.html", "games.html"
    ):
        print(f"  {out / name}")
    print(f"  {out / 'games'}/  {replay_line(site)}")


def replay_line(site: SiteReport) -> str:
    """What the replays folder holds, in words: how many replays and their average size, or why
    there are none yet."""
    if not site.stored:
        return "no replays: no game is stored yet (index.html says so until the first games)"
    waiting = site.stored - site.games
    later = f"; {waiting} wait until every seating of their deal is played" if waiting else ""
    if not site.games:
        return f"no replays yet: all {waiting} wait until every seating of their deal is played"
    return f"{site.games} replays, {site.bytes_per_game / 1024:.1f} KiB of data each on average{later}"
