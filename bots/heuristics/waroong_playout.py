"""A quick Waroong Wars playout policy for search: every seat plays like a hasty beginner to the end
of the round, so that a search sees what its draft picks cook once the other seats have picked too.

Draft: each seat takes the grocery that brings an open menu nearest completion, weighted by the
menu's points (a supplement is worth a little once a menu is in reach), now and then a random one.
Cooking: the best completable menu first, every supplement held, then end the turn, keeping the
grocery the row wants most. Customer cards are not played; a Security is used, a Businesswoman not.
"""

from __future__ import annotations

import random

from engine.waroong.actions import ADD_KERUPUK, ADD_SAMBAL, COOK, END_TURN, KEEP, KEEP_NOTHING, SERVE
from engine.waroong.cards import KERUPUK, MAIN_KINDS, SAMBAL
from engine.waroong.phases import COOK_STEP, DISH, DRAFT, KEEP_STEP, OFFER, OVER, SECURITY_STEP
from engine.waroong.state import WaroongState

#: Chance that a seat picks at random in the draft (so that playouts differ).
WANDER = 0.15
#: Worth of a supplement, relative to one point of a menu in reach.
SUPPLEMENT_WORTH = 0.8


def play_round(state: WaroongState, rng: random.Random) -> None:
    """Play ``state`` on to the start of the next round's draft (or the end of the game)."""
    rounds = state.rounds
    lay = state.rules.layout
    while state.phase != OVER and not (state.phase == DRAFT and state.rounds > rounds):
        phase = state.phase
        if phase == DRAFT:
            for seat in state.to_move():
                hand = state.hands[seat]
                if rng.random() < WANDER:
                    state.apply(seat, rng.choice([k for k in range(len(hand)) if hand[k]]))
                else:
                    state.apply(seat, _wanted(state, seat, hand, rng))
        elif phase == COOK_STEP:
            state.apply(state.turn, _best_cook(state))
        elif phase == DISH:
            have = state.picks[state.turn]
            if have[SAMBAL] and not state.dish_sup[0]:
                state.apply(state.turn, ADD_SAMBAL)
            elif have[KERUPUK] and not state.dish_sup[1]:
                state.apply(state.turn, ADD_KERUPUK)
            else:
                state.apply(state.turn, SERVE)
        elif phase == KEEP_STEP:
            have = state.picks[state.turn]
            kind = _wanted(state, state.turn, have, rng)
            state.apply(state.turn, KEEP + kind if kind < MAIN_KINDS else KEEP_NOTHING)
        elif phase == SECURITY_STEP:
            state.apply(state.react_target, lay.security_use)
        elif phase == OFFER:
            state.apply(state.offers[0], lay.businesswoman_pass)


def _wanted(state: WaroongState, seat: int, offered: list[int], rng: random.Random) -> int:
    """The kind among ``offered`` (counts) that the open menus want most for ``seat``."""
    dishes = state.rules.dishes
    have = state.picks[seat]
    boss = state.customers[seat]
    kept = state.kept[seat]
    pending = state.pending[seat]
    worth = [0.0] * len(offered)
    in_reach = False
    for dish in state.row:
        needs = dishes[dish].needs
        missing = 0
        for kind, count in needs:
            got = have[kind] + boss[kind] + (kind == kept) + (kind == pending)
            if got < count:
                missing += count - got
        if missing == 0:
            in_reach = True
            continue
        value = dishes[dish].points / missing
        for kind, count in needs:
            if offered[kind] and have[kind] + boss[kind] + (kind == kept) + (kind == pending) < count:
                if value > worth[kind]:
                    worth[kind] = value
    if in_reach:
        for kind in range(MAIN_KINDS, len(offered)):
            if not have[kind]:
                worth[kind] = max(worth[kind], SUPPLEMENT_WORTH)
    best = -1.0
    choice = -1
    for kind, count in enumerate(offered):
        if count:
            score = worth[kind] + rng.random() * 0.01
            if score > best:
                best, choice = score, kind
    return choice


def _best_cook(state: WaroongState) -> int:
    """``cook`` the best-paying menu the turn's seat can make, else ``end-turn``."""
    seat = state.turn
    have = state.picks[seat]
    boss = state.customers[seat]
    dishes = state.rules.dishes
    best_points = 0
    best = END_TURN
    for pos, dish in enumerate(state.row):
        points = dishes[dish].points
        if points > best_points and all(have[k] + boss[k] >= c for k, c in dishes[dish].needs):
            best_points, best = points, COOK + pos
    return best
