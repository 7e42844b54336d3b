"""A full Wongar state from one seat's observation, the hidden information sampled (for search bots).

Everything public is copied from the observation (board, figures, face-up cards, stack contents and
sizes, taken cards, scores, the Scorpion track, discards, the pending decision and whose turn it is).
Hidden and sampled: the other seats' ritual hands and the draw pile (from the cards not accounted for;
ritual Scorpions only ever lie in the pile; Initiated Doubles stay with the seats known to hold them),
the order of each stack above its known bottom Scorpions, and the stream of future reshuffles.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from engine.core import MatchConfig, Wire, WireMap
from engine.wire import as_int, as_list, as_map, counts_by_name
from engine.wongar.cards import (
    CARD_MAJORITY_BONUS,
    KIND_NAMES,
    RITUAL_CARD_NAMES,
    RITUAL_DECK,
    TERRITORY_CARD_NAMES,
    RitualCard,
    TerritoryCard,
)
from engine.wongar.state import Mode, Pending, Trigger, WongarState

_DOUBLE = int(RitualCard.DOUBLE)
_SCORPION = int(RitualCard.SCORPION)
_T_SCORPION = int(TerritoryCard.SCORPION)
_PENDING_NAMES = {p.name.lower(): int(p) for p in Pending}
_PENDING_NAMES["choose_ritual"] = int(Pending.CHOOSE)
_TRIGGERS = {"Ancestor": int(Trigger.ANCESTOR), "Elder": int(Trigger.ELDER),
             "Ancestor and Elder": int(Trigger.ANCESTOR_AND_ELDER)}
_MODES = {m.name.lower(): int(m) for m in Mode}


def sample_state(config: MatchConfig, seat: int, observation: WireMap, rng: random.Random) -> WongarState:
    """A state whose ``observation(seat)`` is ``observation``; raises ``ValueError`` if none can be."""
    try:
        return _sample(config, seat, observation, rng)
    except (KeyError, TypeError, IndexError, AttributeError) as exc:
        raise ValueError(f"not a Wongar observation for this setup: {type(exc).__name__} {exc}") from None


def _sample(config: MatchConfig, seat: int, obs: WireMap, rng: random.Random) -> WongarState:
    state = WongarState(config, rng.getrandbits(63))
    n = state.n
    names = state.board.names
    if obs["territories"] != list(names) or obs["players"] != n or obs["seat"] != seat:
        raise ValueError("the observation is of another setup or seat")
    territory = _index_of(names)
    state.log = []
    state.round = as_int(obs["round"])
    state.start = as_int(obs["start_player"])
    turn = obs["turn"]
    state.current = state.start if turn is None else as_int(turn)
    state.turns_done = (state.current - state.start) % n if turn is not None else 0
    state.pieces = [as_int(v) for row in as_list(obs["pieces"]) for cell in as_list(row) for v in as_list(cell)]
    state.supply = [as_int(v) for cell in as_list(obs["supply"]) for v in as_list(cell)]
    ancestor, elder = as_map(obs["ancestor"]), as_map(obs["elder"])
    state.ancestor_at, state.ancestor_owner = territory(ancestor["territory"]), as_int(ancestor["owner"])
    state.elder_at, state.elder_owner = territory(elder["territory"]), as_int(elder["owner"])
    state.boomerang = as_int(obs["boomerang"])
    state.scores = [as_int(v) for v in as_list(obs["scores"])]
    state.track = as_int(as_map(obs["scorpion"])["space"])
    state.end_reason = str(obs["end"] or "")
    state.face_up = [-1 if c is None else TERRITORY_CARD_NAMES.index(str(c)) for c in as_list(obs["face_up"])]
    state.bottom_known = [as_int(v) for v in as_list(obs["scorpions_under"])]
    state.stacks = [
        _stack(counts_by_name(cards, TERRITORY_CARD_NAMES), as_int(size), known, rng)
        for cards, size, known in zip(as_list(obs["stack_cards"]), as_list(obs["stack_sizes"]), state.bottom_known)
    ]
    state.taken = [v for taken in as_list(obs["taken"]) for v in counts_by_name(taken, TERRITORY_CARD_NAMES)]
    state.discard = counts_by_name(obs["discard"], RITUAL_CARD_NAMES)
    state.ritual_aside = as_int(obs["ritual_set_aside"])
    state.ritual_out = counts_by_name(obs["out_of_game"], RITUAL_CARD_NAMES)
    if state.initiated:
        state.figure_cards = [
            int(bool(as_map(f)[figure])) for f in as_list(obs["figure_cards"]) for figure in ("Ancestor", "Elder")
        ]
        state.setup_left = [as_int(v) for cell in as_list(obs["setup_left"]) for v in as_list(cell)]
        state.territory_aside = as_int(obs["territory_set_aside"])
    _deal_hidden_rituals(state, seat, obs, rng)
    _set_pending(state, as_map(obs["pending"]), territory)
    if state.pending == Pending.OVER:
        _card_bonus(state)
    if len(state.pieces) != len(names) * n * 3 or len(state.scores) != n or len(state.stacks) != len(names):
        raise ValueError("the observation's lists do not fit this setup")
    return state


def _deal_hidden_rituals(state: WongarState, seat: int, obs: WireMap, rng: random.Random) -> None:
    """Own hand as seen; the other hands and the pile dealt from the cards not accounted for."""
    n = state.n
    own = counts_by_name(obs["hand"], RITUAL_CARD_NAMES)
    sizes = [as_int(v) for v in as_list(obs["hand_sizes"])]
    doubles = [bool(v) for v in as_list(obs["double_held"])] if state.initiated else [False] * n
    unseen = [
        total - own[r] - state.discard[r] - state.ritual_out[r] - (state.ritual_aside if r == _SCORPION else 0)
        for r, total in enumerate(RITUAL_DECK)
    ]
    state.hands = [0] * (n * 5)
    for r in range(5):
        state.hands[seat * 5 + r] = own[r]
    for o in range(n):
        if o != seat and doubles[o]:
            state.hands[o * 5 + _DOUBLE] = 1
            unseen[_DOUBLE] -= 1
            sizes[o] -= 1
    scorpions = [_SCORPION] * unseen[_SCORPION]
    unseen[_SCORPION] = 0
    pile_size = as_int(obs["pile_size"])
    if "pile" in obs:
        pile = [k for k, c in enumerate(counts_by_name(obs["pile"], KIND_NAMES)) for _ in range(c)]
        for k in pile:
            unseen[k] -= 1
        pool = [r for r, c in enumerate(unseen) for _ in range(c)]
    else:
        pool = [r for r, c in enumerate(unseen) for _ in range(c)]
        rng.shuffle(pool)
        pile = [pool.pop() for _ in range(pile_size - len(scorpions))] if pile_size >= len(scorpions) else []
    pile += scorpions
    rng.shuffle(pile)
    rng.shuffle(pool)
    if min(unseen) < 0 or len(pile) != pile_size or len(pool) != sum(sizes[o] for o in range(n) if o != seat):
        raise ValueError("the ritual cards of the observation do not add up")
    for o in range(n):
        if o != seat:
            for _ in range(sizes[o]):
                state.hands[o * 5 + pool.pop()] += 1
    state.pile = pile


def _set_pending(state: WongarState, pending: dict[str, Wire], territory: Callable[[Wire], int]) -> None:
    decision = _PENDING_NAMES[str(pending["decision"])]
    state.pending = decision
    state.actor = as_int(pending["seat"])
    if decision == Pending.PIECE_EXTRA:
        state.kind = KIND_NAMES.index(str(pending["piece"]))
        state.steps = as_int(pending["steps_left"])
        state.card_territory = territory(pending["territory"])
    elif decision == Pending.TRIPLE:
        piece = pending["piece"]
        state.kind = -1 if piece is None else KIND_NAMES.index(str(piece))
        state.steps = as_int(pending["left"])
    elif decision == Pending.CHOOSE:
        state.choose_left = as_int(pending["left"])
        state.after_choose = 1 if pending["purpose"] == "privilege" else 0
    elif decision in (Pending.CEREMONY_PLAY, Pending.CEREMONY_EFFECT):
        state.cer_territory = territory(pending["territory"])
        state.cer_trigger = _TRIGGERS[str(pending["trigger"])]
        state.cer_active = sum(1 << as_int(s) for s in as_list(pending["active"]))
        if decision == Pending.CEREMONY_EFFECT:
            state.cer_card = RITUAL_CARD_NAMES.index(str(pending["card"]))
            mode, piece = pending["mode"], pending["piece"]
            state.cer_mode = -1 if mode is None else _MODES[str(mode)]
            state.cer_kind = -1 if piece is None else KIND_NAMES.index(str(piece))
            state.cer_steps = as_int(pending["left"])
    elif decision == Pending.NOT_STARTED:
        raise ValueError("a game that has not begun has no observation to sample from")


def _card_bonus(state: WongarState) -> None:
    """The end bonus already in the scores: card majorities, as the final scoring awards them."""
    n = state.n
    for k in range(3):
        counts = [state.taken[s * 9 + k] for s in range(n)]
        best = max(counts)
        for s in range(n):
            if best and counts[s] == best:
                state.bonus[s] += CARD_MAJORITY_BONUS


def _stack(counts: list[int], size: int, known: int, rng: random.Random) -> list[int]:
    """A stack (top last) of these cards with ``min(known, size)`` Scorpions at the bottom."""
    bottom = min(known, size)
    rest = [c for c, count in enumerate(counts) for _ in range(count)]
    for _ in range(bottom):
        rest.remove(_T_SCORPION)
    rng.shuffle(rest)
    stack = [_T_SCORPION] * bottom + rest
    if len(stack) != size:
        raise ValueError("a stack's cards do not match its size")
    return stack


def _index_of(names: Sequence[str]) -> Callable[[Wire], int]:
    def index(name: Wire) -> int:
        return names.index(str(name))
    return index
