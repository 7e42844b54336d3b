"""Wongar in words and pictures: the engine events and the pending decision in plain words, the
running scores, where the final scores came from, and the site's viewer (``viewer.js``, ``viewer.css`` beside this module)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine.core import State
from arena_bot.wire_types import Wire, WireMap
from engine.presentation import EventWords, Presentation, package_text, seat_name, value_text
from engine.wongar.cards import CARD_MAJORITY_BONUS, KIND_NAMES, TERRITORY_CARD_KINDS
from engine.wongar.state import WongarState

#: The pending decisions in plain words.
DECISIONS: Mapping[str, str] = {
    "not_started": "set up",
    "setup_place": "place an opening piece",
    "take": "take a territory card",
    "piece_extra": "place the card's pieces",
    "triple": "place the Triple's pieces",
    "choose_ritual": "choose ritual cards",
    "ancestor_move": "move the Ancestor",
    "elder_move": "move the Elder",
    "ceremony_play": "play a ritual card in the ceremony",
    "ceremony_effect": "carry out the ritual card",
}

#: Why the end was triggered (``end_triggered`` and ``game_end`` events), in plain words.
END_REASONS: Mapping[str, str] = {
    "scorpion": "the Scorpion reached its last space",
    "stack": "a territory stack ran out",
}


def _v(event: WireMap, field: str) -> str:
    """The event's ``field`` in words."""
    return value_text(event.get(field))


def _piece(event: WireMap) -> str:
    """The event's piece kind as a common noun: ``disc``."""
    return str(event.get("piece")).lower()


def _end_reason(event: WireMap) -> str:
    """Why the end was triggered, in plain words (the raw reason for one not known here)."""
    return END_REASONS.get(str(event.get("end")), str(event.get("end")))


def _reveal(e: WireMap, n: Sequence[str]) -> str:
    if e.get("card") == "Scorpion":
        return f"a Scorpion is revealed in {_v(e, 'territory')} by the start player, {seat_name(e, n)}"
    return f"the {_v(e, 'card')} card is revealed in {_v(e, 'territory')}"


def _game_end(e: WireMap, n: Sequence[str]) -> str:
    scores, bonus = e.get("scores"), e.get("bonus")
    rows = scores if isinstance(scores, list) else []
    extra = bonus if isinstance(bonus, list) else []
    final = ", ".join(f"{name} {value_text(score)}" + (f" (card bonus {value_text(extra[s])})" if s < len(extra) and extra[s] else "")
                      for s, (name, score) in enumerate(zip(n, rows)))
    return f"the game is over ({_end_reason(e)}); final scores: {final}"


def _ceremony(e: WireMap, n: Sequence[str]) -> str:
    who = _seats(e.get("participants"), n)
    return f"a ceremony in {_v(e, 'territory')}, called by the {_v(e, 'trigger')}; taking part: {who}"


def _scoring(e: WireMap, n: Sequence[str]) -> str:
    awards = e.get("awards")
    parts = [f"{seat_name(a, n)} {'scores ' if not i else ''}{value_text(a.get('points'))} for the most "
             f"{_piece(a)}s"
             for i, a in enumerate(x for x in (awards if isinstance(awards, list) else []) if isinstance(x, dict))]
    head = f"ceremony in {_v(e, 'territory')} (phase {_v(e, 'phase')}, called by the {_v(e, 'trigger')})"
    return f"{head}: {', '.join(parts) or 'nobody scores'}"


def _seats(value: Wire, names: Sequence[str]) -> str:
    """A list of seat numbers by name, ``nobody`` for none."""
    seats = value if isinstance(value, list) else []
    return ", ".join(seat_name({"seat": s}, names) for s in seats) or "nobody"


