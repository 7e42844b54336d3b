"""The expert bot: the strongest built-in, a deeper and more focused ISMCTS than ``ismcts``.

Run as ``python -m bots.expert``. Each decision samples a full state from its observation with the
game's seat-safe sampling (``Game.sample_state``, then ``State.determinize`` for every fresh deal:
the redeal the engine's seat-view leak audit checks), remembers the Waroong Wars draft hands it
received (:mod:`bots.shared.draft_memory`) so every deal agrees with them, and searches
(:mod:`bots.shared.tree_search`) for every seat's expected share of its head-to-head results, the
way multiplayer ratings count them (:mod:`bots.shared.pairwise_reward`; ``ismcts`` counts only the
lead over the best other seat), with a smaller UCB exploration constant, which pays once the tree
is large: for exactly its node budget (a node is one iteration), or by the
clock (:mod:`bots.shared.budget`). It answers the most visited action
with ``info = {"nodes", "spent_ms", "value"}`` (``"cut": true`` when the clock cut a node budget
short).
"""

from __future__ import annotations

from bots.heuristics import estimator, playout
from bots.shared.budget import Budget
from bots.shared.draft_memory import DraftMemory, remembering_dealer
from bots.shared.match import Match, Policy, serve
from bots.shared.pairwise_reward import pairwise_rewards
from bots.shared.tree_search import Dealer, determinize, search
from engine.core import WireMap
from engine.waroong.state import WaroongState
from arena_bot.sdk import Choice, Clock

#: The UCB exploration constant (``ismcts`` uses :data:`bots.shared.tree_search.EXPLORATION`).
EXPLORATION = 0.45


def expert_policy(match: Match) -> Policy:
    """The expert ``choose`` for one match."""
    estimate = estimator(match.config.game)
    play_on = playout(match.config.game)
    memory = DraftMemory(match.seat) if match.config.game == "waroong" else None
    dealer: Dealer = determinize if memory is None else remembering_dealer(memory)

    def choose(observation: WireMap, legal: tuple[int, ...], clock: Clock) -> int | Choice:
        if memory is not None:
            memory.observe(observation)
        if len(legal) == 1:
            return Choice(legal[0], info={"nodes": 0, "value": None})
        root = match.sample(observation)
        if memory is not None and isinstance(root, WaroongState):
            root = memory.constrain(root, match.rng)
        budget = Budget(clock, match.nodes, len(root.to_move()))
        verdict = search(root, match.seat, legal, estimate, play_on, budget.more, match.rng, dealer, EXPLORATION,
                         pairwise_rewards)
        info: WireMap = {**budget.report(verdict.iterations), "value": round(verdict.value, 4)}
        return Choice(verdict.action, info=info)

    return choose


def main() -> int:
    """Play until the referee says bye; the exit status."""
    return serve("expert", "1", expert_policy)


if __name__ == "__main__":
    raise SystemExit(main())
