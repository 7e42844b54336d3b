"""Readable words for Liar's Dice events and bids, for people watching a game."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from engine.core import Wire, WireMap

_SINGULAR = ("", "one", "two", "three", "four", "five", "six")
_PLURAL = ("", "ones", "twos", "threes", "fours", "fives", "sixes")


def wire_ints(values: Iterable[int]) -> list[Wire]:
    """``values`` as a msgpack-able list (typed for observations and events)."""
    return list(values)


def count_words(quantity: int, face: int) -> str:
    """``"1 five"``, ``"4 sixes"``."""
    return f"{quantity} {(_SINGULAR if quantity == 1 else _PLURAL)[face]}"


def dice_words(count: int) -> str:
    """``"1 die"``, ``"3 dice"``."""
    return f"{count} {'die' if count == 1 else 'dice'}"


def ordinal(n: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th`` ... (up to the 6 seats of a game)."""
    return f"{n}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(n, 'th') }"


def _int(event: WireMap, key: str) -> int:
    value = event.get(key)
    return value if isinstance(value, int) else 0


def _dice(value: Wire) -> str:
    if not isinstance(value, list):
        return "?"
    return " ".join(str(d) for d in value) or "-"


def describe_event(event: WireMap, names: Sequence[str] = ()) -> str:
    """One line of words for an event this game logs (an unknown one is named by its type); seats
    are called by ``names`` where given, else ``seat N``."""
    def who(key: str) -> str:
        n = _int(event, key)
        return names[n] if n < len(names) else f"seat {n}"

    kind = event.get("type")
    if kind == "round":
        counts = event.get("dice_counts")
        held = ", ".join(map(str, counts)) if isinstance(counts, list) else "?"
        return f"Round {_int(event, 'round')}: dice in hand {held}; {who('opener')} bids first."
    if kind == "rolled":
        return f"You rolled {_dice(event.get('dice'))}."
    if kind == "bid":
        return _sentence(f"{who('seat')} bids {count_words(_int(event, 'quantity'), _int(event, 'face'))}.")
    if kind == "challenge":
        count, face = _int(event, "count"), _int(event, "face")
        verdict = "the bid stands" if _int(event, "loser") == _int(event, "seat") else "the bid fails"
        return _sentence(
            f"{who('seat')} calls {who('bidder')} a liar on {count_words(_int(event, 'quantity'), face)}: "
            f"{'there is 1' if count == 1 else f'there are {count}'}, {verdict}, and {who('loser')} loses a die."
        )
    if kind == "eliminated":
        return _sentence(f"{who('seat')} has lost its last die and places {ordinal(_int(event, 'place'))}.")
    if kind == "end":
        return _sentence(f"{who('winner')} is the last with dice and wins.")
    return f"Event {kind!s}."


def _sentence(text: str) -> str:
    """``text`` with its first letter a capital."""
    return text[:1].upper() + text[1:]
