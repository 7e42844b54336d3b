"""The leaderboard as a Rich table for the terminal."""

from __future__ import annotations

from collections.abc import Callable

from rich import box
from rich.console import Console, ConsoleOptions, JustifyMethod, RenderResult
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text

from arena.inert import terminal
from leaderboards import format as fmt
from leaderboards.model import Flag, Leaderboard, Standing


#: Columns a narrow terminal leaves out, first to last; rank, bot, Elo and the interval always stay.
NARROW_DROPS = ("place", "score", "LOS", "games", "faults")

#: A width no table reaches: measuring at it gives a table's natural width.
_UNBOUNDED = 100_000


class LeaderboardTable:
    """The leaderboard as wide as the console allows: every column when they fit at their natural
    width, else the fewest of :data:`NARROW_DROPS` left out (the caption says which), so names and
    numbers are never cut; a name too long even then is folded onto more lines."""

    def __init__(self, board: Leaderboard) -> None:
        self.board = board

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        unbounded = options.update_width(_UNBOUNDED)
        for count in range(len(NARROW_DROPS) + 1):
            table = _table(self.board, NARROW_DROPS[:count])
            if Measurement.get(console, unbounded, table).maximum <= options.max_width:
                break
        yield table

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement.get(console, options, _table(self.board, ()))


def render_table(board: Leaderboard) -> LeaderboardTable:
    """Rank, bot, Elo, −/+ interval, games, score, average place, LOS to the next, faults.

    Flags are listed under the table (with the bots they concern), keeping it narrow enough for an
    80-column terminal; a narrower one leaves out columns (see :class:`LeaderboardTable`)."""
    return LeaderboardTable(board)


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
    if dropped:
        lines.append(f"left out to fit the terminal: {', '.join(dropped)} (widen it, or --format md)")
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
