"""What ``arena play --watch`` shows: a display for people watching, not for debugging.

After every decision: the running scores of every seat (Waroong Wars' included, which count the
customer cards still in hand), the decision just made and who decides next in plain words, and
the board. Names a bot chose are shown as inert text.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from arena.inert import terminal
from arena.record import DecisionRecord
from arena.site.frames import running_scores
from engine.core import State, WireMap

#: Wongar's pending decisions in plain words.
WONGAR_DECISIONS: Mapping[str, str] = {
    "not_started": "set up",
    "setup_place": "place an opening piece",
    "take": "take a territory card",
    "piece_extra": "place the card's pieces",
    "triple": "place the Triple's pieces",
    "choose_ritual": "choose ritual cards",
    "ancestor_move": "move the Ancestor",
    "elder_move": "move the Elder",
    "ceremony_play": "play a ritual card in the ceremony",
    "ceremony_effect": "carry out the ritual card",
}

#: Waroong Wars' phases in plain words (what the seats to move are doing).
WAROONG_PHASES: Mapping[str, str] = {
    "draft": "pick groceries",
    "cook": "cook a menu or end the turn",
    "dish": "serve the dish",
    "keep": "keep a grocery or not",
    "security": "answer the Security card",
    "businesswoman": "answer the Businesswoman's offer",
}

#: The engines' picture ends with a line for developers; the display says it in plain words.
_INTERNAL_PREFIX = "to decide:"


def who(seat: int, bots: Sequence[str]) -> str:
    """``seat 2 (name)``, the name made inert."""
    return f"seat {seat} ({terminal(bots[seat])})"


def next_up(state: State, bots: Sequence[str]) -> str:
    """Who decides next and what, in plain words (``game over`` at the end)."""
    if state.is_over():
        return "game over"
    movers = state.to_move()
    seen: WireMap = state.observation(movers[0])
    pending = seen.get("pending")
    if isinstance(pending, Mapping):
        decision = str(pending.get("decision"))
        where = pending.get("territory")
        place = f" in {where!s}" if isinstance(where, str) else ""
        what = WONGAR_DECISIONS.get(decision, decision.replace("_", " "))
        return f"{who(movers[0], bots)} to {what}{place}"
    phase = str(seen.get("phase", ""))
    what = WAROONG_PHASES.get(phase, phase.replace("_", " ").replace("-", " "))
    people = " and ".join(who(s, bots) for s in movers) if len(movers) < len(bots) else "every seat"
    return f"{people} to {what}"


def _places(scores: Sequence[int]) -> list[int]:
    return [1 + sum(1 for other in scores if other > mine) for mine in scores]


def scoreboard(state: State, bots: Sequence[str]) -> Table:
    """Every seat's bot and its score now, with its place as things stand (the final places, ties
    broken by the rules, once the game is over)."""
    scores = running_scores(state)
    places = list(state.result().ranks) if state.is_over() else _places(scores)
    table = Table(box=None, pad_edge=False, show_edge=False)
    for column in ("seat", "bot", "score", "place now"):
        table.add_column(column, justify="left" if column == "bot" else "right")
    movers = set(state.to_move())
    for seat, (score, place) in enumerate(zip(scores, places)):
        mark = "▶ " if seat in movers else ""
        table.add_row(f"{mark}{seat}", Text(terminal(bots[seat])), str(score), str(place))
    return table


def audience_view(state: State, decision: DecisionRecord, count: int, bots: Sequence[str]) -> RenderableType:
    """The display after decision number ``count`` (1 for the first): scores, what just happened,
    what comes next, and the board."""
    label = state.action_label(decision.action)
    if decision.fallback:
        happened = f"the referee chose for {who(decision.seat, bots)} after a fault: {label}"
    else:
        happened = f"{who(decision.seat, bots)}: {label} ({decision.elapsed * 1000:.0f} ms)"
    picture = "\n".join(
        line for line in state.render().splitlines() if not line.startswith(_INTERNAL_PREFIX)
    )
    return Group(
        scoreboard(state, bots),
        Text(f"decision {count}: {happened}", style="yellow" if decision.fallback else "bold"),
        Text(f"next: {next_up(state, bots)}"),
        Panel(Text(picture), title=f"{state.config.game} ({state.config.variant})", title_align="left"),
    )