#: Wongar's engine events in plain words, by type: ``(event, names) -> text``; a seat's own private
#: events (``deal``, ``drew``) name it.
EVENTS: Mapping[str, EventWords] = {
    "setup": lambda e, n: (f"setup: {seat_name(e, n, 'ancestor_owner')} owns the Ancestor and the Boomerang, "
                           f"{seat_name(e, n, 'elder_owner')} owns the Elder"),
    "deal": lambda e, n: f"{seat_name(e, n)} was dealt {value_text(e.get('hand'))}",
    "round": lambda e, n: f"round {_v(e, 'round')} begins; {seat_name(e, n, 'start_player')} starts",
    "ancestor_passes": lambda e, n: f"the Ancestor passes to {seat_name(e, n, 'to')}, who takes the Boomerang",
    "privilege": lambda e, n: f"{seat_name(e, n)} owns the Elder and takes its privilege, a ritual card",
    "reveal": _reveal,
    "no_card": lambda e, n: f"{seat_name(e, n)} has no card to take and is skipped",
    "round_end": lambda e, n: f"round {_v(e, 'round')} ends",
    "end_triggered": lambda e, n: (f"the end is triggered: the {_v(e, 'territory')} stack ran out"
                                   if e.get("end") == "stack" else
                                   f"the end is triggered: {_end_reason(e)}")
                     + "; this round is the last",
    "game_end": _game_end,
    "take": lambda e, n: f"{seat_name(e, n)} took the {_v(e, 'card')} card in {_v(e, 'territory')}",
    "play_card": lambda e, n: f"{seat_name(e, n)} played their own {_v(e, 'card')} card",
    "figures_to": lambda e, n: f"{seat_name(e, n)} owns both figures now and moves them to {_v(e, 'territory')}",
    "ancestor_to": lambda e, n: f"{seat_name(e, n)} moved the Ancestor to {_v(e, 'territory')}",
    "elder_to": lambda e, n: f"{seat_name(e, n)} moved the Elder to {_v(e, 'territory')}",
    "place": lambda e, n: f"{seat_name(e, n)} placed a {_piece(e)} in {_v(e, 'territory')}",
    "draw": lambda e, n: (f"{seat_name(e, n)} drew a ritual card" if "card" not in e
                          else f"{seat_name(e, n)} gets no ritual card: none is left to draw"),
    "drew": lambda e, n: f"{seat_name(e, n)} drew the ritual card {_v(e, 'card')}",
    "reshuffle": lambda e, n: f"the ritual cards are shuffled into a new pile of {_v(e, 'pile_size')}",
    "draw_scorpion": lambda e, n: f"{seat_name(e, n)} drew a ritual Scorpion, set aside face up",
    "scorpion": lambda e, n: f"the Scorpion moves to space {_v(e, 'space')}",
    "penalty": lambda e, n: (f"the Scorpion costs {seat_name(e, n)} {_v(e, 'points')} "
                             f"point{'' if e.get('points') == 1 else 's'}, one for each seat behind"),
    "ceremony": _ceremony,
    "pass": lambda e, n: f"{seat_name(e, n)} passed and is out of the ceremony",
    "drop_out": lambda e, n: f"{seat_name(e, n)} has no piece left there and is out of the ceremony",
    "skip": lambda e, n: f"{seat_name(e, n)} has no card to play and is skipped",
    "play": lambda e, n: f"{seat_name(e, n)} played a {_v(e, 'card')} card",
    "remove": lambda e, n: f"{seat_name(e, n)} returned a {_piece(e)} of {seat_name(e, n, 'owner')} to its owner",
    "move_out": lambda e, n: f"{seat_name(e, n)} moved a {_piece(e)} out to {_v(e, 'territory')}",
    "move_in": lambda e, n: f"{seat_name(e, n)} moved a {_piece(e)} in from {_v(e, 'territory')}",
    "scoring": _scoring,
}

#: The text picture ends with a line for developers; the presentation says it in plain words.
INTERNAL_PREFIX = "to decide:"


class WongarPresentation(Presentation):
    """Wongar's words: every engine event in plain words, seats by name; one seat decides at a
    time, and its ``pending`` decision says what."""

    events = EVENTS

    def next_text(self, state: State, names: Sequence[str]) -> str:
        if state.is_over():
            return "game over"
        mover = state.to_move()[0]
        pending = state.observation(mover).get("pending")
        if not isinstance(pending, Mapping):
            return super().next_text(state, names)
        decision = str(pending.get("decision"))
        where = pending.get("territory")
        place = f" in {where!s}" if isinstance(where, str) else ""
        return f"{names[mover]} to {DECISIONS.get(decision, decision.replace('_', ' '))}{place}"

    def running_scores(self, state: State) -> list[int]:
        if not isinstance(state, WongarState):
            return super().running_scores(state)
        return [int(s) for s in state.scores]

    def score_breakdown(self, state: State, events: Sequence[WireMap]) -> list[tuple[str, list[int]]]:
        """Where the final scores came from: the ceremony majorities of each Scorpion phase (from
        the ``scoring`` events), the Scorpion penalties (``penalty`` events, negative), and the end
        bonus for the most territory cards of each piece kind (W14). Rows in which nobody scored
        are left out; the columns sum to the final scores."""
        assert isinstance(state, WongarState), "a Wongar presentation reads Wongar states"
        seats = state.n
        phases: dict[int, list[int]] = {}
        penalties = [0] * seats
        for event in events:
            if event.get("type") == "scoring" and isinstance(awards := event.get("awards"), list):
                row = phases.setdefault(_int(event.get("phase")), [0] * seats)
                for award in awards:
                    assert isinstance(award, dict)
                    row[_int(award.get("seat"))] += _int(award.get("points"))
            elif event.get("type") == "penalty":
                penalties[_int(event.get("seat"))] -= _int(event.get("points"))
        rows = [(f"phase {p} ceremony majorities", phases[p]) for p in sorted(phases)]
        rows.append(("Scorpion penalties", penalties))
        if state.is_over():
            for k, kind in enumerate(KIND_NAMES):
                counts = [state.taken[s * TERRITORY_CARD_KINDS + k] for s in range(seats)]
                best = max(counts)
                rows.append((f"most {kind} cards (end bonus)",
                             [CARD_MAJORITY_BONUS if best and c == best else 0 for c in counts]))
        return [(label, points) for label, points in rows if any(points)]

    def picture(self, state: State) -> str:
        return "\n".join(line for line in state.render().splitlines() if not line.startswith(INTERNAL_PREFIX))

    def viewer_script(self) -> str:
        return package_text("engine.wongar", "viewer.js")

    def viewer_style(self) -> str:
        return package_text("engine.wongar", "viewer.css")


def _int(value: object) -> int:
    """An event's integer field (the engine always writes one there)."""
    assert isinstance(value, int)
    return value
