"""A Wongar position's worth to each seat, in points: the score plus what its standing promises.

Promised points: each piece-kind majority a seat holds alone on a territory (worth the points of a
ceremony there now, weighted by how soon one may come: the Ancestor's and Elder's reach, a ceremony
under way), the territory-card majorities (the end bonus, weighted by how near the end is), and
ritual cards in hand (the means to fight a ceremony).
"""

from __future__ import annotations

from engine.wongar.cards import CARD_MAJORITY_BONUS
from engine.wongar.state import Pending, WongarState

#: Share of a majority's ceremony points credited, by how near a ceremony is.
BASE_SHARE = 0.3
REACH_SHARE = 0.5
CEREMONY_SHARE = 0.9
#: A majority held by a single piece is easily lost.
THIN_LEAD = 0.6
#: Points credited per ritual card in hand (less plays stronger, not yet taken: docs/bots.md).
RITUAL_CARD = 1.5
_CEREMONY = (int(Pending.CEREMONY_PLAY), int(Pending.CEREMONY_EFFECT))


def estimate(state: WongarState) -> list[float]:
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
        share = CEREMONY_SHARE if t == ceremony else REACH_SHARE if t in reach else BASE_SHARE
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
                scores[holder] += value * share * (THIN_LEAD if best - second == 1 else 1.0)
    progress = max(0.3, state.track / state.last_space)
    for k in range(3):
        counts = [state.taken[s * 9 + k] for s in range(n)]
        top = max(counts)
        if top:
            leaders = [s for s in range(n) if counts[s] == top]
            for s in leaders:
                scores[s] += CARD_MAJORITY_BONUS * progress / len(leaders)
    hands = state.hands
    for s in range(n):
        scores[s] += RITUAL_CARD * sum(hands[s * 5: s * 5 + 4])
    return scores
