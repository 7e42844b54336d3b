"""``arena leaderboard`` and ``arena publish``: ratings of a stored tournament."""

from __future__ import annotations

import enum
from pathlib import Path
from typing import Annotated

import typer

from arena.cli.common import console, user_errors
from arena.cli.results import DEFAULT_DB, DbOpt, TournamentOpt, open_store
from arena.inert import terminal
from leaderboards.model import DEFAULT_BOOTSTRAP_SAMPLES, RatingSettings
from leaderboards.publish import publish
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

    Examples:
      arena leaderboard --db league.db
      arena leaderboard --db league.db --tournament spring --format md > standings.md
    """
    settings = RatingSettings(bootstrap_samples=samples, anchor=anchor, anchor_elo=anchor_elo)
    with open_store(db) as store, user_errors():
        board = stored_leaderboard(store, tournament, settings)
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
) -> None:
    """Write index.html (self-contained), leaderboard.md and leaderboard.json for a tournament.

    Example: arena publish --db league.db --out site/
    """
    settings = RatingSettings(bootstrap_samples=samples, anchor=anchor, anchor_elo=anchor_elo)
    with open_store(db) as store, user_errors():
        board = stored_leaderboard(store, tournament, settings)
        written = publish(board, out)
    print(f"published {terminal(board.title)}:")
    for path in (written.html, written.markdown, written.json):
        print(f"  {path}")
