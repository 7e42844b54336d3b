"""The rules of Wongar as a mutable :class:`WongarState`: setup, rounds, cards, ceremonies, end.

Representation (all small ints, for speed): territories are board indices, seats ``0..n-1``
(clockwise), piece kinds / territory cards / ritual cards the ints of :mod:`engine.wongar.cards`.

* ``pieces[(t * n + s) * 3 + k]``: seat ``s``'s pieces of kind ``k`` on territory ``t``;
  ``supply[s * 3 + k]``: those still in front of the player.
* ``stacks[t]``: the face-down territory stack, top card last; ``face_up[t]`` the revealed card or -1;
  ``bottom_known[t]``: how many setup Scorpions were pushed under stack ``t`` (public knowledge).
* ``taken[s * 9 + c]``: territory cards of kind ``c`` in front of seat ``s`` (public: each was face up
  when taken, or a Scorpion revealed in public).
* ``hands[s * 5 + r]``: seat ``s``'s ritual cards of kind ``r``; ``pile`` the draw pile, top last;
  ``discard[r]`` the open discard pile; ``ritual_aside`` ritual Scorpions set aside;
  ``ritual_out[r]`` ritual cards out of the game (Initiated: boxed and played Doubles, Scorpions).

The decision flow is described in :mod:`engine.wongar`; :meth:`WongarState.apply` resolves every
automatic step (reveals, blind draws, Scorpions, drop-outs, scoring) before returning, so the state
always rests on a decision (or the end).
"""

from __future__ import annotations

import random
from enum import IntEnum

from engine.core import (
    ActionTable,
    EngineError,
    Event,
    MatchConfig,
    Result,
    State,
    Wire,
    WireMap,
    ranks_from_keys,
    seeded_rng,
)
from engine.parts import Parts
from engine.wongar.actions import Layout, build_table, layout
from engine.wongar.board import Board, board_from_knob
from engine.wongar.cards import (
    CARD_MAJORITY_BONUS,
    INITIATED_FIGURE_CARDS_PER_STACK,
    KIND_NAMES,
    PIECES_PER_PLAYER,
    RITUAL_CARD_NAMES,
    RITUAL_DECK,
    STACK_CARDS,
    STARTING_PIECES_PER_KIND,
    TERRITORY_CARD_NAMES,
    RitualCard,
    TerritoryCard,
)
from engine.wongar.knobs import phase_of, points_table, track_phase_ends
from engine.wongar.view import TRIGGER_NAMES, draw_text, face_up_names, hand_view, observe, pieces_view


class Pending(IntEnum):
    """What kind of decision the state rests on."""

    NOT_STARTED = 0
    SETUP_PLACE = 1
    TAKE = 2
    PIECE_EXTRA = 3
    TRIPLE = 4
    CHOOSE = 5
    ANCESTOR_MOVE = 6
    ELDER_MOVE = 7
    CEREMONY_PLAY = 8
    CEREMONY_EFFECT = 9
    OVER = 10


class Trigger(IntEnum):
    """Which card started a ceremony: the column of the points table."""

    ANCESTOR = 0
    ELDER = 1
    ANCESTOR_AND_ELDER = 2


class Mode(IntEnum):
    """How a ritual card is used in a ceremony (rulebook options A, B, C)."""

    REMOVE = 0
    MOVE_OUT = 1
    MOVE_IN = 2


# Plain ints for the hot paths (an IntEnum member costs an attribute lookup per use).
_SETUP_PLACE, _TAKE, _EXTRA, _TRIPLE, _CHOOSE = (
    int(Pending.SETUP_PLACE), int(Pending.TAKE), int(Pending.PIECE_EXTRA), int(Pending.TRIPLE), int(Pending.CHOOSE),
)
_ANC_MOVE, _ELD_MOVE, _CER_PLAY, _CER_EFFECT, _OVER = (
    int(Pending.ANCESTOR_MOVE), int(Pending.ELDER_MOVE), int(Pending.CEREMONY_PLAY),
    int(Pending.CEREMONY_EFFECT), int(Pending.OVER),
)
_T_TRIPLE, _T_FOUR, _T_ANC, _T_ELD, _T_SCORP = (
    int(TerritoryCard.TRIPLE), int(TerritoryCard.FOUR_RITUAL), int(TerritoryCard.ANCESTOR),
    int(TerritoryCard.ELDER), int(TerritoryCard.SCORPION),
)
_R_DOUBLE, _R_SCORP = int(RitualCard.DOUBLE), int(RitualCard.SCORPION)
_REMOVE, _OUT, _IN = int(Mode.REMOVE), int(Mode.MOVE_OUT), int(Mode.MOVE_IN)
_AFTER_TURN, _AFTER_PRIVILEGE = 0, 1
_ALL_KINDS = (0, 1, 2)
_ALL_MODES = (0, 1, 2)


