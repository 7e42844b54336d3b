"""The expert bot: the strongest built-in, a deeper ISMCTS than ``ismcts``, tuned per game.

Run as ``python -m bots.expert``. Each decision samples a full state from its observation with the
game's seat-safe sampling (``Game.sample_state``, then ``State.determinize`` for every fresh deal:
the redeal the engine's seat-view leak audit checks), remembers the Waroong Wars draft hands it
received (:mod:`bots.shared.draft_memory`) so every deal agrees with them, and searches
(:mod:`bots.shared.tree_search`) for exactly its node budget (a node is one iteration), or by the
clock (:mod:`bots.shared.budget`), with the settings :data:`SETTINGS` gives its game (those of
``ismcts`` in a game not listed). It answers the most visited action with
``info = {"nodes", "spent_ms", "value"}`` (``"cut": true`` when the clock cut a node budget short).
"""

from __future__ import annotations

from dataclasses import dataclass

from bots.heuristics import estimator, playout, rewards
from bots.shared.budget import Budget
from bots.shared.draft_memory import DraftMemory, remembering_dealer
from bots.shared.match import Match, Policy, serve
from bots.shared.pairwise_reward import pairwise_rewards
from bots.shared.tree_search import EXPLORATION, Dealer, Rewards, determinize, search
from engine.core import WireMap
from engine.waroong.state import WaroongState
from arena_bot.sdk import Choice, Clock


@dataclass(frozen=True, slots=True)
class Settings:
    """How the search scores and explores: each seat's reward from the estimate, the UCB constant."""

    reward: Rewards = rewards
    exploration: float = EXPLORATION


#: Per game, the settings its measurements favour (benchmarks/expert_strength.py). In Wongar every
#: seat's reward is its mean head-to-head share (:mod:`bots.shared.pairwise_reward`, the way a
#: multiplayer rating counts a table; ``ismcts`` counts only the lead over the best other seat),
#: explored less, which pays once the tree is large. In Waroong Wars that reward measured weaker
#: than the lead, so only the budget differs from ``ismcts``.
SETTINGS: dict[str, Settings] = {"wongar": Settings(pairwise_rewards, 0.45)}


def expert_policy(match: Match) -> Policy:
    """The expert ``choose`` for one match."""
    estimate = estimator(match.config.game)
    play_on = playout(match.config.game)
    memory = DraftMemory(match.seat) if match.config.game == "waroong" else None
    dealer: Dealer = determinize if memory is None else remembering_dealer(memory)
    settings = SETTINGS.get(match.config.game, Settings())

    def choose(observation: WireMap, legal: tuple[int, ...], clock: Clock) -> int | Choice:
        if memory is not None:
            memory.observe(observation)
        if len(legal) == 1:
            return Choice(legal[0], info={"nodes": 0, "value": None})
        root = match.sample(observation)
        if memory is not None and isinstance(root, WaroongState):
            root = memory.constrain(root, match.rng)
        budget = Budget(clock, match.nodes, len(root.to_move()))
        verdict = search(root, match.seat, legal, estimate, play_on, budget.more, match.rng, dealer,
                         settings.exploration, settings.reward)
        info: WireMap = {**budget.report(verdict.iterations), "value": round(verdict.value, 4)}
        return Choice(verdict.action, info=info)

    return choose


def main() -> int:
    """Play until the referee says bye; the exit status."""
    return serve("expert", "1", expert_policy)


if __name__ == "__main__":
    raise SystemExit(main())
