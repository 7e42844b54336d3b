"""The leaderboard as a Rich table for the terminal."""

from __future__ import annotations

from rich import box
from rich.console import JustifyMethod
from rich.table import Table
from rich.text import Text

from arena.inert import terminal
from leaderboards import format as fmt
from leaderboards.model import Flag, Leaderboard


def render_table(board: Leaderboard) -> Table:
    """Rank, bot, Elo, −/+ interval, games, score, average place, LOS to the next, faults.

    Flags are listed under the table (with the bots they concern), keeping it narrow enough for an
    80-column terminal."""
    confidence = round(100 * board.settings.confidence)
    table = Table(title=board.title, caption=_caption(board), box=box.SIMPLE_HEAVY, pad_edge=False, collapse_padding=True)
    columns: list[tuple[str, JustifyMethod]] = [
        ("rank", "right"),
        ("bot", "left"),
        ("Elo", "right"),
        (f"−/+ {confidence}%", "right"),
        ("games", "right"),
        ("score", "right"),
        ("place", "right"),
        ("LOS", "right"),
        ("faults", "right"),
    ]
    longest = max((len(s.bot) for s in board.standings), default=3)
    for name, justify in columns:
        width = min(longest, 24) if name == "bot" else None
        table.add_column(name, justify=justify, no_wrap=name != "bot", min_width=width)
    groups = len(board.groups) > 1
    for s in board.standings:
        table.add_row(
            str(s.rank),
            Text(terminal(s.bot) + (f" [group {s.group + 1}]" if groups else "")),
            fmt.elo(s.elo),
            fmt.margin(s),
            str(s.games),
            fmt.share(s.score),
            fmt.place(s.average_place),
            fmt.los(s),
            str(s.faults),
        )
    return table


def _caption(board: Leaderboard) -> Text:
    lines = [f"{board.games} games; Arena Elo (Plackett–Luce), mean 1500"]
    flagged: dict[str, list[str]] = {}
    for standing in board.standings:
        for flag in standing.flags:
            if flag is not Flag.PRIOR_BOUND:
                flagged.setdefault(flag.value, []).append(standing.bot)
    too_few = fmt.too_few_games(board)
    lines.extend([too_few] if too_few else [])
    lines.extend(f"{flag}: {', '.join(bots)}" for flag, bots in flagged.items())
    if board.provisional:
        lines.append("provisional: the tournament is still running")
    if len(board.groups) > 1:
        lines.append(
            f"the field is split into {len(board.groups)} groups that never met: "
            "compare ratings only within a group"
        )
    lines.extend(fmt.progress_lines(board))
    lines.extend(f"note: {note}" for note in board.notes)
    return Text("\n".join(terminal(line) for line in lines))
