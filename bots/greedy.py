"""The greedy bot: looks one turn ahead and takes what looks best now.

Run as ``python -m bots.greedy``. For each legal action it plays the action on a few states sampled
from its observation (hidden cards dealt at random), finishes its own turn where the game's turns
are several decisions (in Wongar, each further decision of the turn taken the same greedy way:
:func:`bots.heuristics.finisher`), and scores the result with the game's estimate of final points
(:mod:`bots.heuristics`): its own estimate minus the best other seat's. At levels 1 and 2 it does
not finish its turn (:data:`WHOLE_TURN_LEVEL`). In a game with no estimate of its own it plays each
sample on at random to the end and scores the final scores (a flat Monte Carlo search, a node one
playout of each action). It samples as many states as its clock allows (at
least one, at most :data:`MAX_SAMPLES`), or exactly its node budget (a node is one sampled state),
and breaks ties at random. It reports
``info = {"nodes", "spent_ms", "value"}`` (and ``"cut"`` when the clock cut a node budget short).
"""

from __future__ import annotations

from bots.heuristics import Estimator, as_it_is, estimator, finisher, knows, margin, random_finisher, results
from bots.shared.budget import Budget
from bots.shared.match import Match, Policy, serve
from engine.core import State, WireMap
from arena_bot.sdk import Choice, Clock

#: Most sampled states per decision when thinking by the clock; one is always used, more while it allows.
MAX_SAMPLES = 4
#: The lowest level that finishes its own turn before scoring; below it, each decision is scored
#: where it leaves the game (one decision ahead: a boss between random and the ladder's greedy).
WHOLE_TURN_LEVEL = 3


def greedy_policy(match: Match, estimate: Estimator | None = None) -> Policy:
    """The greedy ``choose`` for one match, scoring by ``estimate`` (by default its game's,
    :func:`~bots.heuristics.estimator`; the estimate's tuning benchmark plays others)."""
    if estimate is None:
        estimate = estimator(match.config.game)
    whole_turn = match.level is None or match.level >= WHOLE_TURN_LEVEL
    if not knows(match.config.game):  # no estimate: each sample of an action played on to the end
        finish = random_finisher(match.rng)
    else:
        finish = finisher(match.config.game, estimate) if whole_turn else as_it_is
    seat = match.seat

    def choose(observation: WireMap, legal: tuple[int, ...], clock: Clock) -> int | Choice:
        if len(legal) == 1:
            return legal[0]
        totals = dict.fromkeys(legal, 0.0)
        samples = 0
        state = match.sample(observation)
        budget = Budget(clock, match.nodes, len(state.to_move()))
        limit = MAX_SAMPLES if match.nodes is None else match.nodes
        while True:
            scored = _score(state, legal, budget)
            if len(scored) < len(legal):  # the clock ran out within this sample
                if samples == 0:
                    totals = scored
                break
            for action, value in scored.items():
                totals[action] += value
            samples += 1
            if samples >= limit or not budget.more(samples):
                break
            state = match.sample(observation)
        best = max(totals.values())
        action = match.rng.choice([a for a in totals if totals[a] == best])
        return Choice(action, info={**budget.report(samples), "value": round(best / max(samples, 1), 4)})

    def _score(state: State, actions: tuple[int, ...], budget: Budget) -> dict[int, float]:
        """Each action's margin on ``state`` after its turn is finished, in order, stopping early
        (at least one scored) if a clock-driven budget runs out: a whole turn finished for every
        action of a large decision can outlast a short move."""
        return {action: margin(estimates, seat)
                for action, estimates in results(state, seat, actions, estimate, finish, budget.over)}

    return choose


def main() -> int:
    """Play until the referee says bye; the exit status."""
    return serve("greedy", "1", greedy_policy)


if __name__ == "__main__":
    raise SystemExit(main())
