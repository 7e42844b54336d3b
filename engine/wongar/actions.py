"""Wongar's action table: every action a configuration can offer, with ids computed arithmetically.

Groups, in id order (``T`` territories, ``n`` players; names are territory, kind and card names):

=================================  ==========  ===================================================
form                               count       offered when
=================================  ==========  ===================================================
``("take", territory)``            T           taking the face-up territory card of a territory
``("play_card", figure)``          2 (Init.)   Initiated: playing one's own Ancestor/Elder card
``("place", kind, territory)``     3T          placing one piece from supply (piece card extras,
                                               Triple, Initiated opening placement)
``("draw_ritual",)``               1 (basic)   piece card extra: draw one ritual card blind
``("choose", kind)``               3 (Init.)   Initiated: take a ritual card of that kind from the
                                               pile (privilege, piece card extra, Four ritual cards)
``("stop",)``                      1           piece card: forgo the remaining extras
``("ancestor_to", territory)``     T           moving the Ancestor figure (adjacent)
``("elder_to", territory)``        T           moving the Elder figure (distance 1 or 2)
``("play", card)``                 4           ceremony: play a Disc/Cube/Cylinder/Double card
``("pass",)``                      1           ceremony: pass (and drop out of this ceremony)
``("remove", kind, seat)``         3n          ceremony effect A: return seat's piece to its owner
``("move_out", kind, territory)``  3T          ceremony effect B: own piece to that neighbour
``("move_in", kind, territory)``   3T          ceremony effect C: own piece from that neighbour
=================================  ==========  ===================================================
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from engine.core import ActionTable, Wire
from engine.wongar.board import Board
from engine.wongar.cards import KIND_NAMES, KINDS, RITUAL_CARD_NAMES

FIGURE_CARD_NAMES = ("Ancestor", "Elder")
PLAYABLE_RITUALS = 4


@dataclass(frozen=True, slots=True)
class Layout:
    """The first id of each action group (``-1`` for a group this variant never offers)."""

    territories: int
    players: int
    take: int
    play_card: int
    place: int
    draw: int
    choose: int
    stop: int
    ancestor_to: int
    elder_to: int
    play: int
    pass_: int
    remove: int
    move_out: int
    move_in: int
    size: int


@cache
def layout(territories: int, players: int, initiated: bool) -> Layout:
    """The id layout for a board size, player count and variant."""
    t = territories
    at = 0
    take, at = at, at + t
    play_card, at = (at, at + 2) if initiated else (-1, at)
    place, at = at, at + KINDS * t
    draw, at = (-1, at) if initiated else (at, at + 1)
    choose, at = (at, at + KINDS) if initiated else (-1, at)
    stop, at = at, at + 1
    ancestor_to, at = at, at + t
    elder_to, at = at, at + t
    play, at = at, at + PLAYABLE_RITUALS
    pass_, at = at, at + 1
    remove, at = at, at + KINDS * players
    move_out, at = at, at + KINDS * t
    move_in, at = at, at + KINDS * t
    return Layout(
        t, players, take, play_card, place, draw, choose, stop, ancestor_to, elder_to, play, pass_,
        remove, move_out, move_in, at,
    )


def build_table(lay: Layout, board: Board) -> ActionTable:
    """The :class:`ActionTable` whose ids follow ``lay``."""
    names = board.names
    entries: list[tuple[tuple[Wire, ...], str]] = []
    entries += [(("take", n), f"take the card in {n}") for n in names]
    if lay.play_card >= 0:
        entries += [(("play_card", f), f"play your {f} card") for f in FIGURE_CARD_NAMES]
    entries += [(("place", k, n), f"place a {k} in {n}") for k in KIND_NAMES for n in names]
    if lay.draw >= 0:
        entries.append((("draw_ritual",), "draw a ritual card"))
    if lay.choose >= 0:
        entries += [(("choose", k), f"take a {k} ritual card from the pile") for k in KIND_NAMES]
    entries.append((("stop",), "stop (no more pieces or draws)"))
    entries += [(("ancestor_to", n), f"move the Ancestor to {n}") for n in names]
    entries += [(("elder_to", n), f"move the Elder to {n}") for n in names]
    entries += [
        (("play", c), f"play a {c} ritual card") for c in RITUAL_CARD_NAMES[:PLAYABLE_RITUALS]
    ]
    entries.append((("pass",), "pass (leave this ceremony)"))
    entries += [
        (("remove", k, s), f"return seat {s}'s {k} to its owner")
        for k in KIND_NAMES
        for s in range(lay.players)
    ]
    entries += [(("move_out", k, n), f"move your {k} out to {n}") for k in KIND_NAMES for n in names]
    entries += [(("move_in", k, n), f"bring your {k} in from {n}") for k in KIND_NAMES for n in names]
    assert len(entries) == lay.size
    return ActionTable(entries)
