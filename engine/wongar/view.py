"""What a seat sees: the observation map and the text picture.

Observation keys (all public unless noted; docs/games/wongar.md is the reference for bot authors,
and a test keeps it in step with what this module produces):

* ``seat``, ``players``, ``variant``, ``round``, ``start_player``, ``to_move``, ``territories``
  (names in board order; every per-territory list below follows it), ``neighbours`` (index lists).
* ``pieces[t][s]``: ``[discs, cubes, cylinders]`` of seat ``s`` on territory ``t``; ``supply[s]``.
* ``ancestor`` / ``elder``: ``{"territory", "owner"}``; ``boomerang``: this round's start player.
* ``scores``; ``scorpion``: ``{"space", "phase", "last"}``; ``end``: ``"scorpion"``/``"stack"`` once the
  end is triggered, else ``None``.
* ``face_up[t]``: card name or ``None``; ``stack_sizes[t]``; ``scorpions_under[t]``: setup Scorpions
  known to lie at the bottom of stack ``t``; ``stack_cards[t]``: ``{card name: count}`` of the cards
  still face down in stack ``t`` (public: every stack starts alike and every card leaving it is shown).
* ``turn``: the seat whose turn of the round it is (also during the ceremony that turn started), or
  ``None`` outside the turns (opening placement, the Elder's privilege, the end).
* ``taken[s]``: ``{card name: count}`` of the territory cards in front of seat ``s``.
* ``hand`` (private: this seat's ritual cards by name), ``hand_sizes``, ``pile_size``, ``discard``
  (by name), ``ritual_set_aside`` (ritual Scorpions beside the board), ``out_of_game`` (by name).
* Initiated: ``figure_cards[s]``: ``{"Ancestor": bool, "Elder": bool}`` still unplayed;
  ``double_held[s]``; ``setup_left[s]`` (pieces per kind still to place in the opening);
  ``territory_set_aside``; and ``pile`` (``{kind: count}``) only while this seat is choosing from it.
* ``pending``: ``{"decision": name, "seat": s, ...}`` with context: ``piece``/``steps_left``/
  ``territory`` for piece-card extras, ``piece``/``left`` for a Triple, ``left``/``purpose`` for ritual
  choices, ``from`` for figure moves, and for ceremonies ``territory``, ``trigger``, ``active``
  (seats still taking part), ``card``, ``mode``, ``piece``, ``left`` (pieces still to use).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.core import Wire, WireMap
from engine.parts import as_is, copy_rows
from engine.wongar.cards import KIND_NAMES, RITUAL_CARD_NAMES, TERRITORY_CARD_NAMES
from engine.wongar.knobs import phase_of

if TYPE_CHECKING:
    from engine.wongar.state import WongarState

_PENDING = (
    "not_started", "setup_place", "take", "piece_extra", "triple", "choose_ritual",
    "ancestor_move", "elder_move", "ceremony_play", "ceremony_effect", "over",
)
_MODES = ("remove", "move_out", "move_in")
_CHOOSE_RITUAL = _PENDING.index("choose_ritual")
_TURN_DECISIONS = range(_PENDING.index("take"), _PENDING.index("ceremony_effect") + 1)
TRIGGER_NAMES = ("Ancestor", "Elder", "Ancestor and Elder")


def _triples(values: list[int]) -> list[Wire]:
    """``[a, b, c, d, e, f]`` as ``[[a, b, c], [d, e, f]]``: counts per piece kind, seat by seat."""
    every = iter(values)
    return [[a, b, c] for a, b, c in zip(every, every, every)]


def face_up_names(face_up: list[int]) -> list[Wire]:
    """The face-up card of each territory by name, or ``None``."""
    return [TERRITORY_CARD_NAMES[c] if c >= 0 else None for c in face_up]


def pieces_view(pieces: list[int], players: int) -> list[Wire]:
    """``[t][s] -> [discs, cubes, cylinders]`` from the state's flat ``pieces``."""
    width = 3 * players
    return [_triples(pieces[at: at + width]) for at in range(0, len(pieces), width)]


def hand_view(hand: list[int]) -> dict[str, Wire]:
    """A seat's ritual cards by name, from its five counts (Scorpions never stay in a hand)."""
    return {name: hand[r] for r, name in enumerate(RITUAL_CARD_NAMES[:4])}


def _taken_view(taken: list[int]) -> dict[str, Wire]:
    return {name: taken[c] for c, name in enumerate(TERRITORY_CARD_NAMES)}


