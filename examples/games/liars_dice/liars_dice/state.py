"""A Liar's Dice position and its rules of play (see the package docstring for the flow)."""

from __future__ import annotations

import random

from engine.core import (
    ActionTable,
    EngineError,
    Event,
    MatchConfig,
    Result,
    State,
    WireMap,
    ranks_from_keys,
    seeded_rng,
)

from engine.parts import Parts

from . import view
from .rules import CHALLENGE, FACES, Rules
from .words import wire_ints

NOBODY = -1


class LiarsDiceState(State):
    """A position. Public attributes are the position itself (change them only through
    :meth:`apply`, or when building a sample): ``dice`` (each seat's dice, empty once out),
    ``round`` (1-based), ``turn`` (the seat to act, ``-1`` once over), ``bid`` (the action id of
    the standing bid, ``0`` for none), ``bidder``, ``history`` (this round's bids as
    ``[seat, quantity, face]``), ``out`` (seats in the order they lost their last die),
    ``last_challenge`` (the public account of the latest challenge, ``None`` before the first)
    and ``chance`` (the seed of every roll still to come).
    """

    __slots__ = (
        "bid",
        "bidder",
        "chance",
        "config",
        "dice",
        "history",
        "last_challenge",
        "log",
        "out",
        "parts",
        "private",
        "round",
        "rules",
        "turn",
    )

    config: MatchConfig
    log: list[Event]
    rules: Rules
    chance: int
    dice: list[list[int]]
    round: int
    turn: int
    bid: int
    bidder: int
    history: list[list[int]]
    out: list[int]
    last_challenge: WireMap | None
    private: tuple[frozenset[int], ...]
    parts: Parts

    @classmethod
    def empty(cls, rules: Rules, config: MatchConfig, chance: int) -> LiarsDiceState:
        """A position before the first roll: no dice, no round, no one to act (for dealing and sampling)."""
        st = cls.__new__(cls)
        st.config, st.log, st.rules, st.chance = config, [], rules, chance
        st.dice = [[] for _ in range(rules.players)]
        st.round, st.turn, st.bid, st.bidder = 0, NOBODY, CHALLENGE, NOBODY
        st.history, st.out, st.last_challenge = [], [], None
        st.private = tuple(frozenset({s}) for s in range(rules.players))
        st.parts = Parts()
        return st

    @classmethod
    def deal(cls, rules: Rules, config: MatchConfig, seed: int) -> LiarsDiceState:
        """A fresh game: every seat holds ``rules.dice`` dice; seat 0 opens round 1."""
        st = cls.empty(rules, config, seed)
        st.dice = [[0] * rules.dice for _ in range(rules.players)]
        st.begin_round(0)
        return st

    def clone(self) -> LiarsDiceState:
        """An independent copy (lists copied; the rules and the published challenge map shared,
        as nothing changes them; observation parts not carried over)."""
        st = LiarsDiceState.__new__(LiarsDiceState)
        st.config, st.log, st.rules, st.chance = self.config, self.log.copy(), self.rules, self.chance
        st.dice = [d.copy() for d in self.dice]
        st.round, st.turn, st.bid, st.bidder = self.round, self.turn, self.bid, self.bidder
        st.history = [h.copy() for h in self.history]
        st.out, st.last_challenge, st.private = self.out.copy(), self.last_challenge, self.private
        st.parts = Parts()
        return st

    # ----------------------------------------------------------------- the contract

    def table(self) -> ActionTable:
        return self.rules.table

    def to_move(self) -> tuple[int, ...]:
        return () if self.turn == NOBODY else (self.turn,)

    def legal_actions(self, seat: int) -> list[int]:
        if seat != self.turn or self.turn == NOBODY:
            return []
        bids = list(range(self.bid + 1, self.rules.last_bid_id(self.dice_in_play()) + 1))
        return bids if self.bid == CHALLENGE else [CHALLENGE, *bids]

    def apply(self, seat: int, action: int) -> None:
        if action == CHALLENGE:
            self._challenge(seat)
            return
        quantity, face = self.rules.bid_of(action)
        self.bid, self.bidder = action, seat
        self.history.append([seat, quantity, face])
        self.note({"type": "bid", "seat": seat, "quantity": quantity, "face": face})
        self.turn = self.next_alive(seat)

    def is_over(self) -> bool:
        return self.turn == NOBODY

    def scores(self) -> list[int]:
        """Each seat's score now: the seats it has outlasted so far (a seat still in, every seat
        out; a seat out, those out before it); at the end, the final scores."""
        return [self.out.index(s) if s in self.out else len(self.out) for s in range(self.rules.players)]

    def result(self) -> Result:
        """Scores (:meth:`scores`: the winner ``players - 1``); ranks by elimination order;
        ``detail`` with rounds, the end, the winner and the elimination order."""
        if not self.is_over():
            raise EngineError("the game is not over")
        scores = tuple(self.scores())
        detail: WireMap = {
            "rounds": self.round,
            "end": "last-standing",
            "winner": self.alive()[0],
            "eliminated": wire_ints(self.out),
        }
        return Result(scores, ranks_from_keys([(s,) for s in scores]), detail)

    def observation(self, seat: int) -> WireMap:
        """What ``seat`` may know now (see :mod:`liars_dice.view`); read-only to callers, its
        unchanged parts the same objects as in earlier observations (see :mod:`engine.parts`)."""
        return view.observation(self, seat)

    def render(self, seat: int | None = None) -> str:
        return view.render(self, seat)

    def determinize(self, seat: int, rng: random.Random) -> LiarsDiceState:
        """Every other seat's dice rolled anew by ``rng`` (their counts kept) and future rolls
        reseeded: bids say nothing certain about dice, so every roll is consistent with them."""
        st = self.clone()
        st.chance = rng.getrandbits(63)
        for other, held in enumerate(st.dice):
            if other != seat:
                st.dice[other] = [rng.randint(1, FACES) for _ in held]
        return st

    # ----------------------------------------------------------------- play

    def note(self, data: WireMap, seat: int | None = None) -> None:
        """Log an event: public, or private to ``seat``."""
        self.log.append(Event(None if seat is None else self.private[seat], data))

    def dice_in_play(self) -> int:
        """How many dice are on the table."""
        return sum(len(d) for d in self.dice)

    def alive(self) -> list[int]:
        """The seats still holding dice, ascending."""
        return [s for s, d in enumerate(self.dice) if d]

    def next_alive(self, seat: int) -> int:
        """The first seat clockwise after ``seat`` still holding dice."""
        n = self.rules.players
        for step in range(1, n + 1):
            other = (seat + step) % n
            if self.dice[other]:
                return other
        raise EngineError("no seat holds dice")

    def begin_round(self, opener: int) -> None:
        """Roll every seat's dice (from the chance seed, the round and the seat) and let ``opener`` bid."""
        self.round += 1
        for seat, held in enumerate(self.dice):
            rng = seeded_rng(self.chance, "roll", self.round, seat)
            self.dice[seat] = [rng.randint(1, FACES) for _ in held]
        self.turn, self.bid, self.bidder, self.history = opener, CHALLENGE, NOBODY, []
        counts = wire_ints(len(d) for d in self.dice)
        self.note({"type": "round", "round": self.round, "opener": opener, "dice_counts": counts})
        for seat, held in enumerate(self.dice):
            if held:
                self.note({"type": "rolled", "round": self.round, "dice": wire_ints(sorted(held))}, seat)

    def _challenge(self, seat: int) -> None:
        quantity, face = self.rules.bid_of(self.bid)
        count = sum(self.rules.matching(held, face) for held in self.dice)
        loser = seat if count >= quantity else self.bidder
        account: WireMap = {
            "round": self.round,
            "seat": seat,
            "bidder": self.bidder,
            "quantity": quantity,
            "face": face,
            "count": count,
            "loser": loser,
            "dice": [wire_ints(sorted(held)) for held in self.dice],
        }
        self.last_challenge = account
        self.note({"type": "challenge", **account})
        self.dice[loser].pop()
        if not self.dice[loser]:
            self.out.append(loser)
            place = self.rules.players - len(self.out) + 1
            self.note({"type": "eliminated", "seat": loser, "place": place})
        alive = self.alive()
        if len(alive) == 1:
            self.turn = NOBODY
            self.note({"type": "end", "winner": alive[0], "eliminated": list(self.out)})
            return
        self.begin_round(loser if self.dice[loser] else self.next_alive(loser))
