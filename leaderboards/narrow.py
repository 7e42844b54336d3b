"""Rich tables that fit a narrow terminal by leaving out their least needed columns, never by
cutting ids, names or numbers short: the leaderboard's, and the arena command line's."""

from __future__ import annotations

from collections.abc import Callable

from rich.console import Console, ConsoleOptions, RenderResult
from rich.measure import Measurement
from rich.table import Table

#: A width no table reaches: measuring at it gives a table's natural width.
_UNBOUNDED = 100_000


class NarrowingTable:
    """``build(left_out)`` with nothing left out when that fits the console at its natural width,
    else with the fewest of ``droppable`` left out (first to last) that fits, or all of them."""

    def __init__(self, build: Callable[[tuple[str, ...]], Table], droppable: tuple[str, ...]) -> None:
        self.build = build
        self.droppable = droppable

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        unbounded = options.update_width(_UNBOUNDED)
        for count in range(len(self.droppable) + 1):
            table = self.build(self.droppable[:count])
            if Measurement.get(console, unbounded, table).maximum <= options.max_width:
                break
        yield table

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement.get(console, options, self.build(()))


def left_out_note(left_out: tuple[str, ...], instead: str | None = None) -> str:
    """The line that says which columns a narrow terminal left out, and what else shows them."""
    return f"left out to fit the terminal: {', '.join(left_out)} (widen it{f', or {instead}' if instead else ''})"
