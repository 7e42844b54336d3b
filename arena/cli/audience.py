"""What ``arena play --watch`` shows: a display for people watching, not for debugging.

After every decision: the running scores of every seat, the decision just made and who decides
next in plain words, and the board, all in the game's own words (its presentation, see
:mod:`engine.presentation`). Names a bot chose are shown as inert text.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from arena.inert import terminal
from arena.record import DecisionRecord
from engine.core import State
from engine.presentation import Presentation, seat_names


def names_of(bots: Sequence[str]) -> list[str]:
    """What each seat is called on the display: ``seat 2 (name)``, the name made inert."""
    return seat_names([terminal(bot) for bot in bots])


def _places(scores: Sequence[int | None]) -> list[int | None]:
    known = [s for s in scores if s is not None]
    return [None if mine is None else 1 + sum(1 for other in known if other > mine) for mine in scores]


def scoreboard(state: State, bots: Sequence[str], presentation: Presentation) -> Table:
    """Every seat's bot and its score now, with its place as things stand (the final places, ties
    broken by the rules, once the game is over); ``–`` where the game does not say."""
    scores: Sequence[int | None] = presentation.running_scores(state) or [None] * len(bots)
    places = list(state.result().ranks) if state.is_over() else _places(scores)
    table = Table(box=None, pad_edge=False, show_edge=False)
    for column in ("seat", "bot", "score", "place now"):
        table.add_column(column, justify="left" if column == "bot" else "right")
    movers = set(state.to_move())
    for seat, (score, place) in enumerate(zip(scores, places)):
        mark = "▶ " if seat in movers else ""
        table.add_row(f"{mark}{seat}", Text(terminal(bots[seat])), "–" if score is None else str(score),
                      "–" if place is None else str(place))
    return table


def audience_view(
    state: State, decision: DecisionRecord, count: int, bots: Sequence[str], presentation: Presentation
) -> RenderableType:
    """The display after decision number ``count`` (1 for the first) in the words of ``state``'s
    game (``presentation``): scores, what just happened, what comes next, and the board."""
    names = names_of(bots)
    label = presentation.action_text(state, decision.seat, decision.action)
    if decision.fallback:
        happened = f"the referee chose for {names[decision.seat]} after a fault: {label}"
    else:
        happened = f"{names[decision.seat]}: {label} ({decision.elapsed * 1000:.0f} ms)"
    return Group(
        scoreboard(state, bots, presentation),
        Text(f"decision {count}: {happened}", style="yellow" if decision.fallback else "bold"),
        Text(f"next: {presentation.next_text(state, names)}"),
        Panel(Text(presentation.picture(state)), title=f"{state.config.game} ({state.config.variant})", title_align="left"),
    )
