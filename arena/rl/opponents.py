"""The seats a Gymnasium environment plays itself: any ``(observation, legal) -> action`` callable,
made afresh for every deal by an :data:`OpponentFactory` from its seat and a seed."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from arena_bot.sdk import Choice, Clock, clock_reading
from bots.shared.match import Match, Policy
from engine.core import Game, MatchConfig, WireMap

#: Picks one of ``legal`` (ascending action ids) given the seat's observation.
Opponent = Callable[[WireMap, Sequence[int]], int]
#: Makes the opponent of one seat for one deal: ``(game, config, seat, seed) -> Opponent``.
OpponentFactory = Callable[[Game, MatchConfig, int, int], Opponent]

#: The clock an in-process built-in bot is given: it thinks by its node budget, never by time.
UNTIMED_SECONDS = 3600.0


def random_opponent(game: Game, config: MatchConfig, seat: int, seed: int) -> Opponent:
    """Any legal action, uniformly, from a generator seeded by ``seed``."""
    rng = random.Random(seed)
    return lambda observation, legal: rng.choice(list(legal))


def builtin_opponent(policy_for: Callable[[Match], Policy], nodes: int) -> OpponentFactory:
    """A built-in bot's policy (e.g. :func:`bots.greedy.greedy_policy`) run in this process on a
    budget of ``nodes`` nodes per decision, so that a seeded deal is played the same every time."""

    def make(game: Game, config: MatchConfig, seat: int, seed: int) -> Opponent:
        choose = policy_for(Match(game, config, seat, random.Random(seed), nodes))

        def act(observation: WireMap, legal: Sequence[int]) -> int:
            clock = Clock(UNTIMED_SECONDS, 0.0, 0.0, "wall", clock_reading("wall"))
            picked = choose(observation, tuple(legal), clock)
            return picked.action if isinstance(picked, Choice) else picked

        return act

    return make
