"""What a seat sees: the observation map for bots and the text picture for people."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.core import Wire, WireMap
from engine.parts import copy_rows

from .words import count_words, describe_event, dice_words, ordinal, wire_ints

if TYPE_CHECKING:
    from .state import LiarsDiceState

GAME_NAME = "liars_dice"


def observation(st: LiarsDiceState, seat: int) -> WireMap:
    """Exactly what ``seat`` may know: its own dice, every seat's dice count, the standing bid,
    this round's bids, who is out, and the latest challenge with the dice it revealed.

    Read-only to callers: its list and map parts are kept in ``st.parts`` and handed out again
    while unchanged (see :mod:`engine.parts`; ``last_challenge`` is the very map the state keeps).
    """
    parts = st.parts
    bid: Wire = None
    if st.bid:
        quantity, face = st.rules.bid_of(st.bid)
        bid = parts.same("bid", [quantity, face])
    return {
        "game": GAME_NAME,
        "variant": st.config.variant,
        "seat": seat,
        "players": st.rules.players,
        "dice_each": st.rules.dice,
        "round": st.round,
        "dice": parts.get(("dice", seat), st.dice[seat], list.copy, _sorted),
        "dice_counts": parts.get("dice_counts", st.dice, copy_rows, _lengths),
        "to_move": st.turn if st.turn >= 0 else None,
        "bid": bid,
        "bidder": st.bidder if st.bid else None,
        "history": parts.get("history", st.history, copy_rows, _rows),
        "eliminated": parts.get("eliminated", st.out, list.copy, wire_ints),
        "last_challenge": st.last_challenge,
    }


def _sorted(dice: list[int]) -> list[Wire]:
    return wire_ints(sorted(dice))


def _lengths(rows: list[list[int]]) -> list[Wire]:
    return wire_ints(len(row) for row in rows)


def _rows(rows: list[list[int]]) -> list[Wire]:
    return [wire_ints(row) for row in rows]


def render(st: LiarsDiceState, seat: int | None = None) -> str:
    """A text picture: omniscient (``seat=None``) or as ``seat`` sees it."""
    rules = st.rules
    head = f"Liar's Dice ({st.config.variant}, {dice_words(rules.dice)} each), round {st.round}"
    if st.is_over():
        head += f": over, seat {st.alive()[0]} wins"
    else:
        head += f", seat {st.turn} to act"
    lines = [head]
    if st.bid and not st.is_over():
        quantity, face = rules.bid_of(st.bid)
        lines.append(f"standing bid: {count_words(quantity, face)} by seat {st.bidder}")
    elif not st.is_over():
        lines.append("no bid yet this round")
    for s, held in enumerate(st.dice):
        if not held:
            lines.append(f"seat {s}: out ({ordinal(st.out.index(s) + 1)} out)")
        elif seat is None or seat == s:
            lines.append(f"seat {s}: {' '.join(map(str, sorted(held)))}")
        else:
            lines.append(f"seat {s}: {dice_words(len(held))} hidden")
    if st.history:
        lines.append("bids: " + ", ".join(f"seat {s} {q} x {f}" for s, q, f in st.history))
    if st.last_challenge is not None:
        lines.append("last challenge: " + describe_event({"type": "challenge", **st.last_challenge}))
    return "\n".join(lines)
