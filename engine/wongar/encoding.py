"""Wongar observations as vectors for learning agents (the engine's encoder hook).

Seats are counted from the observing seat: position 0 is the seat itself, 1 its left neighbour,
and so on, so one policy serves every seat. Territories are in board order (the observation's
``territories``). Every field, for ``P`` players (``Builder`` field names; docs/rl.md lists them):
the pieces on each territory by seat and kind, the supply, the figures (territory and owner), the
Boomerang, the seat whose turn it is, the scores, the Scorpion track, how the end was triggered,
the board's adjacency, each territory's face-up card, stack size, known Scorpions and face-down
cards by name, the territory cards taken by each seat, this seat's ritual hand, every hand size,
the ritual pile, discard, set-aside Scorpions and cards out of the game, the round, the variant,
and the decision waited for (``pending``: its name, the seat, and each of its details).
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.core import MatchConfig, Wire, WireMap
from engine.encoding import Builder, BuiltEncoder
from engine.wire import as_int, as_list, as_map, counts_by_name

from .board import TERRITORIES
from .cards import KIND_NAMES, RITUAL_CARD_NAMES, TERRITORY_CARD_NAMES
from .view import TRIGGER_NAMES, _MODES, _PENDING


class WongarEncoder(BuiltEncoder):
    """The layout above for one configuration."""

    def __init__(self, config: MatchConfig, sample: WireMap) -> None:
        self.players = config.players
        super().__init__(sample)

    def build(self, observation: WireMap, out: Builder) -> None:
        o = observation
        n, me = self.players, as_int(o["seat"])
        seats = [(me + j) % n for j in range(n)]
        names = [str(t) for t in as_list(o["territories"])]
        pieces, supply = as_list(o["pieces"]), as_list(o["supply"])
        for t in range(TERRITORIES):
            here = as_list(pieces[t])
            out.numbers(f"pieces[{t}]", (as_int(k) for s in seats for k in as_list(here[s])),
                        "pieces on territory t: by seat from this one on, [discs, cubes, cylinders] each")
        out.numbers("supply", (as_int(k) for s in seats for k in as_list(supply[s])),
                    "pieces still in front of each seat from this one on, [discs, cubes, cylinders] each")
        for figure in ("ancestor", "elder"):
            where = as_map(o[figure])
            out.one_hot(f"{figure}.territory", names, where["territory"], f"where the {figure} stands")
            out.one_hot(f"{figure}.owner", seats, where["owner"], f"the {figure}'s owner, from this seat on")
        out.one_hot("boomerang", seats, o["boomerang"], "the seat holding the Boomerang, from this seat on")
        out.one_hot("turn", seats, o["turn"], "the seat whose turn of the round it is (all 0 outside the turns)")
        out.numbers("scores", (as_int(as_list(o["scores"])[s]) for s in seats), "scores so far, from this seat on")
        scorpion = as_map(o["scorpion"])
        out.numbers("scorpion", (as_int(scorpion[k]) for k in ("space", "phase", "last")), "the Scorpion track: space, phase, last space")
        out.one_hot("end", ("scorpion", "stack"), o["end"], "what triggered the end (all 0 before)")
        neighbours = as_list(o["neighbours"])
        for t in range(TERRITORIES):
            adjacent = {as_int(a) for a in as_list(neighbours[t])}
            out.numbers(f"neighbours[{t}]", (a in adjacent for a in range(TERRITORIES)), "1 for each territory adjacent to t")
        face_up, stack_cards = as_list(o["face_up"]), as_list(o["stack_cards"])
        for t in range(TERRITORIES):
            out.one_hot(f"face_up[{t}]", TERRITORY_CARD_NAMES, face_up[t], "territory t's face-up card (all 0: none)")
        out.numbers("stack_sizes", (as_int(v) for v in as_list(o["stack_sizes"])), "face-down cards left in each stack")
        out.numbers("scorpions_under", (as_int(v) for v in as_list(o["scorpions_under"])), "setup Scorpions known under each stack")
        for t in range(TERRITORIES):
            out.numbers(f"stack_cards[{t}]", counts_by_name(stack_cards[t], TERRITORY_CARD_NAMES), "territory t's face-down cards by territory card name")
        taken = as_list(o["taken"])
        for j, s in enumerate(seats):
            out.numbers(f"taken[{j}]", counts_by_name(taken[s], TERRITORY_CARD_NAMES), "territory cards in front of the seat j places on, by name")
        out.numbers("hand", counts_by_name(o["hand"], RITUAL_CARD_NAMES), "this seat's ritual cards by name")
        out.numbers("hand_sizes", (as_int(as_list(o["hand_sizes"])[s]) for s in seats), "each seat's ritual cards, from this seat on")
        out.numbers("pile_size", [as_int(o["pile_size"])], "ritual cards in the draw pile")
        out.numbers("discard", counts_by_name(o["discard"], RITUAL_CARD_NAMES), "the open ritual discard pile by name")
        out.numbers("ritual_set_aside", [as_int(o["ritual_set_aside"])], "ritual Scorpions set aside")
        out.numbers("out_of_game", counts_by_name(o["out_of_game"], RITUAL_CARD_NAMES), "ritual cards out of the game by name")
        out.numbers("round", [as_int(o["round"])], "the round, from 1")
        out.numbers("initiated", [o["variant"] == "initiated"], "1 in the Game for the Initiated")
        self._pending(as_map(o["pending"]), seats, names, out)

    def _pending(self, p: dict[str, Wire], seats: Sequence[int], names: Sequence[str], out: Builder) -> None:
        out.one_hot("pending.decision", _PENDING, p.get("decision"), "the decision waited for")
        out.one_hot("pending.seat", seats, p.get("seat"), "the seat to decide, from this seat on")
        out.one_hot("pending.piece", KIND_NAMES, p.get("piece"), "the piece kind fixed for the decision")
        out.numbers("pending.steps_left", [as_int(p.get("steps_left", 0))], "piece_extra: extras left")
        out.one_hot("pending.territory", names, p.get("territory"), "the card's or the ceremony's territory")
        out.numbers("pending.left", [as_int(p.get("left", 0))], "pieces or cards left to place, choose or use")
        out.one_hot("pending.purpose", ("privilege", "card"), p.get("purpose"), "choose_ritual: why")
        out.one_hot("pending.from", names, p.get("from"), "where the figure to move stands")
        out.one_hot("pending.trigger", TRIGGER_NAMES, p.get("trigger"), "the card that started the ceremony")
        active = {as_int(s) for s in as_list(p.get("active", []))}
        out.numbers("pending.active", (s in active for s in seats), "ceremony participants still in, from this seat on")
        out.one_hot("pending.card", RITUAL_CARD_NAMES, p.get("card"), "the ritual card being resolved")
        out.one_hot("pending.mode", _MODES, p.get("mode"), "what a Double does, once fixed")