def _hand_sizes(hands: list[int]) -> list[Wire]:
    return [sum(hands[at: at + 5]) for at in range(0, len(hands), 5)]


def _doubles_held(hands: list[int]) -> list[Wire]:
    return [bool(hands[at + 3]) for at in range(0, len(hands), 5)]


def _ritual_counts(counts: list[int]) -> dict[str, Wire]:
    return {name: counts[r] for r, name in enumerate(RITUAL_CARD_NAMES)}


def _figure_cards_view(cards: list[int]) -> list[Wire]:
    return [{"Ancestor": bool(cards[at]), "Elder": bool(cards[at + 1])} for at in range(0, len(cards), 2)]


def _pile_view(pile: list[int]) -> dict[str, Wire]:
    return {name: pile.count(k) for k, name in enumerate(KIND_NAMES)}


def _stack_sizes(stacks: list[list[int]]) -> list[Wire]:
    return [len(stack) for stack in stacks]


def _stack_cards(stack: list[int]) -> dict[str, Wire]:
    return {name: stack.count(c) for c, name in enumerate(TERRITORY_CARD_NAMES)}


def _neighbours_view(neighbours: tuple[tuple[int, ...], ...]) -> list[Wire]:
    return [list(near) for near in neighbours]


def _figure_view(where: tuple[str, int]) -> dict[str, Wire]:
    return {"territory": where[0], "owner": where[1]}


def _scorpion_view(track: tuple[int, tuple[int, ...]]) -> dict[str, Wire]:
    space, phase_ends = track
    return {"space": space, "phase": phase_of(space, phase_ends), "last": phase_ends[-1]}


def _listed(values: tuple[int, ...] | tuple[str, ...] | list[int]) -> list[Wire]:
    return list(values)


def _in_turns(state: WongarState) -> bool:
    """Whether the round's turns are under way (``state.current`` is the seat whose turn it is)."""
    if state.pending == _CHOOSE_RITUAL:
        return state.after_choose == 0
    return state.pending in _TURN_DECISIONS


def _pending_view(state: WongarState) -> WireMap:
    p = state.pending
    view: WireMap = {"decision": _PENDING[p], "seat": state.actor}
    names = state.board.names
    if p == 3:
        view.update(piece=KIND_NAMES[state.kind], steps_left=state.steps, territory=names[state.card_territory])
    elif p == 4:
        view.update(piece=KIND_NAMES[state.kind] if state.kind >= 0 else None, left=state.steps)
    elif p == 5:
        view.update(left=state.choose_left, purpose="privilege" if state.after_choose == 1 else "card")
    elif p == 6:
        view["from"] = names[state.ancestor_at]
    elif p == 7:
        view["from"] = names[state.elder_at]
    elif p in (8, 9):
        view.update(
            territory=names[state.cer_territory],
            trigger=TRIGGER_NAMES[state.cer_trigger],
            active=[s for s in range(state.n) if state.cer_active >> s & 1],
        )
        if p == 9:
            view.update(
                card=RITUAL_CARD_NAMES[state.cer_card],
                mode=_MODES[state.cer_mode] if state.cer_mode >= 0 else None,
                piece=KIND_NAMES[state.cer_kind] if state.cer_kind >= 0 else None,
                left=state.cer_steps,
            )
    return view


