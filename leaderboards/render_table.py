"""The leaderboard as a Rich table for the terminal."""

from __future__ import annotations

from collections.abc import Callable

from rich import box
from rich.console import JustifyMethod
from rich.table import Table
from rich.text import Text

from leaderboards.inert import terminal
from leaderboards import format as fmt
from leaderboards.model import Flag, Leaderboard, Standing
from leaderboards.narrow import NarrowingTable, left_out_note


#: Columns a narrow terminal leaves out, first to last; rank, bot, Elo and the interval always stay.
NARROW_DROPS = ("place", "score", "LOS", "games", "faults")


def render_table(board: Leaderboard) -> NarrowingTable:
    """Rank, bot, Elo, −/+ interval, games, score, average place, LOS to the next, faults.

    Flags are listed under the table (with the bots they concern), keeping it narrow enough for an
    80-column terminal; a narrower one leaves out columns (:data:`NARROW_DROPS`, first to last) and
    the caption says which, so names and numbers are never cut (a name too long is folded)."""
    return NarrowingTable(lambda left_out: _table(board, left_out), NARROW_DROPS)


def _table(board: Leaderboard, dropped: tuple[str, ...]) -> Table:
    confidence = round(100 * board.settings.confidence)
    table = Table(title=board.title, caption=_caption(board, dropped), box=box.SIMPLE_HEAVY,
                  pad_edge=False, collapse_padding=True)
    groups = len(board.groups) > 1
    columns: list[tuple[str, JustifyMethod, Callable[[Standing], str | Text]]] = [
        ("rank", "right", lambda s: str(s.rank)),
        ("bot", "left", lambda s: Text(terminal(s.bot) + (f" [group {s.group + 1}]" if groups else ""))),
        ("Elo", "right", lambda s: fmt.elo(s.elo)),
        (f"−/+ {confidence}%", "right", fmt.margin),
        ("games", "right", lambda s: str(s.games)),
        ("score", "right", lambda s: fmt.share(s.score)),
        ("place", "right", lambda s: fmt.place(s.average_place)),
        ("LOS", "right", fmt.los),
        ("faults", "right", lambda s: str(s.faults)),
    ]
    shown = [column for column in columns if column[0] not in dropped]
    for name, justify, _ in shown:
        bot = name == "bot"
        table.add_column(name, justify=justify, no_wrap=not bot, overflow="fold" if bot else "ellipsis")
    for s in board.standings:
        table.add_row(*(cell(s) for _, _, cell in shown))
    return table


def _caption(board: Leaderboard, dropped: tuple[str, ...]) -> Text:
    lines = [f"{board.games} games; Arena Elo (Plackett–Luce), mean 1500"]
    clock = fmt.clock_line(board)
    lines.extend([clock] if clock else [])
    if dropped:
        lines.append(left_out_note(dropped, "--format md"))
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
