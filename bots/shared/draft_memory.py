"""What a Waroong Wars seat remembers of the draft, and deals of the hidden cards that agree with it.

In the draft every hand passes to the left after each pick, so a seat sees each hand of the round
in turn. From the hands it received and its own picks it knows, at a step ``t``:

* the hand now held by the seat ``d`` places to its left, when it passed that hand ``d`` steps
  ago: the hand as it left, less the ``d - 1`` cards the seats in between took (unknown which);
* the cards the other seats took from a hand that has come all the way round back to it (which
  seat took which is unknown).

Once the draft is over, every card it saw leave its hands was taken by one of the seats that hand
passed next, so in the cooking that follows a seat that has not had its cooking turn (and has
neither lost a card to a Thief nor taken one) still holds the cards placed with it.

The observation keeps no such history (the engine's ``sample_state`` deals the other hands from
every unseen card); a bot that remembers the hands it received may. :class:`DraftMemory` records
them from the observations it is given, and :meth:`DraftMemory.constrain` re-deals the other
seats' hands and picks of a sampled state so that they agree with what was seen (the cards taken
by unknown seats assigned at random), in the draft and in the same round's cooking.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from engine.core import State, WireMap
from engine.waroong.cards import GROCERIES
from engine.waroong.phases import DISH, DRAFT
from engine.waroong.state import NO_CARD, WaroongState

Counts = list[int]
#: Tries at placing the cards taken by unknown seats so that the deal can hold them (after the draft
#: a placing can ask for a card that is no longer hidden: already cooked or discarded).
PLACINGS = 4


class DraftMemory:
    """The hands one seat received in the current round's draft, in order, with its picks then."""

    __slots__ = ("seat", "round", "hands", "picks")

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.round = -1
        self.hands: list[Counts] = []
        self.picks: list[Counts] = []

    def observe(self, observation: WireMap) -> None:
        """Remember the hand of a draft observation (others are ignored); a new round forgets the last."""
        if observation.get("phase") != "draft" or observation.get("picked") is not None:
            return
        picks = _counts(observation["picks"])
        hand = _counts(observation["hand"])
        round_ = observation["round"]
        step = sum(picks)
        if round_ != self.round or step != len(self.hands):
            if step != 0:
                self.round, self.hands, self.picks = -1, [], []
                return
            self.round, self.hands, self.picks = round_ if isinstance(round_, int) else -1, [], []
        self.hands.append(hand)
        self.picks.append(picks)

    def constrain(self, state: WaroongState, rng: random.Random) -> WaroongState:
        """``state`` (a deal of this seat's current observation) with the other seats' hands, picks
        and kept cards and the grocery deck re-dealt to agree with the remembered draft.

        In the draft, every other seat's hand and picks agree with the hands seen so far. After it
        (the same round's cooking), the whole draft is known, and every other seat that still holds
        all it drafted (it has not cooked, and nothing was stolen from or by it) holds the cards
        the memory places with it; the others are dealt as ``State.determinize`` deals them.
        Changes ``state`` in place and returns it; leaves it as it was when memory and state do
        not describe the same round (nothing remembered, a step missed, a card missing).
        """
        n = state.rules.players
        if state.rounds != self.round or n < 2 or not self.hands:
            return state
        if state.phase == DRAFT:
            step = len(self.hands) - 1
            if step < 1 or sum(state.picks[self.seat]) != step or state.hands[self.seat] != self.hands[step]:
                return state
            hands, picks = self.hands, self.picks
            holders = [o for o in range(n) if o != self.seat]
        else:
            step = sum(self.hands[0])
            if len(self.hands) != step or sum(self.hands[-1]) != 1:
                return state
            hands = [*self.hands, [0] * len(GROCERIES)]
            picks = [*self.picks, [a + b for a, b in zip(self.picks[-1], self.hands[-1])]]
            holders = [o for o in range(n) if o != self.seat and _holds_its_draft(state, o, step)]
            if not holders:
                return state
        for _ in range(PLACINGS):
            known = _placed(self.seat, n, hands, picks, step, rng)
            if known is None:
                return state
            hand_need, pick_need = known
            if _redeal(state, holders, hand_need, pick_need, rng):
                break
        return state


def _holds_its_draft(state: WaroongState, seat: int, drafted: int) -> bool:
    """Whether ``seat`` still holds every grocery it drafted this round: it has not had its cooking
    turn, is not building a dish, and holds as many picks as it drafted."""
    building = state.phase == DISH and state.turn == seat
    return not state.done[seat] and not building and sum(state.picks[seat]) == drafted


