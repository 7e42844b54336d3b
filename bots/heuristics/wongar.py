"""A Wongar position's worth to each seat, in points: the score plus what its standing promises.

Promised points: each piece-kind majority a seat holds alone on a territory (worth the points of a
ceremony there now, weighted by how soon one may come: the Ancestor's and Elder's reach, a ceremony
under way), the territory-card majorities (the end bonus, weighted by how near the end is), and
ritual cards in hand (the means to fight a ceremony).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.wongar.cards import CARD_MAJORITY_BONUS
from engine.wongar.state import Pending, WongarState


@dataclass(frozen=True, slots=True)
class Weights:
    """What the estimate credits, in points or shares of points.

    A majority of a piece kind held alone on a territory is credited a share of a ceremony's
    points there now: ``base_share``, ``reach_share`` where the Ancestor or Elder can call one
    next, ``ceremony_share`` where one is under way; times ``thin_lead`` when it is held by a
    single piece. The end bonus of each territory-card majority is credited by how far the Scorpion
    has gone, never less than ``end_floor`` of it, times ``end_bonus``; each ritual card in hand is
    worth ``ritual_card`` points.
    """

    base_share: float = 0.65
    reach_share: float = 0.5
    ceremony_share: float = 1.6
    thin_lead: float = 0.7
    ritual_card: float = 0.85
    end_floor: float = 0.7
    end_bonus: float = 1.4


#: The weights the built-in bots play with: tuned by play (``benchmarks/estimate_tuning.py``,
#: docs/bots.md), where a seat on the hand-set ones (0.3, 0.5, 0.9, 0.6, 1.5, 0.3, 1.0) won 28% of
#: its comparisons with seats on these (240 games).
WEIGHTS = Weights()
_CEREMONY = (int(Pending.CEREMONY_PLAY), int(Pending.CEREMONY_EFFECT))


def estimate(state: WongarState, weights: Weights = WEIGHTS) -> list[float]:
    """Each seat's estimated final points (the exact scores once the game is over)."""
    scores = [float(v) for v in state.scores]
    if state.is_over():
        return scores
    n = state.n
    pieces = state.pieces
    board = state.board
    phase = state.phase() - 1
    value = sum(state.points[phase]) / 3
    reach = set(board.neighbours[state.ancestor_at]) | set(board.within_two[state.elder_at])
    ceremony = state.cer_territory if state.pending in _CEREMONY else -1
    for t in range(len(board.names)):
        share = (weights.ceremony_share if t == ceremony else
                 weights.reach_share if t in reach else weights.base_share)
        for k in range(3):
            best = second = 0
            holder = -1
            for s in range(n):
                count = pieces[(t * n + s) * 3 + k]
                if count > best:
                    best, second, holder = count, best, s
                elif count > second:
                    second = count
            if holder >= 0 and best > second:
                scores[holder] += value * share * (weights.thin_lead if best - second == 1 else 1.0)
    progress = max(weights.end_floor, state.track / state.last_space)
    for k in range(3):
        counts = [state.taken[s * 9 + k] for s in range(n)]
        top = max(counts)
        if top:
            leaders = [s for s in range(n) if counts[s] == top]
            for s in leaders:
                scores[s] += weights.end_bonus * CARD_MAJORITY_BONUS * progress / len(leaders)
    hands = state.hands
    for s in range(n):
        scores[s] += weights.ritual_card * sum(hands[s * 5: s * 5 + 4])
    return scores
