"""The ISMCTS bot: Information-Set Monte Carlo Tree Search within its clock.

Run as ``python -m bots.ismcts``. Each decision samples a full state from its observation
(``Game.sample_state``), then searches (:mod:`bots.shared.tree_search`) over fresh deals of the hidden
information until its share of the clock is spent, or for exactly its node budget (a node is one
iteration; in Wongar each seat in the tree weighs only its best few actions by a greedy prior at
first, :data:`WIDENING`), and answers the most visited action (in Wongar the best by mean reward,
:data:`BEST_MEAN`, or its prior's best after fewer than :data:`FEWEST_ITERATIONS` iterations)
with ``info = {"nodes", "spent_ms", "value"}`` (``value``: that action's mean reward, 0 = last,
1 = first; ``"cut": true`` when the clock cut a node budget short).
In Waroong Wars it remembers the draft hands it received (:mod:`bots.shared.draft_memory`), and
every deal it searches agrees with them, in the draft and in the cooking after it.
"""

from __future__ import annotations

from dataclasses import replace

from bots.heuristics import Estimator, as_it_is, estimator, finisher, playout
from bots.shared.budget import Budget
from bots.shared.draft_memory import DraftMemory, remembering_dealer
from bots.shared.match import Match, Policy, serve
from bots.shared.tree_search import Dealer, Tuning, determinize, search
from engine.core import WireMap
from engine.waroong.state import WaroongState
from arena_bot.sdk import Choice, Clock


#: Visits a lone mover's actions start with below the root in Wongar, at the reward of their result
#: with the mover's turn finished greedily (as the root's prior): the other seats' replies in the
#: tree start from what a greedy seat would play. Without them the replies are tried at random
#: first, and a search of 60 iterations beat random 73% of the time at tables of three; with them at
#: the one-step result, 97%. At 400 iterations, in tables of three drawn from it, the one-step
#: search, greedy and random (144 games, 12 deals in every rotation), the whole-turn start scored
#: 70% against the one-step one and 59% against greedy (the one-step one: 54%), at twice the time.
NODE_PRIOR = 1
#: Root actions the answer is chosen from in Wongar (:func:`bots.shared.tree_search.answer`): all,
#: the best by mean reward. At 400 iterations and tables of three it won 77% of head-to-head
#: comparisons against the best mean among the actions with half the most visits, which won 75%
#: against the most visited (at 40 iterations: 60% against the most visited); in Waroong Wars the
#: answers measured level.
BEST_MEAN = 0.0
#: Progressive widening in Wongar (:class:`Tuning`): a seat in the tree chooses among its
#: ``1 + sqrt(visits)`` best actions by the whole-turn prior, so the iterations go deeper along the
#: turns a greedy seat would consider first. At 100 iterations, at tables of three and four with
#: ``greedy`` (140 games, every rotation of each deal, ``docs/bots.md``), the widening search won 58%
#: of its comparisons with the search without it, and 48% with ``greedy`` where that one won 45%,
#: at about 1.4 times the processor time; at 400 iterations (30 games at tables of three) 73% and
#: 58%, where the search without it won 40% with ``greedy``.
WIDENING = 1.0
#: Iterations below which a Wongar search answers its prior's best (:class:`Tuning`): a search of
#: 10 iterations (what a 20 ms or 100 ms move buys by the clock) lost to its own prior, ``greedy``
#: with one sampled state, in 58% and 63% of their comparisons (120 games each, docs/bots.md),
#: and at 100 iterations, the lowest level's budget, the search measured level with ``greedy``.
FEWEST_ITERATIONS = 100
#: Per game, how the search scores and explores (:class:`Tuning`; the defaults in a game not
#: listed). In Wongar the root's prior is the whole turn, as the greedy bot scores it.
TUNINGS: dict[str, Tuning] = {
    "wongar": Tuning(finish=finisher("wongar"), node_prior=NODE_PRIOR, answer_floor=BEST_MEAN, widening=WIDENING,
                     min_iterations=FEWEST_ITERATIONS),
}


def tuning_for(game: str) -> Tuning:
    """How ``ismcts`` searches in ``game``: its entry in :data:`TUNINGS`, else the defaults."""
    return TUNINGS.get(game, Tuning())


def ismcts_policy(match: Match, tuning: Tuning | None = None, estimate: Estimator | None = None) -> Policy:
    """The ISMCTS ``choose`` for one match, searching with ``tuning`` (by default its game's,
    :func:`tuning_for`) and scoring by ``estimate`` (by default its game's,
    :func:`~bots.heuristics.estimator`; the estimate's tuning benchmark plays others). Given an
    estimate, a search that finishes turns greedily finishes them by that estimate too, as
    ``greedy`` does."""
    if tuning is None:
        tuning = tuning_for(match.config.game)
    if estimate is None:
        estimate = estimator(match.config.game)
    elif tuning.finish is not as_it_is:
        tuning = replace(tuning, finish=finisher(match.config.game, estimate))
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
        verdict = search(root, match.seat, legal, estimate, play_on, budget.more, match.rng, dealer, tuning,
                         budget.over)
        info: WireMap = {**budget.report(verdict.iterations), "value": round(verdict.value, 4)}
        return Choice(verdict.action, info=info)

    return choose


def main() -> int:
    """Play until the referee says bye; the exit status."""
    return serve("ismcts", "1", ismcts_policy)


if __name__ == "__main__":
    raise SystemExit(main())