def observe(state: WongarState, seat: int) -> WireMap:
    """Everything ``seat`` may know now (the keys are listed in this module's docstring).

    Read-only to callers: parts are kept in ``state.parts`` and handed out again while unchanged
    (see :mod:`engine.parts`), so a part that is the same object as in an earlier observation has
    not changed since.
    """
    n = state.n
    names = state.board.names
    parts = state.parts
    obs: WireMap = {
        "seat": seat,
        "players": n,
        "variant": state.config.variant,
        "round": state.round,
        "start_player": state.start,
        "to_move": parts.get("to_move", state.to_move(), as_is, _listed),
        "territories": parts.get("territories", names, as_is, _listed),
        "neighbours": parts.get("neighbours", state.board.neighbours, as_is, _neighbours_view),
        "pieces": parts.rows("pieces", state.pieces, 3 * n, _triples),
        "supply": parts.get("supply", state.supply, list.copy, _triples),
        "ancestor": parts.get("ancestor", (names[state.ancestor_at], state.ancestor_owner), as_is, _figure_view),
        "elder": parts.get("elder", (names[state.elder_at], state.elder_owner), as_is, _figure_view),
        "boomerang": state.boomerang,
        "scores": parts.get("scores", state.scores, list.copy, _listed),
        "scorpion": parts.get("scorpion", (state.track, state.phase_ends), as_is, _scorpion_view),
        "end": state.end_reason or None,
        "face_up": parts.get("face_up", state.face_up, list.copy, face_up_names),
        "stack_sizes": parts.get("stack_sizes", state.stacks, copy_rows, _stack_sizes),
        "scorpions_under": parts.get("scorpions_under", state.bottom_known, list.copy, _listed),
        "stack_cards": parts.each("stack_cards", state.stacks, _stack_cards),
        "turn": state.current if _in_turns(state) else None,
        "taken": parts.rows("taken", state.taken, 9, _taken_view),
        "hand": parts.get(("hand", seat), state.hands[seat * 5: seat * 5 + 5], as_is, hand_view),
        "hand_sizes": parts.get("hand_sizes", state.hands, list.copy, _hand_sizes),
        "pile_size": len(state.pile),
        "discard": parts.get("discard", state.discard, list.copy, _ritual_counts),
        "ritual_set_aside": state.ritual_aside,
        "out_of_game": parts.get("out_of_game", state.ritual_out, list.copy, _ritual_counts),
        "pending": parts.same("pending", _pending_view(state)),
    }
    if state.initiated:
        obs["figure_cards"] = parts.get("figure_cards", state.figure_cards, list.copy, _figure_cards_view)
        obs["double_held"] = parts.get("double_held", state.hands, list.copy, _doubles_held)
        obs["setup_left"] = parts.get("setup_left", state.setup_left, list.copy, _triples)
        obs["territory_set_aside"] = state.territory_aside
        if state._sees_pile(seat):
            obs["pile"] = parts.get("pile", state.pile, list.copy, _pile_view)
    return obs


def draw_text(state: WongarState, seat: int | None) -> str:
    """A text picture: territories, figures, face-up cards, the track, and every player."""
    n = state.n
    names = state.board.names
    width = max(len(x) for x in names)
    lines = [
        f"Wongar ({state.config.variant}, {n} players) - round {state.round}, "
        f"Scorpion on space {state.track}/{state.last_space} (phase {state.phase()})"
        + (f", end triggered by {state.end_reason}" if state.end_reason else ""),
        "",
    ]
    for t, name in enumerate(names):
        figures = ("A" if state.ancestor_at == t else "-") + ("E" if state.elder_at == t else "-")
        card = TERRITORY_CARD_NAMES[state.face_up[t]] if state.face_up[t] >= 0 else "(none)"
        cells = []
        for s in range(n):
            at = (t * n + s) * 3
            d, c, y = state.pieces[at: at + 3]
            cells.append(f"{s}:{d}/{c}/{y}")
        lines.append(
            f"{name:<{width}} {figures} stack {len(state.stacks[t]):>2} up {card:<18} " + " ".join(cells)
        )
    lines += ["", "pieces shown as seat:discs/cubes/cylinders; A = Ancestor, E = Elder", ""]
    for s in range(n):
        marks = "".join(
            mark for mark, owner in (("A", state.ancestor_owner), ("E", state.elder_owner), ("B", state.boomerang))
            if owner == s
        )
        if seat is None or seat == s:
            hand = ", ".join(
                f"{RITUAL_CARD_NAMES[r]} {state.hands[s * 5 + r]}" for r in range(4) if state.hands[s * 5 + r]
            ) or "empty"
        else:
            hand = f"{sum(state.hands[s * 5: s * 5 + 5])} cards"
        cards = ", ".join(
            f"{name} {state.taken[s * 9 + c]}" for c, name in enumerate(TERRITORY_CARD_NAMES) if state.taken[s * 9 + c]
        ) or "none"
        supply = "/".join(str(v) for v in state.supply[s * 3: s * 3 + 3])
        line = f"seat {s} {marks:<3} score {state.scores[s]:>4}  supply {supply}  hand: {hand}  cards: {cards}"
        if state.initiated:
            unplayed = [f for i, f in enumerate(("Ancestor", "Elder")) if state.figure_cards[s * 2 + i]]
            line += f"  figure cards: {', '.join(unplayed) or 'none'}"
        lines.append(line)
    lines.append(
        f"ritual pile {len(state.pile)}, discards {sum(state.discard)}, Scorpions aside {state.ritual_aside}"
    )
    if state.is_over():
        lines.append("game over: " + ", ".join(f"seat {s} {v}" for s, v in enumerate(state.scores)))
    else:
        pending = _pending_view(state)
        lines.append(f"to decide: seat {state.actor} - {pending['decision']!s}")
    return "\n".join(lines)
