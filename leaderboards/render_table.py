"""The leaderboard as a Rich table for the terminal."""

from __future__ import annotations

from rich.console import JustifyMethod
from rich.table import Table
from rich.text import Text

from leaderboards import format as fmt
from leaderboards.model import Leaderboard


def render_table(board: Leaderboard) -> Table:
    """Rank, bot (with flags), Elo, −/+ interval, games, score, average place, LOS to the next, faults."""
    confidence = round(100 * board.settings.confidence)
    table = Table(title=board.title, caption=_caption(board))
    columns: list[tuple[str, JustifyMethod]] = [
        ("rank", "right"),
        ("bot", "left"),
        ("Elo", "right"),
        (f"−/+ {confidence}%", "right"),
        ("games", "right"),
        ("score", "right"),
        ("avg place", "right"),
        ("LOS next", "right"),
        ("faults", "right"),
    ]
    for name, justify in columns:
        table.add_column(name, justify=justify)
    groups = len(board.groups) > 1
    for s in board.standings:
        table.add_row(
            str(s.rank),
            Text(fmt.bot_label(s) + (f" [group {s.group + 1}]" if groups else "")),
            fmt.elo(s.elo),
            fmt.margin(s),
            str(s.games),
            fmt.share(s.score),
            fmt.place(s.average_place),
            fmt.share(s.los_next),
            str(s.faults),
        )
    return table


def _caption(board: Leaderboard) -> Text:
    lines = [f"{board.games} games; Arena Elo (Plackett–Luce), mean 1500"]
    if board.provisional:
        lines.append("provisional: the tournament is still running")
    if len(board.groups) > 1:
        lines.append(
            f"the field is split into {len(board.groups)} groups that never met: "
            "compare ratings only within a group"
        )
    return Text("\n".join(lines))
