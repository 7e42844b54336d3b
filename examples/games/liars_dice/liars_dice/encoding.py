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
from engine.wire import as_int, as_list

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
        seat, n = as_int(observation["seat"]), self.players
        dice = [as_int(d) for d in as_list(observation["dice"])]
        counts = [as_int(c) for c in as_list(observation["dice_counts"])]
        faces = [0.0] * FACES
        for die in dice:
            faces[die - 1] += 1.0
        bid = as_list(observation["bid"]) if observation["bid"] is not None else []
        bid_face = [0.0] * FACES
        bidder = [0.0] * n
        if bid:
            bid_face[as_int(bid[1]) - 1] = 1.0
            bidder[(as_int(observation["bidder"]) - seat) % n] = 1.0
        return [
            *faces,
            float(len(dice)),
            *(float(counts[(seat + k) % n]) for k in range(n)),
            float(sum(counts)),
            float(as_int(bid[0])) if bid else 0.0,
            *bid_face,
            *bidder,
            float(len(as_list(observation["history"]))),
            float(as_int(observation["round"])),
            self.wild,
        ]