class WongarState(State):
    """A Wongar position: the constructor deals, :meth:`begin` starts play (the game does both)."""

    __slots__ = (
        "config", "log", "seed", "n", "initiated", "board", "lay", "points", "phase_ends", "last_space",
        "pieces", "supply", "ancestor_at", "elder_at", "ancestor_owner", "elder_owner", "boomerang",
        "scores", "track", "stacks", "bottom_known", "face_up", "taken", "territory_aside",
        "figure_cards", "territory_box", "hands", "pile", "discard", "ritual_aside", "ritual_out",
        "setup_left", "round", "start", "current", "turns_done", "pending", "actor", "steps", "kind",
        "card_territory", "choose_left", "after_choose", "cer_territory", "cer_trigger", "cer_active",
        "cer_card", "cer_mode", "cer_kind", "cer_steps", "end_reason", "reshuffles", "bonus",
        "_private", "parts",
    )

    config: MatchConfig
    log: list[Event]

    # ------------------------------------------------------------------ setup

    def __init__(self, config: MatchConfig, seed: int) -> None:
        """Everything the setup does before the first decision: stacks, reveals, pieces, hands, owners.

        Each deck is shuffled from its own stream derived from ``seed``; the state rests at
        :attr:`Pending.NOT_STARTED` until :meth:`begin` (tests adjust positions in between).
        """
        n = config.players
        self.config = config
        self.log = []
        self.seed = seed
        self.n = n
        self.initiated = config.variant == "initiated"
        self.board = board_from_knob(str(config.knobs["board"]))
        nt = len(self.board.names)
        self.lay = layout(nt, n, self.initiated)
        self.points = points_table(str(config.knobs["ceremony_points"]))
        self.phase_ends = track_phase_ends(str(config.knobs["scorpion_track"]))
        self.last_space = self.phase_ends[-1]
        self._private = tuple(frozenset({s}) for s in range(n))
        self.parts = Parts()
        self.scores = [0] * n
        self.track = 1
        self.round = 0
        self.start = self.current = self.turns_done = 0
        self.pending = int(Pending.NOT_STARTED)
        self.actor = -1
        self.steps = self.kind = self.card_territory = self.choose_left = 0
        self.after_choose = _AFTER_TURN
        self.cer_territory = self.cer_trigger = self.cer_active = 0
        self.cer_card = self.cer_mode = self.cer_kind = -1
        self.cer_steps = 0
        self.end_reason = ""
        self.reshuffles = 0
        self.bonus = [0] * n
        self._deal_territory_cards(seed)
        self._deal_ritual_cards(seed)
        owners = seeded_rng(seed, "wongar", "owners").sample(range(n), 2)
        self.ancestor_owner = self.boomerang = owners[0]
        self.elder_owner = owners[1]
        self.ancestor_at = self.board.hands
        self.elder_at = self.board.foot
        self._deal_pieces(seed)
        self.log.append(Event(None, {
            "type": "setup", "ancestor_owner": owners[0], "elder_owner": owners[1],
            "face_up": face_up_names(self.face_up), "pieces": pieces_view(self.pieces, n),
        }))

    def _deal_territory_cards(self, seed: int) -> None:
        nt = len(self.board.names)
        self.stacks = []
        self.bottom_known = [0] * nt
        self.face_up = [-1] * nt
        self.taken = [0] * (self.n * 9)
        self.territory_aside = 0
        self.figure_cards = [1 if self.initiated else 0] * (self.n * 2)
        self.territory_box = (nt * INITIATED_FIGURE_CARDS_PER_STACK - 2 * self.n) if self.initiated else 0
        for t in range(nt):
            cards = [c for c, count in enumerate(STACK_CARDS) for _ in range(count)]
            if self.initiated:
                cards.remove(_T_ANC)
                cards.remove(_T_ELD)
            seeded_rng(seed, "wongar", "stack", t).shuffle(cards)
            while True:
                card = cards.pop()
                if card != _T_SCORP:
                    self.face_up[t] = card
                    break
                cards.insert(0, card)
                self.bottom_known[t] += 1
            self.stacks.append(cards)

    def _deal_ritual_cards(self, seed: int) -> None:
        n = self.n
        self.hands = [0] * (n * 5)
        self.discard = [0] * 5
        self.ritual_aside = 0
        self.ritual_out = [0] * 5
        deck = [r for r, count in enumerate(RITUAL_DECK) for _ in range(count)]
        if self.initiated:
            deck = [r for r in deck if r < _R_DOUBLE]
            self.ritual_out[_R_SCORP] = RITUAL_DECK[_R_SCORP]
            self.ritual_out[_R_DOUBLE] = RITUAL_DECK[_R_DOUBLE] - n
            for s in range(n):
                self.hands[s * 5 + _R_DOUBLE] = 1
        rng = seeded_rng(seed, "wongar", "ritual")
        rng.shuffle(deck)
        returned: list[int] = []
        for s in range(n):
            for _ in range(2):
                card = deck.pop()
                while card == _R_SCORP:
                    returned.append(card)
                    card = deck.pop()
                self.hands[s * 5 + card] += 1
        deck += returned
        rng.shuffle(deck)
        self.pile = deck
        for s in range(n):
            hand = hand_view(self.hands[s * 5: s * 5 + 5])
            self.log.append(Event(self._private[s], {"type": "deal", "seat": s, "hand": hand}))

    def _deal_pieces(self, seed: int) -> None:
        n = self.n
        nt = len(self.board.names)
        self.pieces = [0] * (nt * n * 3)
        start = STARTING_PIECES_PER_KIND
        self.supply = [PIECES_PER_PLAYER[k] - (0 if self.initiated else start) for _ in range(n) for k in range(3)]
        self.setup_left = [start if self.initiated else 0] * (n * 3)
        if self.initiated:
            return
        bag = [s * 3 + k for s in range(n) for k in range(3) for _ in range(start)]
        seeded_rng(seed, "wongar", "bag").shuffle(bag)
        for t in range(nt):
            count = 2 * n if t in (self.board.hands, self.board.foot) else n
            for _ in range(count):
                code = bag.pop()
                self.pieces[t * n * 3 + code] += 1

    def begin(self) -> None:
        """Start play: the Initiated opening placement (if pieces remain to place), or the first round."""
        if self.pending != Pending.NOT_STARTED:
            raise EngineError("the game has already begun")
        if self.initiated and any(self.setup_left):
            self.pending = _SETUP_PLACE
            self.start = self.actor = self.ancestor_owner
        else:
            self._start_round()

    # ------------------------------------------------------------------ contract

    def table(self) -> ActionTable:
        """The action table of this configuration."""
        return build_table_for(self.lay, self.board)

    def to_move(self) -> tuple[int, ...]:
        """The one seat to decide, or ``()`` once the game is over."""
        if self.pending == _OVER or self.actor < 0:
            return ()
        return (self.actor,)

    def is_over(self) -> bool:
        """Whether the final scoring has happened."""
        return self.pending == _OVER

    def legal_actions(self, seat: int) -> list[int]:
        """Ascending legal ids for ``seat`` (see :mod:`engine.wongar.actions` for the groups)."""
        if seat != self.actor:
            return []
        p = self.pending
        lay = self.lay
        nt = lay.territories
        if p == _TAKE:
            base = lay.take
            fu = self.face_up
            out = [base + t for t in range(nt) if fu[t] >= 0]
            if self.initiated:
                fc = self.figure_cards
                if fc[seat * 2]:
                    out.append(lay.play_card)
                if fc[seat * 2 + 1]:
                    out.append(lay.play_card + 1)
            return out
        if p == _EXTRA:
            k = self.kind
            out = []
            if self.supply[seat * 3 + k]:
                first = lay.place + k * nt
                out = list(range(first, first + nt))
            if self.initiated:
                out += self._choice_actions()
            elif self.pile or any(self.discard):
                out.append(lay.draw)
            out.append(lay.stop)
            return out
        if p == _TRIPLE:
            out = []
            sup = self.supply
            for k in (_ALL_KINDS if self.kind < 0 else (self.kind,)):
                if sup[seat * 3 + k]:
                    first = lay.place + k * nt
                    out += range(first, first + nt)
            return out
        if p == _CER_PLAY:
            out = []
            possible = [self._can_affect(seat, k) for k in _ALL_KINDS]
            h = self.hands
            for k in _ALL_KINDS:
                if h[seat * 5 + k] and possible[k]:
                    out.append(lay.play + k)
            if h[seat * 5 + _R_DOUBLE] and any(possible):
                out.append(lay.play + _R_DOUBLE)
            out.append(lay.pass_)
            return out
        if p == _CER_EFFECT:
            return self._effect_actions(seat)
        if p == _ANC_MOVE:
            return [lay.ancestor_to + t for t in self.board.neighbours[self.ancestor_at]]
        if p == _ELD_MOVE:
            return [lay.elder_to + t for t in self.board.within_two[self.elder_at]]
        if p == _CHOOSE:
            return self._choice_actions()
        if p == _SETUP_PLACE:
            out = []
            left = self.setup_left
            for k in _ALL_KINDS:
                if left[seat * 3 + k]:
                    first = lay.place + k * nt
                    out += range(first, first + nt)
            return out
        return []

    def apply(self, seat: int, action: int) -> None:
        """Play ``action`` for ``seat`` and resolve everything automatic up to the next decision.

        Trusted fast path: legality is not checked (use :meth:`apply_checked`).
        """
        p = self.pending
        lay = self.lay
        nt = lay.territories
        if p == _TAKE:
            if action < lay.take + nt:
                self._take(seat, action - lay.take)
            else:
                self._play_figure_card(seat, action - lay.play_card)
        elif p == _EXTRA:
            if lay.place <= action < lay.place + 3 * nt:
                self._place(seat, self.kind, (action - lay.place) % nt)
            elif action == lay.draw:
                self._draw(seat, 1)
            elif action == lay.stop:
                self._end_turn()
                return
            else:
                self._choose(seat, action - lay.choose)
            self.steps -= 1
            self._offer_extra()
        elif p == _TRIPLE:
            k, t = divmod(action - lay.place, nt)
            self._place(seat, k, t)
            self.kind = k
            self.steps -= 1
            if self.steps > 0 and self.supply[seat * 3 + k]:
                return
            self._end_turn()
        elif p == _CER_PLAY:
            if action == lay.pass_:
                self.cer_active &= ~(1 << seat)
                self.log.append(Event(None, {"type": "pass", "seat": seat}))
                self._ceremony_next((seat + 1) % self.n)
            else:
                self._play_ritual(seat, action - lay.play)
        elif p == _CER_EFFECT:
            self._effect(seat, action)
        elif p == _ANC_MOVE:
            self._move_ancestor(seat, action - lay.ancestor_to)
        elif p == _ELD_MOVE:
            self._move_elder(seat, action - lay.elder_to)
        elif p == _CHOOSE:
            self._choose(seat, action - lay.choose)
            self.choose_left -= 1
            if self.choose_left > 0 and self._refill_for_choice():
                return
            if self.after_choose == _AFTER_PRIVILEGE:
                self._begin_turns()
            else:
                self._end_turn()
        elif p == _SETUP_PLACE:
            k, t = divmod(action - lay.place, nt)
            self.setup_left[seat * 3 + k] -= 1
            self._place(seat, k, t)
            nxt = (seat + 1) % self.n
            if any(self.setup_left[nxt * 3: nxt * 3 + 3]):
                self.actor = nxt
            else:
                self._start_round()

    # ------------------------------------------------------------------ round structure

    def _start_round(self) -> None:
        self.round += 1
        n = self.n
        if self.round > 1:
            if self.ancestor_owner == self.boomerang:
                self.ancestor_owner = (self.ancestor_owner + 1) % n
                self.log.append(Event(None, {"type": "ancestor_passes", "to": self.ancestor_owner}))
            self.boomerang = self.ancestor_owner
        self.start = self.boomerang
        self.log.append(Event(None, {"type": "round", "round": self.round, "start_player": self.start}))
        if self.round > 1:
            self._reveal()
        eo = self.elder_owner
        self.log.append(Event(None, {"type": "privilege", "seat": eo}))
        if self.initiated:
            if self._offer_choice(eo, 1, _AFTER_PRIVILEGE):
                return
        else:
            self._draw(eo, 1)
        self._begin_turns()

    def _reveal(self) -> None:
        s = self.start
        for t, stack in enumerate(self.stacks):
            if self.face_up[t] >= 0 or not stack:
                continue
            while stack:
                card = stack.pop()
                if card != _T_SCORP:
                    self.face_up[t] = card
                    self.log.append(Event(None, {
                        "type": "reveal", "territory": self.board.names[t], "card": TERRITORY_CARD_NAMES[card],
                    }))
                    break
                self.log.append(Event(None, {
                    "type": "reveal", "territory": self.board.names[t], "card": "Scorpion", "seat": s,
                }))
                if self.initiated:
                    self.territory_aside += 1
                    self._advance_track()
                else:
                    self.taken[s * 9 + _T_SCORP] += 1
                    self._advance_track()
                    self._penalty(s)
            self.bottom_known[t] = min(self.bottom_known[t], len(stack))
            self._check_stack_end(t)

    def _begin_turns(self) -> None:
        self.turns_done = 0
        self.current = self.start
        self._offer_take()

    def _offer_take(self) -> None:
        s = self.current
        if max(self.face_up) >= 0 or (self.initiated and (self.figure_cards[s * 2] or self.figure_cards[s * 2 + 1])):
            self.pending = _TAKE
            self.actor = s
            return
        self.log.append(Event(None, {"type": "no_card", "seat": s}))
        self._end_turn()

    def _end_turn(self) -> None:
        self.turns_done += 1
        if self.turns_done >= self.n:
            self.log.append(Event(None, {"type": "round_end", "round": self.round}))
            if self.end_reason:
                self._finish()
            else:
                self._start_round()
            return
        self.current = (self.current + 1) % self.n
        self._offer_take()

    def _finish(self) -> None:
        n = self.n
        for k in _ALL_KINDS:
            counts = [self.taken[s * 9 + k] for s in range(n)]
            best = max(counts)
            if best == 0:
                continue
            for s in range(n):
                if counts[s] == best:
                    self.scores[s] += CARD_MAJORITY_BONUS
                    self.bonus[s] += CARD_MAJORITY_BONUS
        self.pending = _OVER
        self.actor = -1
        self.log.append(Event(None, {
            "type": "game_end", "end": self.end_reason, "bonus": list(self.bonus), "scores": list(self.scores),
        }))

    # ------------------------------------------------------------------ territory cards

    def _take(self, s: int, t: int) -> None:
        card = self.face_up[t]
        self.face_up[t] = -1
        self.taken[s * 9 + card] += 1
        self.log.append(Event(None, {
            "type": "take", "seat": s, "territory": self.board.names[t], "card": TERRITORY_CARD_NAMES[card],
        }))
        self._check_stack_end(t)
        if card < 3:
            if self.supply[s * 3 + card]:
                self._place(s, card, t)
            self.kind = card
            self.card_territory = t
            self.steps = 2
            self._offer_extra()
        elif card == _T_TRIPLE:
            self.kind = -1
            self.steps = 3
            if any(self.supply[s * 3: s * 3 + 3]):
                self.pending = _TRIPLE
                self.actor = s
            else:
                self._end_turn()
        elif card == _T_FOUR:
            if self.initiated:
                if self._offer_choice(s, 4, _AFTER_TURN):
                    return
            else:
                self._draw(s, 4)
            self._end_turn()
        elif card == _T_ANC:
            self._receive_ancestor(s)
        elif card == _T_ELD:
            self._receive_elder(s)
        else:
            self.ancestor_owner = self.elder_owner = s
            self.ancestor_at = self.elder_at = t
            self.log.append(Event(None, {"type": "figures_to", "seat": s, "territory": self.board.names[t]}))
            self._start_ceremony(t, int(Trigger.ANCESTOR_AND_ELDER))

    def _play_figure_card(self, s: int, figure: int) -> None:
        self.figure_cards[s * 2 + figure] = 0
        self.log.append(Event(None, {"type": "play_card", "seat": s, "card": ("Ancestor", "Elder")[figure]}))
        if figure == 0:
            self._receive_ancestor(s)
        else:
            self._receive_elder(s)

    def _receive_ancestor(self, s: int) -> None:
        self.ancestor_owner = s
        self.pending = _ANC_MOVE
        self.actor = s

    def _receive_elder(self, s: int) -> None:
        self.elder_owner = s
        self.pending = _ELD_MOVE
        self.actor = s

    def _move_ancestor(self, s: int, t: int) -> None:
        self.ancestor_at = t
        self.log.append(Event(None, {"type": "ancestor_to", "seat": s, "territory": self.board.names[t]}))
        self._start_ceremony(t, int(Trigger.ANCESTOR))

    def _move_elder(self, s: int, t: int) -> None:
        self.elder_at = t
        self.log.append(Event(None, {"type": "elder_to", "seat": s, "territory": self.board.names[t]}))
        self._start_ceremony(t, int(Trigger.ELDER))

    def _check_stack_end(self, t: int) -> None:
        if not self.stacks[t] and self.face_up[t] < 0 and not self.end_reason:
            self.end_reason = "stack"
            self.log.append(Event(None, {"type": "end_triggered", "end": "stack", "territory": self.board.names[t]}))

    def _offer_extra(self) -> None:
        s = self.current
        if self.steps > 0:
            can_draw = self._refill_for_choice() if self.initiated else bool(self.pile or any(self.discard))
            if can_draw or self.supply[s * 3 + self.kind]:
                self.pending = _EXTRA
                self.actor = s
                return
        self._end_turn()

    def _place(self, s: int, k: int, t: int) -> None:
        self.supply[s * 3 + k] -= 1
        self.pieces[(t * self.n + s) * 3 + k] += 1
        self.log.append(Event(None, {"type": "place", "seat": s, "piece": KIND_NAMES[k], "territory": self.board.names[t]}))

    # ------------------------------------------------------------------ ritual cards

    def _draw(self, s: int, count: int) -> None:
        """Basic game: ``count`` blind draws for ``s``, each Scorpion resolved and replaced.

        A draw finds no card when neither the pile nor the discards hold any card but Scorpions.
        """
        for _ in range(count):
            card = self._pop_pile()
            while card == _R_SCORP:
                self._ritual_scorpion(s)
                # Only Scorpions left to draw: stop rather than cycle through them for ever.
                card = self._pop_pile() if any(self.discard) or _R_SCORP != min(self.pile, default=_R_SCORP) else -1
            if card < 0:
                self.log.append(Event(None, {"type": "draw", "seat": s, "card": None}))
                return
            self.hands[s * 5 + card] += 1
            self.log.append(Event(None, {"type": "draw", "seat": s}))
            self.log.append(Event(self._private[s], {"type": "drew", "seat": s, "card": RITUAL_CARD_NAMES[card]}))

    def _pop_pile(self) -> int:
        if not self.pile:
            if not any(self.discard):
                return -1
            self._reshuffle(include_scorpions=False)
        return self.pile.pop()

    def _reshuffle(self, include_scorpions: bool) -> None:
        cards = self.pile
        for r, count in enumerate(self.discard):
            cards += [r] * count
            self.discard[r] = 0
        if include_scorpions:
            cards += [_R_SCORP] * self.ritual_aside
            self.ritual_aside = 0
        seeded_rng(self.seed, "wongar", "reshuffle", self.reshuffles).shuffle(cards)
        self.reshuffles += 1
        self.log.append(Event(None, {"type": "reshuffle", "pile_size": len(cards)}))

    def _ritual_scorpion(self, s: int) -> None:
        self.log.append(Event(None, {"type": "draw_scorpion", "seat": s}))
        self.ritual_aside += 1
        self._advance_track()
        if self.ritual_aside >= RITUAL_DECK[_R_SCORP]:
            self._reshuffle(include_scorpions=True)
        self._penalty(s)

    def _advance_track(self) -> None:
        if self.track < self.last_space:
            self.track += 1
            self.log.append(Event(None, {"type": "scorpion", "space": self.track}))
            if self.track == self.last_space and not self.end_reason:
                self.end_reason = "scorpion"
                self.log.append(Event(None, {"type": "end_triggered", "end": "scorpion"}))

    def _penalty(self, s: int) -> None:
        mine = self.scores[s]
        back = sum(1 for v in self.scores if v < mine)
        if back:
            self.scores[s] -= back
            self.log.append(Event(None, {"type": "penalty", "seat": s, "points": back}))

    def _refill_for_choice(self) -> bool:
        """Initiated: make the discards the pile if the pile is empty; whether any card can be chosen."""
        if not self.pile and any(self.discard):
            self._reshuffle(include_scorpions=False)
        return bool(self.pile)

    def _offer_choice(self, s: int, count: int, after: int) -> bool:
        if not self._refill_for_choice():
            self.log.append(Event(None, {"type": "draw", "seat": s, "card": None}))
            return False
        self.pending = _CHOOSE
        self.actor = s
        self.choose_left = count
        self.after_choose = after
        return True

    def _choice_actions(self) -> list[int]:
        pile = self.pile
        base = self.lay.choose
        return [base + k for k in _ALL_KINDS if k in pile]

    def _choose(self, s: int, k: int) -> None:
        self.pile.remove(k)
        self.hands[s * 5 + k] += 1
        self.log.append(Event(None, {"type": "draw", "seat": s}))
        self.log.append(Event(self._private[s], {"type": "drew", "seat": s, "card": KIND_NAMES[k]}))

    # ------------------------------------------------------------------ ceremonies

    def _start_ceremony(self, c: int, trigger: int) -> None:
        n = self.n
        pieces = self.pieces
        mask = 0
        for s in range(n):
            base = (c * n + s) * 3
            if pieces[base] or pieces[base + 1] or pieces[base + 2]:
                mask |= 1 << s
        self.cer_territory = c
        self.cer_trigger = trigger
        self.cer_active = mask
        self.log.append(Event(None, {
            "type": "ceremony", "territory": self.board.names[c], "trigger": TRIGGER_NAMES[trigger],
            "participants": [s for s in range(n) if mask >> s & 1],
        }))
        self._ceremony_next(self.ancestor_owner)

    def _ceremony_next(self, first: int) -> None:
        """Give the turn to the next participant from ``first`` clockwise who can play, or score.

        Losing the last piece there puts a participant out; one with no playable card is skipped but
        stays in (the board may change). The ceremony scores when no remaining participant can play.
        """
        n = self.n
        c = self.cer_territory
        pieces = self.pieces
        for i in range(n):
            s = (first + i) % n
            base = (c * n + s) * 3
            if self.cer_active >> s & 1 and not (pieces[base] or pieces[base + 1] or pieces[base + 2]):
                self.cer_active &= ~(1 << s)
                self.log.append(Event(None, {"type": "drop_out", "seat": s, "reason": "no piece"}))
        able = [s for s in range(n) if self.cer_active >> s & 1 and self._has_playable_card(s)]
        if able:
            for i in range(n):
                s = (first + i) % n
                if s in able:
                    self.pending = _CER_PLAY
                    self.actor = s
                    return
                if self.cer_active >> s & 1:
                    self.log.append(Event(None, {"type": "skip", "seat": s, "reason": "no playable card"}))
        self._score_ceremony()
        self._end_turn()

    def _has_playable_card(self, s: int) -> bool:
        h = self.hands
        double = h[s * 5 + _R_DOUBLE]
        for k in _ALL_KINDS:
            if (double or h[s * 5 + k]) and self._can_affect(s, k):
                return True
        return False

    def _can_affect(self, s: int, k: int) -> bool:
        """Whether a card of kind ``k`` has an effect for ``s`` in the ceremony territory."""
        n = self.n
        c = self.cer_territory
        pieces = self.pieces
        base = c * n * 3 + k
        for o in range(n):
            if pieces[base + o * 3]:
                return True
        for t in self.board.neighbours[c]:
            if pieces[(t * n + s) * 3 + k]:
                return True
        return False

    def _play_ritual(self, s: int, card: int) -> None:
        self.hands[s * 5 + card] -= 1
        if card == _R_DOUBLE and self.initiated:
            self.ritual_out[card] += 1
        else:
            self.discard[card] += 1
        self.log.append(Event(None, {"type": "play", "seat": s, "card": RITUAL_CARD_NAMES[card]}))
        self.cer_card = card
        self.cer_mode = -1
        if card == _R_DOUBLE:
            self.cer_kind = -1
            self.cer_steps = 2
        else:
            self.cer_kind = card
            self.cer_steps = 1
        self.pending = _CER_EFFECT
        self.actor = s

    def _effect_actions(self, s: int) -> list[int]:
        lay = self.lay
        n = self.n
        nt = lay.territories
        c = self.cer_territory
        pieces = self.pieces
        near = self.board.neighbours[c]
        kinds = _ALL_KINDS if self.cer_kind < 0 else (self.cer_kind,)
        modes = _ALL_MODES if self.cer_mode < 0 else (self.cer_mode,)
        out: list[int] = []
        for mode in modes:
            for k in kinds:
                if mode == _REMOVE:
                    base = c * n * 3 + k
                    out += [lay.remove + k * n + o for o in range(n) if o != s and pieces[base + o * 3]]
                elif mode == _OUT:
                    if pieces[(c * n + s) * 3 + k]:
                        out += [lay.move_out + k * nt + t for t in near]
                else:
                    out += [lay.move_in + k * nt + t for t in near if pieces[(t * n + s) * 3 + k]]
        return out

    def _effect(self, s: int, action: int) -> None:
        lay = self.lay
        n = self.n
        nt = lay.territories
        c = self.cer_territory
        pieces = self.pieces
        names = self.board.names
        if action < lay.move_out:
            k, o = divmod(action - lay.remove, n)
            mode = _REMOVE
            pieces[(c * n + o) * 3 + k] -= 1
            self.supply[o * 3 + k] += 1
            data: WireMap = {"type": "remove", "seat": s, "owner": o, "piece": KIND_NAMES[k]}
        elif action < lay.move_in:
            k, t = divmod(action - lay.move_out, nt)
            mode = _OUT
            pieces[(c * n + s) * 3 + k] -= 1
            pieces[(t * n + s) * 3 + k] += 1
            data = {"type": "move_out", "seat": s, "piece": KIND_NAMES[k], "territory": names[t]}
        else:
            k, t = divmod(action - lay.move_in, nt)
            mode = _IN
            pieces[(t * n + s) * 3 + k] -= 1
            pieces[(c * n + s) * 3 + k] += 1
            data = {"type": "move_in", "seat": s, "piece": KIND_NAMES[k], "territory": names[t]}
        self.log.append(Event(None, data))
        self.cer_steps -= 1
        if self.cer_steps > 0:
            self.cer_mode = mode
            self.cer_kind = k
            if self._effect_actions(s):
                return
        self._ceremony_next((s + 1) % n)

    def _score_ceremony(self) -> None:
        n = self.n
        c = self.cer_territory
        track = self.track
        phase = 0
        while track > self.phase_ends[phase]:
            phase += 1
        value = self.points[phase][self.cer_trigger]
        awards: list[Wire] = []
        for k in _ALL_KINDS:
            best = -1
            most = 0
            for i in range(n):
                s = (self.ancestor_owner + i) % n
                count = self.pieces[(c * n + s) * 3 + k]
                if count > most:
                    best, most = s, count
            if best >= 0:
                self.scores[best] += value
                awards.append({"piece": KIND_NAMES[k], "seat": best, "points": value})
        self.log.append(Event(None, {
            "type": "scoring", "territory": self.board.names[c], "phase": phase + 1,
            "trigger": TRIGGER_NAMES[self.cer_trigger], "awards": awards,
        }))
        self.cer_active = 0
        self.cer_card = self.cer_mode = self.cer_kind = -1
        self.cer_steps = 0

    # ------------------------------------------------------------------ results and copies

    def phase(self) -> int:
        """The Scorpion phase, 1-based."""
        return phase_of(self.track, self.phase_ends)

    def result(self) -> Result:
        """Final scores (bonus included), shared ranks, and detail: rounds, end, bonus, Scorpion space."""
        if self.pending != _OVER:
            raise EngineError("the game is not over")
        scores = tuple(self.scores)
        return Result(scores, ranks_from_keys([(v,) for v in scores]), {
            "rounds": self.round, "end": self.end_reason, "bonus": list(self.bonus),
            "scorpion_space": self.track,
        })

    def clone(self) -> WongarState:
        """An independent copy (lists copied by hand; observation parts are not carried over)."""
        c = WongarState.__new__(WongarState)
        for name in _SHARED:
            object.__setattr__(c, name, getattr(self, name))
        c.parts = Parts()
        c.log = list(self.log)
        c.pieces = self.pieces[:]
        c.supply = self.supply[:]
        c.scores = self.scores[:]
        c.stacks = [s[:] for s in self.stacks]
        c.bottom_known = self.bottom_known[:]
        c.face_up = self.face_up[:]
        c.taken = self.taken[:]
        c.figure_cards = self.figure_cards[:]
        c.hands = self.hands[:]
        c.pile = self.pile[:]
        c.discard = self.discard[:]
        c.ritual_out = self.ritual_out[:]
        c.setup_left = self.setup_left[:]
        c.bonus = self.bonus[:]
        return c

    def determinize(self, seat: int, rng: random.Random) -> WongarState:
        """A copy with everything ``seat`` cannot see resampled.

        Resampled: other seats' ritual hands together with the draw pile (hand sizes kept; Scorpions
        stay in the pile, since a drawn Scorpion is resolved at once; Initiated Doubles stay with the
        seats that hold them, which is public), the pile order, the unseen part of each territory
        stack (setup Scorpions pushed under a stack stay at its bottom), and the stream of future
        reshuffles. While ``seat`` chooses from the Initiated pile it sees the pile, so then only the
        other hands are exchanged with each other.
        """
        c = self.clone()
        c.seed = rng.getrandbits(63)
        n = self.n
        sees_pile = self._sees_pile(seat)
        pool: list[int] = []
        sizes = [0] * n
        for o in range(n):
            if o == seat:
                continue
            for r in (0, 1, 2) if self.initiated else (0, 1, 2, 3):
                count = c.hands[o * 5 + r]
                pool += [r] * count
                sizes[o] += count
                c.hands[o * 5 + r] = 0
        kept_pile = [r for r in c.pile if r == _R_SCORP or sees_pile]
        pool += [r for r in c.pile if not (r == _R_SCORP or sees_pile)]
        rng.shuffle(pool)
        for o in range(n):
            for _ in range(sizes[o]):
                c.hands[o * 5 + pool.pop()] += 1
        c.pile = pool + kept_pile
        rng.shuffle(c.pile)
        for t, stack in enumerate(c.stacks):
            known = min(self.bottom_known[t], len(stack))
            rest = stack[known:]
            rng.shuffle(rest)
            stack[known:] = rest
        return c

    def _sees_pile(self, seat: int) -> bool:
        """Initiated: whether ``seat`` is now choosing from the pile (and so may look through it)."""
        return self.initiated and seat == self.actor and self.pending in (_CHOOSE, _EXTRA)

    def inventory(self) -> dict[str, int]:
        """Totals that never change: each seat's pieces per kind, ritual cards per kind, territory cards."""
        n = self.n
        nt = len(self.board.names)
        totals: dict[str, int] = {}
        for s in range(n):
            for k in _ALL_KINDS:
                on_board = sum(self.pieces[(t * n + s) * 3 + k] for t in range(nt))
                totals[f"seat {s} {KIND_NAMES[k]}"] = self.supply[s * 3 + k] + on_board
        for r, name in enumerate(RITUAL_CARD_NAMES):
            held = sum(self.hands[s * 5 + r] for s in range(n))
            aside = self.ritual_aside if r == _R_SCORP else 0
            totals[f"ritual {name}"] = (
                held + self.pile.count(r) + self.discard[r] + aside + self.ritual_out[r]
            )
        totals["territory cards"] = (
            sum(len(s) for s in self.stacks) + sum(1 for c in self.face_up if c >= 0) + sum(self.taken)
            + self.territory_aside + (2 * n if self.initiated else 0) + self.territory_box
        )
        return totals

    def observation(self, seat: int) -> WireMap:
        """What ``seat`` may know now (see :mod:`engine.wongar.view`); read-only to callers, its
        unchanged parts the same objects as in earlier observations (see :mod:`engine.parts`)."""
        return observe(self, seat)

    def render(self, seat: int | None = None) -> str:
        """A text picture of the game, omniscient or as ``seat`` sees it."""
        return draw_text(self, seat)


_COPIED = {
    "log", "pieces", "supply", "scores", "stacks", "bottom_known", "face_up", "taken", "figure_cards",
    "hands", "pile", "discard", "ritual_out", "setup_left", "bonus", "parts",
}
_SHARED = tuple(name for name in WongarState.__slots__ if name not in _COPIED)


def build_table_for(lay: Layout, board: Board) -> ActionTable:
    """The (cached) action table for a layout and board."""
    key = (lay, board)
    table = _TABLES.get(key)
    if table is None:
        table = _TABLES[key] = build_table(lay, board)
    return table


_TABLES: dict[tuple[Layout, Board], ActionTable] = {}
