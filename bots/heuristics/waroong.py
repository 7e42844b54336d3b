"""A Waroong Wars position's worth to each seat, in points: the score plus what its cards promise.

Promised points: the dish under construction (nearly served), then the open menus a seat's
groceries (picks, this step's pick, the kept card) and Boss cards can complete, best first, credited
more when it is that seat's turn now than later; and a share of the best menu it is building toward.
Groceries about to be discarded (a seat choosing what to keep) promise nothing.
"""

from __future__ import annotations

from engine.waroong.cards import CUSTOMER_VALUES, KERUPUK, MAIN_KINDS, SAMBAL
from engine.waroong.phases import COOK_STEP, DISH, DRAFT, KEEP_STEP, OVER
from engine.waroong.state import WaroongState

#: Share of a dish credited while it is under construction, completable on one's turn, or later.
SERVING = 0.95
NOW = 0.9
LATER = 0.6
#: Share of a not yet completable menu's points credited per fraction of its groceries held.
PROGRESS = 0.35
#: A supplement held with a dish to put it on.
SUPPLEMENT = 0.7


def estimate(state: WaroongState) -> list[float]:
    """Each seat's estimated final points (the exact scores once the game is over)."""
    if state.phase == OVER:
        return [float(v) for v in state.scores()]
    return [_score(state, seat) + _promise(state, seat) for seat in range(state.rules.players)]


def _score(state: WaroongState, seat: int) -> float:
    """``state.scores()[seat]``, computed without building the other seats' scores."""
    dishes = state.rules.dishes
    total = 0
    for dish, sambal, kerupuk in state.cooked[seat]:
        total += dishes[dish].points + sambal + kerupuk
    for count, value in zip(state.customers[seat], CUSTOMER_VALUES):
        if count:
            total += count * value
    return float(total)


def _promise(state: WaroongState, seat: int) -> float:
    dishes = state.rules.dishes
    closing = state.phase == KEEP_STEP and state.turn == seat
    have = [0] * len(state.picks[seat]) if closing else state.picks[seat][:]
    if state.kept[seat] >= 0:
        have[state.kept[seat]] += 1
    if state.phase == DRAFT and state.pending[seat] >= 0:
        have[state.pending[seat]] += 1
    boss = state.customers[seat][:MAIN_KINDS]
    row = list(state.row)
    total = 0.0
    if state.phase == DISH and state.turn == seat:
        dish = row.pop(state.dish_pos)
        total += SERVING * (dishes[dish].points + state.dish_sup[0] + state.dish_sup[1])
        for kind, count in dishes[dish].needs:
            paid_by_boss = state.dish_boss[kind]
            boss[kind] -= paid_by_boss
            have[kind] -= count - paid_by_boss
        have[SAMBAL] -= state.dish_sup[0]
        have[KERUPUK] -= state.dish_sup[1]
    share = NOW if state.turn == seat and state.phase in (COOK_STEP, DISH) else LATER
    completed = 0
    if len(row) > 1:
        row.sort(key=lambda d: -dishes[d].points)
    for dish in row:
        needs = dishes[dish].needs
        for kind, count in needs:
            if have[kind] + boss[kind] < count:
                break
        else:
            total += share * dishes[dish].points
            completed += 1
            for kind, count in needs:
                from_groceries = have[kind] if have[kind] < count else count
                have[kind] -= from_groceries
                boss[kind] -= count - from_groceries
    best_progress = 0.0
    for dish in row:
        held = 0
        wanted = 0
        for kind, count in dishes[dish].needs:
            got = have[kind] + boss[kind]
            held += got if got < count else count
            wanted += count
        progress = dishes[dish].points * held / wanted
        if progress > best_progress:
            best_progress = progress
    total += PROGRESS * best_progress
    total += SUPPLEMENT * min(completed, have[SAMBAL] + have[KERUPUK])
    return total
