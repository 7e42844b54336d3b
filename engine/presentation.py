"""How a game's matches read to people: part of the engine contract, optional for a game.

:meth:`engine.core.Game.presentation` returns a :class:`Presentation`. Every method has a generic
default, so a game that provides nothing is still shown: its events as their type and fields, its
actions by their labels, the seats to move, the text picture of :meth:`~engine.core.State.render`,
and on the published site every key of the observation as a table. A game gives its own words for
its event types in :attr:`Presentation.events`, overrides the methods it can say better, and may ship a viewer for the site: a script (and a style sheet) kept as
package data beside its code, returned by :meth:`Presentation.viewer_script` and
:meth:`Presentation.viewer_style`.

``names`` arguments hold what each seat is called in text, by seat (e.g. ``seat 2 (alice)``);
they are the caller's to make safe for where the text is shown.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from importlib import resources
from typing import TYPE_CHECKING

from arena_bot.wire_types import Wire, WireMap

if TYPE_CHECKING:
    from engine.core import State

#: Event fields that hold a seat number, read as that seat's name.
SEAT_FIELDS = frozenset({"seat", "to", "by", "target"})

#: One event type's words: ``(event, names) -> text``.
EventWords = Callable[[WireMap, Sequence[str]], str]


class Presentation:
    """The generic view of a game; subclass it to give a game its own words and viewer."""

    #: A game's own words for its event types (the others read generically); see :meth:`event_text`.
    events: Mapping[str, EventWords] = {}

    def event_text(self, event: WireMap, names: Sequence[str]) -> str:
        """One engine event in plain words: the words :attr:`events` has for its type, else its
        type then its fields (seats by their names)."""
        words = self.events.get(str(event.get("type")))
        return words(event, names) if words else generic_event_text(event, names)

    def action_text(self, state: State, seat: int, action: int) -> str:
        """``seat``'s ``action`` in plain words. ``state`` is the match it is played in, just before
        or just after it is applied (callers differ), so the words should not depend on which."""
        return state.action_label(action)

    def next_text(self, state: State, names: Sequence[str]) -> str:
        """Who decides now and what, in plain words (``game over`` once it is over)."""
        return f"{movers_text(state, names)} to decide" if not state.is_over() else "game over"

    def running_scores(self, state: State) -> list[int]:
        """Every seat's score at this moment, hidden parts included; empty while the game does not
        say (the generic view knows the scores only once the game is over)."""
        return list(state.result().scores) if state.is_over() else []

    def score_breakdown(self, state: State, events: Sequence[WireMap]) -> list[tuple[str, list[int]]]:
        """Where the final scores came from, as rows of a label in plain words and the points of
        each seat, whose columns sum to the final scores (``state.result().scores``). ``state`` is
        the finished match, ``events`` every engine event of it in order, private ones included
        (the breakdown is shown once the game is over). The generic view has one row."""
        return [("final score", list(state.result().scores))]

    def picture(self, state: State) -> str:
        """The whole position as text for people watching (omniscient)."""
        return state.render()

    def viewer_script(self) -> str | None:
        """The site viewer's script for this game, or ``None`` for the generic view.

        The script runs after the site's ``replay.js`` and registers its drawing as
        ``ArenaReplay.games[<game name>] = (container, ctx) => ...`` and, optionally, a one-line
        status as ``ArenaReplay.games[<game name> + ":status"] = (view, data, help) => string``.
        ``ctx.base()`` is the view the page draws from (what every seat saw joined with what one
        seat saw alone) and ``ctx.before()`` the same seat's view one step earlier, to mark what
        the last action changed (``null`` at the deal and on the live page).
        It must put text into the page as text only (``textContent``, ``ctx.el``), never markup.
        """
        return None

    def viewer_style(self) -> str | None:
        """The site viewer's style sheet for this game, or ``None``."""
        return None


def package_text(package: str, name: str) -> str:
    """The text of the file ``name`` kept as package data in ``package`` (a viewer's script or
    style). Raises ``FileNotFoundError`` if it is missing."""
    return resources.files(package).joinpath(name).read_text(encoding="utf-8")


def seat_names(bots: Sequence[str]) -> list[str]:
    """What each seat is called in text: ``seat 2 (alice)``."""
    return [f"seat {seat} ({bot})" for seat, bot in enumerate(bots)]


def movers_text(state: State, names: Sequence[str]) -> str:
    """The seats to move by name: ``seat 0 (a) and seat 2 (c)``, or ``every seat``."""
    movers = state.to_move()
    if len(movers) > 1 and len(movers) == len(names):
        return "every seat"
    return " and ".join(names[s] for s in movers)


def generic_event_text(event: WireMap, names: Sequence[str]) -> str:
    """``type in words: field value, ...``; a seat field reads as that seat's name."""
    parts = []
    for key, value in event.items():
        if key == "type":
            continue
        if key in SEAT_FIELDS and isinstance(value, int) and not isinstance(value, bool) and 0 <= value < len(names):
            parts.append(names[value] if key == "seat" else f"{plain(key)} {names[value]}")
        else:
            parts.append(f"{plain(key)} {value_text(value)}")
    kind = plain(str(event.get("type", "event")))
    return f"{kind}: {', '.join(parts)}" if parts else kind


def seat_name(event: WireMap, names: Sequence[str], field: str = "seat") -> str:
    """The name of the seat in the event's ``field``, or ``a seat`` where the event has none."""
    seat = event.get(field)
    if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(names):
        return names[seat]
    return "a seat"


def value_text(value: Wire) -> str:
    """A field's value in words: a list joined, counts as ``2× name``, ``none`` for nothing."""
    if value is None:
        return "none"
    if isinstance(value, list):
        return ", ".join(value_text(v) for v in value) or "none"
    if isinstance(value, dict):
        counts = list(value.items())
        if all(isinstance(v, int) and not isinstance(v, bool) for _, v in counts):
            return ", ".join(f"{v}× {k}" if isinstance(v, int) and v > 1 else str(k) for k, v in counts if v) or "none"
        return " ".join(f"{plain(str(k))} {value_text(v)}" for k, v in counts)
    if isinstance(value, bytes):
        return value.hex()
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def plain(word: str) -> str:
    """A key in plain words: ``end_turn`` and ``end-turn`` read ``end turn``."""
    return " ".join(word.replace("_", " ").replace("-", " ").split())
