"""The ISMCTS bot: Information-Set Monte Carlo Tree Search within its clock.

Run as ``python -m bots.ismcts``. Each decision samples a full state from its observation
(``Game.sample_state``), then searches (:mod:`bots.shared.tree_search`) over fresh deals of the hidden
information until its share of the clock is spent, and answers the most visited action with
``info = {"iterations": n, "value": v}`` (``v``: that action's mean reward, 0 = last, 1 = first).
"""

from __future__ import annotations

import time

from bots.heuristics import estimator, playout_depth
from bots.shared.match import Match, Policy, deadline, serve
from bots.shared.tree_search import search
from engine.core import WireMap
from protocols.sdk import Choice, Clock


def ismcts_policy(match: Match) -> Policy:
    """The ISMCTS ``choose`` for one match."""
    estimate = estimator(match.config.game)
    depth = playout_depth(match.config.game)

    def choose(observation: WireMap, legal: tuple[int, ...], clock: Clock) -> int | Choice:
        if len(legal) == 1:
            return Choice(legal[0], info={"iterations": 0, "value": None})
        started = time.monotonic()
        root = match.sample(observation)
        stop = deadline(clock, started, len(root.to_move()))
        verdict = search(root, match.seat, legal, estimate, depth, stop, match.rng)
        return Choice(verdict.action, info={"iterations": verdict.iterations, "value": round(verdict.value, 4)})

    return choose


def main() -> int:
    """Play until the referee says bye; the exit status."""
    return serve("ismcts", "1", ismcts_policy)


if __name__ == "__main__":
    raise SystemExit(main())
