"""Readable words for Liar's Dice events and bids, for people watching a game."""

from __future__ import annotations

from collections.abc import Iterable

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


def describe_event(event: WireMap) -> str:
    """One line of words for an event this game logs (an unknown one is named by its type)."""
    kind = event.get("type")
    seat = _int(event, "seat")
    if kind == "round":
        counts = event.get("dice_counts")
        held = ", ".join(map(str, counts)) if isinstance(counts, list) else "?"
        return f"Round {_int(event, 'round')}: dice in hand {held}; seat {_int(event, 'opener')} bids first."
    if kind == "rolled":
        return f"You rolled {_dice(event.get('dice'))}."
    if kind == "bid":
        return f"Seat {seat} bids {count_words(_int(event, 'quantity'), _int(event, 'face'))}."
    if kind == "challenge":
        bidder, loser = _int(event, "bidder"), _int(event, "loser")
        count, face = _int(event, "count"), _int(event, "face")
        verdict = "the bid stands" if loser == seat else "the bid fails"
        return (
            f"Seat {seat} calls seat {bidder} a liar on {count_words(_int(event, 'quantity'), face)}: "
            f"{'there is 1' if count == 1 else f'there are {count}'}, {verdict}, and seat {loser} loses a die."
        )
    if kind == "eliminated":
        return f"Seat {seat} has lost its last die and places {ordinal(_int(event, 'place'))}."
    if kind == "end":
        return f"Seat {_int(event, 'winner')} is the last with dice and wins."
    return f"Event {kind!s}."
