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

from collections.abc import Mapping, Sequence

from engine.core import MatchConfig, WireMap
from engine.encoding import Builder, BuiltEncoder

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
        n, me = self.players, _int(o["seat"])
        seats = [(me + j) % n for j in range(n)]
        names = [str(t) for t in _list(o["territories"])]
        pieces, supply = _list(o["pieces"]), _list(o["supply"])
        for t in range(TERRITORIES):
            here = _list(pieces[t])
            out.numbers(f"pieces[{t}]", (_int(k) for s in seats for k in _list(here[s])),
                        "pieces on territory t: by seat from this one on, [discs, cubes, cylinders] each")
        out.numbers("supply", (_int(k) for s in seats for k in _list(supply[s])),
                    "pieces still in front of each seat from this one on, [discs, cubes, cylinders] each")
        for figure in ("ancestor", "elder"):
            where = _map(o[figure])
            out.one_hot(f"{figure}.territory", names, where["territory"], f"where the {figure} stands")
            out.one_hot(f"{figure}.owner", seats, where["owner"], f"the {figure}'s owner, from this seat on")
        out.one_hot("boomerang", seats, o["boomerang"], "the seat holding the Boomerang, from this seat on")
        out.one_hot("turn", seats, o["turn"], "the seat whose turn of the round it is (all 0 outside the turns)")
        out.numbers("scores", (_int(_list(o["scores"])[s]) for s in seats), "scores so far, from this seat on")
        scorpion = _map(o["scorpion"])
        out.numbers("scorpion", (_int(scorpion[k]) for k in ("space", "phase", "last")), "the Scorpion track: space, phase, last space")
        out.one_hot("end", ("scorpion", "stack"), o["end"], "what triggered the end (all 0 before)")
        neighbours = _list(o["neighbours"])
        for t in range(TERRITORIES):
            adjacent = {_int(a) for a in _list(neighbours[t])}
            out.numbers(f"neighbours[{t}]", (a in adjacent for a in range(TERRITORIES)), "1 for each territory adjacent to t")
        face_up, stack_cards = _list(o["face_up"]), _list(o["stack_cards"])
        for t in range(TERRITORIES):
            out.one_hot(f"face_up[{t}]", TERRITORY_CARD_NAMES, face_up[t], "territory t's face-up card (all 0: none)")
        out.numbers("stack_sizes", (_int(v) for v in _list(o["stack_sizes"])), "face-down cards left in each stack")
        out.numbers("scorpions_under", (_int(v) for v in _list(o["scorpions_under"])), "setup Scorpions known under each stack")
        for t in range(TERRITORIES):
            out.numbers(f"stack_cards[{t}]", _counts(stack_cards[t], TERRITORY_CARD_NAMES), "territory t's face-down cards by territory card name")
        taken = _list(o["taken"])
        for j, s in enumerate(seats):
            out.numbers(f"taken[{j}]", _counts(taken[s], TERRITORY_CARD_NAMES), "territory cards in front of the seat j places on, by name")
        out.numbers("hand", _counts(o["hand"], RITUAL_CARD_NAMES), "this seat's ritual cards by name")
        out.numbers("hand_sizes", (_int(_list(o["hand_sizes"])[s]) for s in seats), "each seat's ritual cards, from this seat on")
        out.numbers("pile_size", [_int(o["pile_size"])], "ritual cards in the draw pile")
        out.numbers("discard", _counts(o["discard"], RITUAL_CARD_NAMES), "the open ritual discard pile by name")
        out.numbers("ritual_set_aside", [_int(o["ritual_set_aside"])], "ritual Scorpions set aside")
        out.numbers("out_of_game", _counts(o["out_of_game"], RITUAL_CARD_NAMES), "ritual cards out of the game by name")
        out.numbers("round", [_int(o["round"])], "the round, from 1")
        out.numbers("initiated", [o["variant"] == "initiated"], "1 in the Game for the Initiated")
        self._pending(_map(o["pending"]), seats, names, out)

    def _pending(self, p: Mapping[str, object], seats: Sequence[int], names: Sequence[str], out: Builder) -> None:
        out.one_hot("pending.decision", _PENDING, p.get("decision"), "the decision waited for")
        out.one_hot("pending.seat", seats, p.get("seat"), "the seat to decide, from this seat on")
        out.one_hot("pending.piece", KIND_NAMES, p.get("piece"), "the piece kind fixed for the decision")
        out.numbers("pending.steps_left", [_int(p.get("steps_left", 0))], "piece_extra: extras left")
        out.one_hot("pending.territory", names, p.get("territory"), "the card's or the ceremony's territory")
        out.numbers("pending.left", [_int(p.get("left", 0))], "pieces or cards left to place, choose or use")
        out.one_hot("pending.purpose", ("privilege", "card"), p.get("purpose"), "choose_ritual: why")
        out.one_hot("pending.from", names, p.get("from"), "where the figure to move stands")
        out.one_hot("pending.trigger", TRIGGER_NAMES, p.get("trigger"), "the card that started the ceremony")
        active = {_int(s) for s in _list(p.get("active", []))}
        out.numbers("pending.active", (s in active for s in seats), "ceremony participants still in, from this seat on")
        out.one_hot("pending.card", RITUAL_CARD_NAMES, p.get("card"), "the ritual card being resolved")
        out.one_hot("pending.mode", _MODES, p.get("mode"), "what a Double does, once fixed")


def _counts(value: object, names: Sequence[str]) -> list[int]:
    counts = _map(value)
    return [_int(counts.get(name, 0)) for name in names]


def _int(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"expected a whole number in the observation, got {value!r}")
    return value


def _list(value: object) -> list[object]:
    if not isinstance(value, list):
        raise ValueError(f"expected a list in the observation, got {value!r}")
    return value


def _map(value: object) -> dict[str, object]:
    if not isinstance(value, dict):
        raise ValueError(f"expected a map in the observation, got {value!r}")
    return value
