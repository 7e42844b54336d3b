"""A Waroong Wars position's worth to each seat, in points: the score plus what its cards promise.

Promised points: the dish under construction (nearly served), then the open menus a seat's
groceries (picks, this step's pick, the kept card) and Boss cards can complete, best first, credited
more when it is that seat's turn now than later; and a share of the best menu it is building toward.
Groceries about to be discarded (a seat choosing what to keep) promise nothing.
"""

from __future__ import annotations

from engine.waroong.cards import KERUPUK, MAIN_KINDS, SAMBAL
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
    scores = [float(v) for v in state.scores()]
    if state.phase == OVER:
        return scores
    for seat in range(state.rules.players):
        scores[seat] += _promise(state, seat)
    return scores


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
        total += SERVING * (dishes[dish].points + sum(state.dish_sup))
        for kind, count in dishes[dish].needs:
            paid_by_boss = state.dish_boss[kind]
            boss[kind] -= paid_by_boss
            have[kind] -= count - paid_by_boss
        have[SAMBAL] -= state.dish_sup[0]
        have[KERUPUK] -= state.dish_sup[1]
    share = NOW if state.turn == seat and state.phase in (COOK_STEP, DISH) else LATER
    completed = 0
    for dish in sorted(row, key=lambda d: -dishes[d].points):
        needs = dishes[dish].needs
        if all(have[kind] + boss[kind] >= count for kind, count in needs):
            total += share * dishes[dish].points
            completed += 1
            for kind, count in needs:
                from_groceries = min(have[kind], count)
                have[kind] -= from_groceries
                boss[kind] -= count - from_groceries
    best_progress = 0.0
    for dish in row:
        needs = dishes[dish].needs
        held = sum(min(have[kind] + boss[kind], count) for kind, count in needs)
        wanted = sum(count for _, count in needs)
        best_progress = max(best_progress, dishes[dish].points * held / wanted)
    total += PROGRESS * best_progress
    total += SUPPLEMENT * min(completed, have[SAMBAL] + have[KERUPUK])
    return total
