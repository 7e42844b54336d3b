"""A Waroong Wars position and its rules of play (see the package docstring for the decision flow)."""

from __future__ import annotations

import random

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

from . import view
from .actions import (
    ADD_KERUPUK,
    ADD_SAMBAL,
    BOSS,
    COOK,
    END_TURN,
    KEEP,
    KEEP_NOTHING,
    ROW_LIMIT,
    SERVE,
)
from .cards import (
    BUSINESSWOMAN,
    CHARMER,
    CUSTOMER_COUNTS,
    CUSTOMER_VALUES,
    CUSTOMERS,
    GROCERIES,
    GROCERY_COUNTS,
    KERUPUK,
    MAIN_KINDS,
    SAMBAL,
    SECURITY,
    THIEF,
    VIP,
    expand,
    expand_names,
)
from .phases import COOK_STEP, DISH, DRAFT, KEEP_STEP, OFFER, OVER, SECURITY_STEP
from .rules import Rules

#: Cards the menu row shows at setup.
OPENING_ROW = 2
#: Groceries dealt to each player per shopping phase.
HAND_SIZE = 6
NO_CARD = -1


class WaroongState(State):
    """A position. Holdings are count vectors by kind; decks are lists of kinds, top card last.

    Public attributes are the position itself (read them, change them only through :meth:`apply`
    or :mod:`engine.waroong.staging`): ``hands`` (draft hands), ``pending`` (this draft step's picks,
    ``-1`` for none yet), ``picks`` (groceries held for cooking), ``kept`` (the kept grocery or ``-1``),
    ``customers`` (customer cards held), ``row`` (dish ids, position 0 at the left), ``cooked``
    (per seat: ``(dish, sambal, kerupuk)`` per cooked menu), decks ``groceries``, ``menus``,
    ``customer_deck`` and piles ``discards`` (grocery counts), ``used`` (customer counts), ``boxed``.
    """

    __slots__ = (
        "boxed",
        "chance",
        "config",
        "cooked",
        "cooked_now",
        "customer_deck",
        "customers",
        "discards",
        "dish_boss",
        "dish_pos",
        "dish_sup",
        "done",
        "draws",
        "groceries",
        "hands",
        "kept",
        "log",
        "menus",
        "offer_for",
        "offers",
        "parts",
        "pending",
        "phase",
        "picks",
        "priority",
        "private",
        "react_by",
        "react_card",
        "react_target",
        "rounds",
        "row",
        "rules",
        "seed",
        "turn",
        "used",
    )

    config: MatchConfig
    log: list[Event]
    rules: Rules
    seed: int
    chance: int
    draws: int
    groceries: list[int]
    discards: list[int]
    hands: list[list[int]]
    pending: list[int]
    picks: list[list[int]]
    kept: list[int]
    menus: list[int]
    row: list[int]
    boxed: list[int]
    cooked: list[list[tuple[int, int, int]]]
    customer_deck: list[int]
    customers: list[list[int]]
    used: list[int]
    phase: int
    rounds: int
    priority: int
    turn: int
    done: list[bool]
    cooked_now: int
    dish_pos: int
    dish_boss: list[int]
    dish_sup: list[int]
    react_card: int
    react_by: int
    react_target: int
    offers: list[int]
    offer_for: int
    private: tuple[frozenset[int], ...]
    parts: Parts

    # ----------------------------------------------------------------- construction

    @classmethod
    def empty(cls, rules: Rules, config: MatchConfig, seed: int) -> WaroongState:
        """A position with every card out of play and nothing decided (for dealing and staging)."""
        n = rules.players
        st = cls.__new__(cls)
        st.config, st.log, st.rules, st.seed, st.chance, st.draws = (
            config,
            [],
            rules,
            seed,
            seed,
            0,
        )
        st.groceries, st.discards = [], [0] * len(GROCERIES)
        st.hands = [[0] * len(GROCERIES) for _ in range(n)]
        st.pending = [NO_CARD] * n
        st.picks = [[0] * len(GROCERIES) for _ in range(n)]
        st.kept = [NO_CARD] * n
        st.menus, st.row, st.boxed = [], [], []
        st.cooked = [[] for _ in range(n)]
        st.customer_deck = []
        st.customers = [[0] * len(CUSTOMERS) for _ in range(n)]
        st.used = [0] * len(CUSTOMERS)
        st.phase, st.rounds, st.priority, st.turn = DRAFT, 0, 0, 0
        st.done, st.cooked_now = [False] * n, 0
        st.dish_pos, st.dish_boss, st.dish_sup = NO_CARD, [0] * MAIN_KINDS, [0, 0]
        st.react_card, st.react_by, st.react_target = NO_CARD, NO_CARD, NO_CARD
        st.offers, st.offer_for = [], NO_CARD
        st.private = tuple(frozenset({s}) for s in range(n))
        st.parts = Parts()
        return st

    @classmethod
    def deal(cls, rules: Rules, config: MatchConfig, seed: int) -> WaroongState:
        """A fresh game: each deck shuffled from its own seed, 2 menus open, priority drawn, shopping."""
        st = cls.empty(rules, config, seed)
        st.groceries = expand(GROCERY_COUNTS)
        seeded_rng(seed, "groceries").shuffle(st.groceries)
        st.menus = list(rules.menu_deck)
        seeded_rng(seed, "menus").shuffle(st.menus)
        if rules.customers:
            st.customer_deck = expand(CUSTOMER_COUNTS)
            seeded_rng(seed, "customers").shuffle(st.customer_deck)
        st.priority = seeded_rng(seed, "priority").randrange(rules.players)
        for _ in range(OPENING_ROW):
            st.row.insert(0, st.menus.pop())
        st.note({"type": "setup", "row": st.row_names(), "priority": st.priority})
        st.shopping()
        return st

    def clone(self) -> WaroongState:
        """An independent copy (hand-written: lists copied, immutable parts shared, observation
        parts not carried over)."""
        st = WaroongState.__new__(WaroongState)
        st.config, st.log, st.rules, st.seed = (
            self.config,
            self.log.copy(),
            self.rules,
            self.seed,
        )
        st.chance, st.draws = self.chance, self.draws
        st.groceries, st.discards = self.groceries.copy(), self.discards.copy()
        st.hands = [h.copy() for h in self.hands]
        st.pending = self.pending.copy()
        st.picks = [p.copy() for p in self.picks]
        st.kept = self.kept.copy()
        st.menus, st.row, st.boxed = (
            self.menus.copy(),
            self.row.copy(),
            self.boxed.copy(),
        )
        st.cooked = [c.copy() for c in self.cooked]
        st.customer_deck = self.customer_deck.copy()
        st.customers = [c.copy() for c in self.customers]
        st.used = self.used.copy()
        st.phase, st.rounds, st.priority, st.turn = (
            self.phase,
            self.rounds,
            self.priority,
            self.turn,
        )
        st.done, st.cooked_now = self.done.copy(), self.cooked_now
        st.dish_pos, st.dish_boss, st.dish_sup = (
            self.dish_pos,
            self.dish_boss.copy(),
            self.dish_sup.copy(),
        )
        st.react_card, st.react_by, st.react_target = (
            self.react_card,
            self.react_by,
            self.react_target,
        )
        st.offers, st.offer_for = self.offers.copy(), self.offer_for
        st.private = self.private
        st.parts = Parts()
        return st

    # ----------------------------------------------------------------- the contract

    def table(self) -> ActionTable:
        return self.rules.table

    def to_move(self) -> tuple[int, ...]:
        phase = self.phase
        if phase == DRAFT:
            return tuple(s for s, kind in enumerate(self.pending) if kind < 0)
        if phase <= KEEP_STEP:
            return (self.turn,)
        if phase == SECURITY_STEP:
            return (self.react_target,)
        if phase == OFFER:
            return (self.offers[0],)
        return ()

    def legal_actions(self, seat: int) -> list[int]:
        phase = self.phase
        if phase == DRAFT:
            if not 0 <= seat < self.rules.players or self.pending[seat] >= 0:
                return []
            hand = self.hands[seat]
            return [kind for kind in range(len(GROCERIES)) if hand[kind]]
        if phase == COOK_STEP:
            return self._cook_options(seat) if seat == self.turn else []
        if phase == DISH:
            return self._dish_options() if seat == self.turn else []
        if phase == KEEP_STEP:
            if seat != self.turn:
                return []
            have = self.picks[seat]
            return [KEEP + kind for kind in range(len(GROCERIES)) if have[kind]] + [
                KEEP_NOTHING
            ]
        lay = self.rules.layout
        if phase == SECURITY_STEP:
            return (
                [lay.security_use, lay.security_pass]
                if seat == self.react_target
                else []
            )
        if phase == OFFER:
            return (
                [lay.businesswoman_use, lay.businesswoman_pass]
                if seat == self.offers[0]
                else []
            )
        return []

    def _cook_options(self, seat: int) -> list[int]:
        have = self.picks[seat]
        boss = self.customers[seat]
        dishes = self.rules.dishes
        options = []
        for pos, dish in enumerate(self.row):
            for kind, count in dishes[dish].needs:
                if have[kind] + boss[kind] < count:
                    break
            else:
                options.append(COOK + pos)
        options.append(END_TURN)
        lay = self.rules.layout
        if lay.customers:
            n = self.rules.players
            if boss[THIEF]:
                picks, kept = self.picks, self.kept
                for d in range(1, n):
                    target = (seat + d) % n
                    if kept[target] >= 0 or any(picks[target]):
                        options.append(lay.thief + d - 1)
            if boss[CHARMER]:
                customers = self.customers
                for d in range(1, n):
                    if any(customers[(seat + d) % n]):
                        options.append(lay.charmer + d - 1)
            if boss[VIP] and self.row:
                options.append(lay.vip)
        return options

    def _dish_options(self) -> list[int]:
        have = self.picks[self.turn]
        options = []
        if have[SAMBAL] and not self.dish_sup[0]:
            options.append(ADD_SAMBAL)
        if have[KERUPUK] and not self.dish_sup[1]:
            options.append(ADD_KERUPUK)
        options.append(SERVE)
        lay = self.rules.layout
        if lay.customers:
            boss, used = self.customers[self.turn], self.dish_boss
            for kind, count in self.rules.dishes[self.row[self.dish_pos]].needs:
                if used[kind] < count and boss[kind] > used[kind]:
                    options.append(BOSS + kind)
        return options

    def apply(self, seat: int, action: int) -> None:
        phase = self.phase
        if phase == DRAFT:
            self._pick(seat, action)
        elif phase == COOK_STEP:
            self._cook_step(seat, action)
        elif phase == DISH:
            if action == SERVE:
                self._serve()
            elif action == ADD_SAMBAL:
                self.dish_sup[0] = 1
            elif action == ADD_KERUPUK:
                self.dish_sup[1] = 1
            else:
                self.dish_boss[action - BOSS] += 1
        elif phase == KEEP_STEP:
            self._close_turn(NO_CARD if action == KEEP_NOTHING else action - KEEP)
        elif phase == SECURITY_STEP:
            if action == self.rules.layout.security_use:
                self._discard_customer(seat, SECURITY)
                card = CUSTOMERS[self.react_card]
                self.note(
                    {
                        "type": "security",
                        "seat": seat,
                        "against": card,
                        "by": self.react_by,
                    }
                )
                self.phase = COOK_STEP
            else:
                self._resolve_steal()
        elif phase == OFFER:
            if action == self.rules.layout.businesswoman_use:
                self._discard_customer(seat, BUSINESSWOMAN)
                self.note(
                    {"type": "businesswoman", "seat": seat, "before": self.offer_for}
                )
                self.offers = []
                self._start_turn(seat)
            else:
                self.note({"type": "businesswoman-declined", "seat": seat}, seat)
                self.offers.pop(0)
                if not self.offers:
                    self._start_turn(self.offer_for)

    def is_over(self) -> bool:
        return self.phase == OVER

    def scores(self) -> list[int]:
        """Each seat's score now: menu points, supplements, unused customer cards."""
        dishes = self.rules.dishes
        totals = []
        for seat in range(self.rules.players):
            menu = sum(
                dishes[d].points + sambal + kerupuk
                for d, sambal, kerupuk in self.cooked[seat]
            )
            cards = sum(c * v for c, v in zip(self.customers[seat], CUSTOMER_VALUES))
            totals.append(menu + cards)
        return totals

    def result(self) -> Result:
        """Scores, ranks by (score, menus cooked), and ``detail`` with rounds, end reason and menus cooked."""
        if self.phase != OVER:
            raise EngineError("the game is not over")
        scores = self.scores()
        cooked = [len(c) for c in self.cooked]
        ranks = ranks_from_keys([(s, m) for s, m in zip(scores, cooked)])
        detail: WireMap = {
            "rounds": self.rounds,
            "end": "menus",
            "menus_cooked": list(cooked),
        }
        return Result(tuple(scores), ranks, detail)

    def inventory(self) -> dict[str, int]:
        """Card totals that never change: groceries, menus, customers wherever they are."""
        groceries = len(self.groceries) + sum(self.discards)
        groceries += sum(sum(h) for h in self.hands) + sum(sum(p) for p in self.picks)
        groceries += sum(1 for k in self.kept if k >= 0)
        groceries += sum(s + k for c in self.cooked for _, s, k in c)
        menus = (
            len(self.menus)
            + len(self.row)
            + len(self.boxed)
            + sum(len(c) for c in self.cooked)
        )
        customers = (
            len(self.customer_deck)
            + sum(sum(c) for c in self.customers)
            + sum(self.used)
        )
        return {"groceries": groceries, "menus": menus, "customers": customers}

    def observation(self, seat: int) -> WireMap:
        """What ``seat`` may know now (see :mod:`engine.waroong.view`); read-only to callers, its
        unchanged parts the same objects as in earlier observations (see :mod:`engine.parts`)."""
        return view.observation(self, seat)

    def render(self, seat: int | None = None) -> str:
        return view.render(self, seat)

    def determinize(self, seat: int, rng: random.Random) -> WaroongState:
        """Resample what ``seat`` cannot see (see the package docstring); future chance is reseeded."""
        st = self.clone()
        st.chance = rng.getrandbits(63)
        st.draws = 0
        others = [o for o in range(self.rules.players) if o != seat]
        self._resample_groceries(st, others, rng)
        self._resample_customers(st, others, rng)
        rng.shuffle(st.menus)
        return st

    def _resample_groceries(
        self, st: WaroongState, others: list[int], rng: random.Random
    ) -> None:
        reserved = {o: [0] * len(GROCERIES) for o in others}
        if self.phase == DISH and self.turn in reserved:
            need = reserved[self.turn]
            for kind, count in self.rules.dishes[self.row[self.dish_pos]].needs:
                need[kind] = count - self.dish_boss[kind]
            need[SAMBAL], need[KERUPUK] = self.dish_sup
        pool = list(st.groceries)
        for o in others:
            pool += expand(st.hands[o])
            pool += expand(
                [have - keep for have, keep in zip(st.picks[o], reserved[o])]
            )
            if st.kept[o] >= 0:
                pool.append(st.kept[o])
        rng.shuffle(pool)
        for o in others:
            hand_size = sum(st.hands[o])
            free = sum(st.picks[o]) - sum(reserved[o])
            st.hands[o] = _counts(pool, hand_size, len(GROCERIES))
            st.picks[o] = [
                a + b for a, b in zip(_counts(pool, free, len(GROCERIES)), reserved[o])
            ]
            if st.kept[o] >= 0:
                st.kept[o] = pool.pop()
            if st.pending[o] >= 0:
                st.pending[o] = rng.choice(expand(st.hands[o]))
        st.groceries = pool

    def _resample_customers(
        self, st: WaroongState, others: list[int], rng: random.Random
    ) -> None:
        if not self.rules.customers:
            return
        reserved = {o: [0] * len(CUSTOMERS) for o in others}
        if self.phase == DISH and self.turn in reserved:
            reserved[self.turn][:MAIN_KINDS] = self.dish_boss
        if self.phase == SECURITY_STEP and self.react_target in reserved:
            reserved[self.react_target][SECURITY] = 1
        if self.phase == OFFER:
            for o in self.offers:
                if o in reserved:
                    reserved[o][BUSINESSWOMAN] = 1
        pool = list(st.customer_deck)
        for o in others:
            pool += expand(
                [have - keep for have, keep in zip(st.customers[o], reserved[o])]
            )
        rng.shuffle(pool)
        for o in others:
            free = sum(st.customers[o]) - sum(reserved[o])
            st.customers[o] = [
                a + b for a, b in zip(_counts(pool, free, len(CUSTOMERS)), reserved[o])
            ]
        st.customer_deck = pool

    # ----------------------------------------------------------------- events and chance

    def note(self, data: WireMap, seat: int | None = None) -> None:
        """Log an event: public, or private to ``seat``."""
        self.log.append(Event(None if seat is None else self.private[seat], data))

    def _rng(self, purpose: str) -> random.Random:
        """A fresh stream for one chance event, derived from the chance seed and a running count."""
        self.draws += 1
        return seeded_rng(self.chance, purpose, self.draws)

    def row_names(self) -> list[Wire]:
        """The open menus, left to right, by dish name."""
        return [self.rules.dishes[d].name for d in self.row]

    # ----------------------------------------------------------------- shopping

    def open_menu(self) -> None:
        """Open the top menu card at the left of the row (nothing if the deck is empty)."""
        if self.menus:
            dish = self.menus.pop()
            self.row.insert(0, dish)
            self.note({"type": "open", "dish": self.rules.dishes[dish].name})

    def _box_far_right(self) -> None:
        dish = self.row.pop()
        self.boxed.append(dish)
        self.note({"type": "boxed", "dish": self.rules.dishes[dish].name})

    def shopping(self) -> None:
        """Start a round: open a menu (or box one when the deck is empty), deal, draft."""
        if self.menus:
            self.open_menu()
            if len(self.row) > ROW_LIMIT:
                self._box_far_right()
        elif self.row:
            self._box_far_right()
        if not self.menus and not self.row:
            self._finish()
            return
        self.rounds += 1
        n = self.rules.players
        size = min(HAND_SIZE, len(self.groceries) // n)
        for seat in range(n):
            hand = self.hands[seat]
            for _ in range(size):
                hand[self.groceries.pop()] += 1
        self.note({"type": "shopping", "round": self.rounds, "hand_size": size})
        for seat in range(n):
            self.note({"type": "dealt", "seat": seat, "hand": expand_names(self.hands[seat])}, seat)
        if size:
            self.phase = DRAFT
            self.pending = [NO_CARD] * n
        else:
            self.start_cooking()

    def _pick(self, seat: int, kind: int) -> None:
        self.pending[seat] = kind
        if NO_CARD in self.pending:
            return
        n = self.rules.players
        for s in range(n):
            k = self.pending[s]
            self.hands[s][k] -= 1
            self.picks[s][k] += 1
            self.note({"type": "picked", "seat": s, "grocery": GROCERIES[k]}, s)
        self.hands = [self.hands[(s - 1) % n] for s in range(n)]
        self.pending = [NO_CARD] * n
        left = sum(self.hands[0])
        self.note({"type": "passed", "left": left})
        if not left:
            self.start_cooking()

    # ----------------------------------------------------------------- cooking

    def start_cooking(self) -> None:
        """Begin the cooking phase: kept cards join the picks; the priority seat's turn comes first."""
        for seat, kind in enumerate(self.kept):
            if kind >= 0:
                self.picks[seat][kind] += 1
                self.kept[seat] = NO_CARD
        self.done = [False] * self.rules.players
        self.note({"type": "cooking", "priority": self.priority})
        self._next_turn()

    def _next_turn(self) -> None:
        n = self.rules.players
        for i in range(n):
            seat = (self.priority + i) % n
            if not self.done[seat]:
                self._begin_turn(seat)
                return
        self._end_cooking()

    def _begin_turn(self, seat: int) -> None:
        if self.rules.customers:
            n = self.rules.players
            offers = []
            for d in range(1, n):
                other = (seat + d) % n
                if not self.done[other] and self.customers[other][BUSINESSWOMAN]:
                    offers.append(other)
            if offers:
                self.phase, self.offers, self.offer_for, self.turn = (
                    OFFER,
                    offers,
                    seat,
                    seat,
                )
                return
        self._start_turn(seat)

    def _start_turn(self, seat: int) -> None:
        self.phase, self.turn, self.cooked_now = COOK_STEP, seat, 0
        self.note({"type": "turn", "seat": seat})

    def _cook_step(self, seat: int, action: int) -> None:
        if action < COOK + ROW_LIMIT:
            self._choose_dish(action - COOK)
        elif action == END_TURN:
            have = self.picks[seat]
            if (self.rules.keep_always or not self.cooked_now) and any(have):
                self.phase = KEEP_STEP
            else:
                self._close_turn(NO_CARD)
        else:
            lay = self.rules.layout
            if action == lay.vip:
                self._vip(seat)
            elif action < lay.charmer:
                self._aim(
                    seat, THIEF, (seat + action - lay.thief + 1) % self.rules.players
                )
            else:
                self._aim(
                    seat,
                    CHARMER,
                    (seat + action - lay.charmer + 1) % self.rules.players,
                )

    def _choose_dish(self, pos: int) -> None:
        have = self.picks[self.turn]
        self.dish_pos, self.dish_boss, self.dish_sup = pos, [0] * MAIN_KINDS, [0, 0]
        for kind, count in self.rules.dishes[self.row[pos]].needs:
            if have[kind] < count:
                self.dish_boss[kind] = count - have[kind]
        self.phase = DISH

    def _serve(self) -> None:
        seat, dishes = self.turn, self.rules.dishes
        dish = self.row.pop(self.dish_pos)
        have, boss = self.picks[seat], self.dish_boss
        for kind, count in dishes[dish].needs:
            spent = count - boss[kind]
            have[kind] -= spent
            self.discards[kind] += spent
            if boss[kind]:
                self.customers[seat][kind] -= boss[kind]
                self.used[kind] += boss[kind]
        sambal, kerupuk = self.dish_sup
        have[SAMBAL] -= sambal
        have[KERUPUK] -= kerupuk
        self.cooked[seat].append((dish, sambal, kerupuk))
        self.cooked_now += 1
        self.note({
            "type": "cooked", "seat": seat, "dish": dishes[dish].name, "position": self.dish_pos,
            "boss": expand_names(boss, CUSTOMERS),
            "supplements": [GROCERIES[k] for k, on in zip((SAMBAL, KERUPUK), self.dish_sup) if on],
            "points": dishes[dish].points + sambal + kerupuk,
        })  # fmt: skip
        self.dish_pos = NO_CARD
        self.phase = COOK_STEP
        if self.rules.customers and self.customer_deck:
            card = self.customer_deck.pop()
            self.customers[seat][card] += 1
            self.note({"type": "customer-drawn", "seat": seat})
            self.note({"type": "drew", "seat": seat, "customer": CUSTOMERS[card]}, seat)
        self.open_menu()
        if not self.menus and not self.row:
            self._finish()

    def _close_turn(self, keep: int) -> None:
        seat = self.turn
        have = self.picks[seat]
        if keep >= 0:
            have[keep] -= 1
            self.kept[seat] = keep
            self.note({"type": "kept", "seat": seat, "grocery": GROCERIES[keep]}, seat)
        thrown = expand_names(have)
        for kind, count in enumerate(have):
            self.discards[kind] += count
            have[kind] = 0
        self.done[seat] = True
        self.note(
            {"type": "turn-over", "seat": seat, "kept": keep >= 0, "discarded": thrown}
        )
        self._next_turn()

    def _end_cooking(self) -> None:
        pile = expand(self.discards)
        self._rng("discards").shuffle(pile)
        self.groceries[:0] = pile
        self.discards = [0] * len(GROCERIES)
        self.priority = (self.priority + 1) % self.rules.players
        self.note(
            {
                "type": "discards-under-deck",
                "count": len(pile),
                "priority": self.priority,
            }
        )
        self.shopping()

    def _finish(self) -> None:
        self.phase = OVER
        self.note({"type": "end", "scores": list(self.scores())})

    # ----------------------------------------------------------------- customer cards

    def _discard_customer(self, seat: int, card: int) -> None:
        self.customers[seat][card] -= 1
        self.used[card] += 1

    def _vip(self, seat: int) -> None:
        self._discard_customer(seat, VIP)
        count = len(self.row)
        self.menus += self.row
        self.row = []
        self._rng("vip").shuffle(self.menus)
        for _ in range(count):
            self.row.insert(0, self.menus.pop())
        self.note({"type": "vip", "seat": seat, "row": self.row_names()})

    def _aim(self, seat: int, card: int, target: int) -> None:
        self._discard_customer(seat, card)
        self.react_card, self.react_by, self.react_target = card, seat, target
        self.note({"type": CUSTOMERS[card], "seat": seat, "target": target})
        if self.customers[target][SECURITY]:
            self.phase = SECURITY_STEP
        else:
            self._resolve_steal()

    def _resolve_steal(self) -> None:
        by, target = self.react_by, self.react_target
        self.phase = COOK_STEP
        if self.react_card == THIEF:
            held = expand(self.picks[target])
            if self.kept[target] >= 0:
                held.append(self.kept[target])
            index = self._rng("thief").randrange(len(held))
            kind = held[index]
            if index == len(held) - 1 and self.kept[target] >= 0:
                self.kept[target] = NO_CARD
            else:
                self.picks[target][kind] -= 1
            self.picks[by][kind] += 1
            self.note({"type": "stolen", "by": by, "target": target})
            for s in (by, target):
                self.note(
                    {
                        "type": "stolen-card",
                        "grocery": GROCERIES[kind],
                        "by": by,
                        "target": target,
                    },
                    s,
                )
        else:
            cards = expand(self.customers[target])
            card = cards[self._rng("charmer").randrange(len(cards))]
            self.customers[target][card] -= 1
            self.customers[by][card] += 1
            self.note({"type": "charmed", "by": by, "target": target})
            for s in (by, target):
                self.note(
                    {
                        "type": "charmed-card",
                        "customer": CUSTOMERS[card],
                        "by": by,
                        "target": target,
                    },
                    s,
                )


def _counts(pool: list[int], size: int, kinds: int) -> list[int]:
    """Pop ``size`` cards off ``pool`` into a count vector."""
    counts = [0] * kinds
    for _ in range(size):
        counts[pool.pop()] += 1
    return counts
