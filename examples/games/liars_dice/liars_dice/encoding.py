"""Liar's Dice observations as vectors for learning agents (the engine's encoder hook).

Seats are counted from the observing seat: position 0 is the seat itself, 1 its left neighbour
(the next to bid after it), and so on, so one policy serves every seat. The layout, for ``P``
players (``18 + 2P`` floats):

========================  ======  ==============================================================
field                     length  meaning
========================  ======  ==============================================================
``my_faces``              6       how many of this seat's dice show 1, 2, ... 6
``my_dice``               1       how many dice this seat holds
``dice_left``             P       dice held by each seat, from this seat on (0 once out)
``dice_in_play``          1       all dice still in play
``bid_quantity``          1       the standing bid's quantity (0 before the round's first bid)
``bid_face``              6       one-hot of the standing bid's face (all 0 before the first bid)
``bidder``                P       one-hot of the standing bid's bidder, from this seat on
``bids_this_round``       1       bids made in this round
``round``                 1       the round, from 1
``wild_ones``             1       1 when ones are wild (the ``wild-ones`` variant)
========================  ======  ==============================================================
"""

from __future__ import annotations

from engine.core import MatchConfig, WireMap
from engine.encoding import Encoder, Field

from .rules import FACES, WILD_ONES


class LiarsDiceEncoder(Encoder):
    """The layout above for one configuration."""

    def __init__(self, config: MatchConfig) -> None:
        self.players = config.players
        self.wild = 1.0 if config.variant == WILD_ONES else 0.0
        self._fields = [
            Field("my_faces", FACES, "how many of this seat's dice show 1, 2, ... 6"),
            Field("my_dice", 1, "how many dice this seat holds"),
            Field("dice_left", self.players, "dice held by each seat, from this seat on (0 once out)"),
            Field("dice_in_play", 1, "all dice still in play"),
            Field("bid_quantity", 1, "the standing bid's quantity (0 before the round's first bid)"),
            Field("bid_face", FACES, "one-hot of the standing bid's face (all 0 before the first bid)"),
            Field("bidder", self.players, "one-hot of the standing bid's bidder, from this seat on"),
            Field("bids_this_round", 1, "bids made in this round"),
            Field("round", 1, "the round, from 1"),
            Field("wild_ones", 1, "1 when ones are wild"),
        ]
        self.size = sum(f.length for f in self._fields)

    def fields(self) -> list[Field]:
        return list(self._fields)

    def encode(self, observation: WireMap) -> list[float]:
        seat, n = _int(observation["seat"]), self.players
        dice = [_int(d) for d in _list(observation["dice"])]
        counts = [_int(c) for c in _list(observation["dice_counts"])]
        faces = [0.0] * FACES
        for die in dice:
            faces[die - 1] += 1.0
        bid = _list(observation["bid"]) if observation["bid"] is not None else []
        bid_face = [0.0] * FACES
        bidder = [0.0] * n
        if bid:
            bid_face[_int(bid[1]) - 1] = 1.0
            bidder[(_int(observation["bidder"]) - seat) % n] = 1.0
        return [
            *faces,
            float(len(dice)),
            *(float(counts[(seat + k) % n]) for k in range(n)),
            float(sum(counts)),
            float(_int(bid[0])) if bid else 0.0,
            *bid_face,
            *bidder,
            float(len(_list(observation["history"]))),
            float(_int(observation["round"])),
            self.wild,
        ]


def _int(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"expected a whole number in the observation, got {value!r}")
    return value


def _list(value: object) -> list[object]:
    if not isinstance(value, list):
        raise ValueError(f"expected a list in the observation, got {value!r}")
    return value
