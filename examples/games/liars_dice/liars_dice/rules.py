"""The fixed rules of one Liar's Dice configuration: faces, the bid ladder and the action table.

Action ids: ``0`` is ``("challenge",)``; then every bid ``("bid", quantity, face)`` in ascending
strength, so a bid beats another exactly when its id is larger. A bid is stronger when its
quantity is larger, or its quantity equal and its face higher. With wild ones, faces 2-6 only
are bid (a one counts as every face, so it is never named).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from engine.core import ActionTable, MatchConfig, Wire

FACES = 6
CHALLENGE = 0
STANDARD = "standard"
WILD_ONES = "wild-ones"
FACE_NAMES = ("", "ones", "twos", "threes", "fours", "fives", "sixes")


@dataclass(frozen=True, slots=True)
class Rules:
    """What a configuration decides: players, dice each, wild ones, the bids by id, the table."""

    players: int
    dice: int
    wild: bool
    faces: tuple[int, ...]
    bids: tuple[tuple[int, int], ...]
    table: ActionTable

    def bid_of(self, action: int) -> tuple[int, int]:
        """``(quantity, face)`` of a bid action (``action >= 1``)."""
        return self.bids[action - 1]

    def bid_id(self, quantity: int, face: int) -> int:
        """The action id of the bid ``quantity`` x ``face``; ``ValueError`` if no such bid."""
        if face not in self.faces or not 1 <= quantity <= self.players * self.dice:
            raise ValueError(f"no bid {quantity} x {face} in this game")
        return 1 + (quantity - 1) * len(self.faces) + self.faces.index(face)

    def last_bid_id(self, dice_in_play: int) -> int:
        """The id of the strongest bid possible with ``dice_in_play`` dice left on the table."""
        return dice_in_play * len(self.faces)

    def matching(self, dice: Sequence[int], face: int) -> int:
        """How many of ``dice`` count as ``face`` (a one counts as every face when ones are wild)."""
        if self.wild:
            return sum(1 for d in dice if d == face or d == 1)
        return sum(1 for d in dice if d == face)


def bid_label(quantity: int, face: int) -> str:
    """``"bid 3 x 5"``."""
    return f"bid {quantity} x {face}"


@cache
def _rules(players: int, dice: int, wild: bool) -> Rules:
    faces = tuple(range(2 if wild else 1, FACES + 1))
    bids = tuple((q, f) for q in range(1, players * dice + 1) for f in faces)
    entries: list[tuple[tuple[Wire, ...], str]] = [(("challenge",), "challenge (liar!)")]
    entries += [(("bid", q, f), bid_label(q, f)) for q, f in bids]
    return Rules(players, dice, wild, faces, bids, ActionTable(entries))


def rules_of(config: MatchConfig) -> Rules:
    """The rules of an already validated ``config``."""
    return _rules(config.players, int(config.knobs["dice"]), config.variant == WILD_ONES)