def _placed(
    seat: int, n: int, hands: list[Counts], picks: list[Counts], step: int, rng: random.Random
) -> tuple[dict[int, Counts], dict[int, Counts]] | None:
    """From the hands ``seat`` received at steps ``0 .. step`` (with its picks then), the hand each
    other seat is known to hold at ``step`` and the cards each is known to have picked (cards taken
    by one of several seats, unknown which, placed at random among them); ``None`` when the hands
    seen cannot have followed one another."""
    kinds = len(GROCERIES)
    hand_need: dict[int, Counts] = {}
    pick_need: dict[int, Counts] = {o: [0] * kinds for o in range(n) if o != seat}
    for seen in range(step):
        mine = [b - a for a, b in zip(picks[seen], picks[seen + 1])]
        left = [h - m for h, m in zip(hands[seen], mine)]
        if seen + n <= step:
            came_back = hands[seen + n]
            taken = _expand([a - b for a, b in zip(left, came_back)])
            if len(taken) != n - 1 or min(a - b for a, b in zip(left, came_back)) < 0:
                return None
            rng.shuffle(taken)
            for d, kind in enumerate(taken, start=1):
                pick_need[(seat + d) % n][kind] += 1
        else:
            distance = step - seen
            cards = _expand(left)
            rng.shuffle(cards)
            for d in range(1, distance):
                pick_need[(seat + d) % n][cards.pop()] += 1
            hand_need[(seat + distance) % n] = _tally(cards, kinds)
    return hand_need, pick_need


def _redeal(
    state: WaroongState,
    others: list[int],
    hand_need: dict[int, Counts],
    pick_need: dict[int, Counts],
    rng: random.Random,
) -> bool:
    """Deal the hands, picks and kept cards of the seats ``others`` and the grocery deck of
    ``state`` anew among themselves, each of those seats getting at least what it is known to
    hold; ``False``, with ``state`` unchanged, when those cards cannot."""
    pool = [0] * len(GROCERIES)
    for o in others:
        for kind in range(len(GROCERIES)):
            pool[kind] += state.hands[o][kind] + state.picks[o][kind]
        if state.kept[o] != NO_CARD:
            pool[state.kept[o]] += 1
    for kind in state.groceries:
        pool[kind] += 1
    for o in others:
        need_hand = hand_need.get(o)
        if need_hand is not None and sum(need_hand) != sum(state.hands[o]):
            return False
        if sum(pick_need[o]) > sum(state.picks[o]):
            return False
        for need in (need_hand, pick_need[o]):
            if need is None:
                continue
            for kind, count in enumerate(need):
                pool[kind] -= count
    if min(pool) < 0:
        return False
    rest = _expand(pool)
    rng.shuffle(rest)
    for o in others:
        need_hand = hand_need.get(o)
        size = sum(state.hands[o])
        state.hands[o] = need_hand[:] if need_hand is not None else _take(rest, size)
        free = sum(state.picks[o]) - sum(pick_need[o])
        state.picks[o] = [a + b for a, b in zip(_take(rest, free), pick_need[o])]
        if state.kept[o] != NO_CARD:
            state.kept[o] = rest.pop()
    state.groceries = rest
    return True


def _take(pool: list[int], size: int) -> Counts:
    counts = [0] * len(GROCERIES)
    for _ in range(size):
        counts[pool.pop()] += 1
    return counts


def _tally(cards: list[int], kinds: int) -> Counts:
    counts = [0] * kinds
    for kind in cards:
        counts[kind] += 1
    return counts


def _expand(counts: Counts) -> list[int]:
    return [kind for kind, count in enumerate(counts) for _ in range(count)]


def _counts(value: object) -> Counts:
    """A ``{grocery: count}`` map of an observation as a count vector by kind."""
    if not isinstance(value, dict):
        raise ValueError("expected a map of grocery counts")
    counts = []
    for name in GROCERIES:
        count = value.get(name, 0)
        if not isinstance(count, int):
            raise ValueError("expected whole-number grocery counts")
        counts.append(count)
    return counts


def remembering_dealer(memory: DraftMemory) -> Callable[[State, int, random.Random], State]:
    """A search's dealer (``State.determinize``, the seat-safe redeal) whose Waroong Wars deals
    also agree with what ``memory`` remembers of the draft."""

    def deal(root: State, seat: int, rng: random.Random) -> State:
        dealt = root.determinize(seat, rng)
        return memory.constrain(dealt, rng) if isinstance(dealt, WaroongState) else dealt

    return deal
