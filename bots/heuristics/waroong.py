"""A Waroong Wars position's worth to each seat, in points: the score plus what its cards promise.

Promised points: the dish under construction (nearly served), then the open menus a seat's
groceries (picks, this step's pick, the kept card) and Boss cards can complete, best first, credited
more when it is that seat's turn now than later; and a share of the best menu it is building toward.
Groceries about to be discarded (a seat choosing what to keep) promise nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.waroong.cards import CUSTOMER_VALUES, KERUPUK, MAIN_KINDS, SAMBAL
from engine.waroong.phases import COOK_STEP, DISH, DRAFT, KEEP_STEP, OVER
from engine.waroong.state import WaroongState


@dataclass(frozen=True, slots=True)
class Weights:
    """What the estimate credits, in shares of points.

    A dish under construction is credited ``serving`` of its points; a menu the seat's groceries
    and Boss cards complete, ``now`` of its points on that seat's cooking turn and ``later``
    otherwise; the best menu not yet completable, ``progress`` of its points times the fraction of
    its groceries held; each supplement held that a completable menu can take, ``supplement``
    points.
    """

    serving: float = 0.95
    now: float = 0.9
    later: float = 0.6
    progress: float = 0.35
    supplement: float = 0.7


#: The weights the built-in bots play with (set by hand).
WEIGHTS = Weights()


def estimate(state: WaroongState, weights: Weights = WEIGHTS) -> list[float]:
    """Each seat's estimated final points (the exact scores once the game is over)."""
    if state.phase == OVER:
        return [float(v) for v in state.scores()]
    return [_score(state, seat) + _promise(state, seat, weights) for seat in range(state.rules.players)]


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


def _promise(state: WaroongState, seat: int, weights: Weights) -> float:
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
        total += weights.serving * (dishes[dish].points + state.dish_sup[0] + state.dish_sup[1])
        for kind, count in dishes[dish].needs:
            paid_by_boss = state.dish_boss[kind]
            boss[kind] -= paid_by_boss
            have[kind] -= count - paid_by_boss
        have[SAMBAL] -= state.dish_sup[0]
        have[KERUPUK] -= state.dish_sup[1]
    share = weights.now if state.turn == seat and state.phase in (COOK_STEP, DISH) else weights.later
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
    total += weights.progress * best_progress
    total += weights.supplement * min(completed, have[SAMBAL] + have[KERUPUK])
    return total
