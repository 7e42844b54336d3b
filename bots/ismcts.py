"""The ISMCTS bot: Information-Set Monte Carlo Tree Search within its clock.

Run as ``python -m bots.ismcts``. Each decision samples a full state from its observation
(``Game.sample_state``), then searches (:mod:`bots.shared.tree_search`) over fresh deals of the hidden
information until its share of the clock is spent, or for exactly its node budget (a node is one
iteration), and answers the most visited action with ``info = {"nodes", "spent_ms", "value"}``
(``value``: that action's mean reward, 0 = last, 1 = first; ``"cut": true`` when the clock cut a
node budget short).
In Waroong Wars it remembers the draft hands it received (:mod:`bots.shared.draft_memory`), and
every deal it searches agrees with them.
"""

from __future__ import annotations

from dataclasses import dataclass

from bots.heuristics import estimator, playout, rewards
from bots.shared.budget import Budget
from bots.shared.draft_memory import DraftMemory, remembering_dealer
from bots.shared.match import Match, Policy, serve
from bots.shared.tree_search import EXPLORATION, Dealer, Rewards, determinize, search
from engine.core import WireMap
from engine.waroong.state import WaroongState
from arena_bot.sdk import Choice, Clock


@dataclass(frozen=True, slots=True)
class Settings:
    """How the search scores and explores: each seat's reward from the estimate, the UCB constant."""

    reward: Rewards = rewards
    exploration: float = EXPLORATION


def ismcts_policy(match: Match, settings: Settings = Settings()) -> Policy:
    """The ISMCTS ``choose`` for one match, searching with ``settings``."""
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
        verdict = search(root, match.seat, legal, estimate, play_on, budget.more, match.rng, dealer,
                         settings.exploration, settings.reward)
        info: WireMap = {**budget.report(verdict.iterations), "value": round(verdict.value, 4)}
        return Choice(verdict.action, info=info)

    return choose


def main() -> int:
    """Play until the referee says bye; the exit status."""
    return serve("ismcts", "1", ismcts_policy)


if __name__ == "__main__":
    raise SystemExit(main())
