"""What every built-in bot shares: the match it plays (from ``start``) and the loop.

A bot is a *policy factory*: given the :class:`Match` (game, configuration, seat, seeded rng, node
budget) it returns the ``choose`` function for that match. :func:`serve` runs the SDK loop, building
a fresh policy on every ``start``. Every random choice a bot makes draws on :attr:`Match.rng`, a
generator of that match alone (:func:`arena_bot.sdk.match_random`), so with a node budget
(:mod:`.budget`) a match's ``start`` decides every move, whatever the process played before.
"""

from __future__ import annotations

import gc
import random
import sys
from collections.abc import Callable
from dataclasses import dataclass, replace

from arena_bot.messages import Start
from arena_bot.sdk import BotExit, ChooseFn, match_random, node_budget, run_matches
from engine.core import Game, MatchConfig, State, WireMap
from engine.registry import get_game

from .levels import LevelError, env_level, level_nodes


@dataclass(frozen=True, slots=True)
class Match:
    """The match a bot is playing, as its ``start`` message describes it, the bot's node budget
    (``None``: think by the clock) and its level (``None``: none given, :mod:`.levels`)."""

    game: Game
    config: MatchConfig
    seat: int
    rng: random.Random
    nodes: int | None = None
    level: int | None = None

    def sample(self, observation: WireMap) -> State:
        """A full state consistent with this seat's ``observation`` (hidden information sampled)."""
        return self.game.sample_state(self.config, self.seat, observation, self.rng)


def match_from_start(start: Start, nodes: int | None = None) -> Match:
    """The :class:`Match` of ``start``, with the match's own generator (:func:`match_random`)."""
    game = get_game(f"{start.game}@{start.version}")
    config = game.configure(start.players, start.variant, start.knobs)
    return Match(game, config, start.seat, match_random(start, "seat", start.seat), nodes)


#: A match's ``choose``.
Policy = ChooseFn


def serve(
    name: str,
    version: str,
    policy_for: Callable[[Match], Policy],
    match_for: Callable[[Start, int | None], Match] = match_from_start,
) -> int:
    """Play until the referee says bye, with a fresh policy per match; the exit status (2, with a
    one-line message, when ``ARENA_NODES`` is not a node budget or ``ARENA_LEVEL`` not a level of
    ``name``). ``match_for`` builds each match from its ``start`` and the node budget: ``ARENA_NODES``,
    else the level's budget in the match's game (:mod:`.levels`), else none; the match carries the
    level too. By default the game comes from the registry; a bot shipped with its game may take it
    from its own package."""
    try:
        nodes = node_budget()
        level = env_level(name)
    except (BotExit, LevelError) as exc:
        print(f"{name}: {exc}", file=sys.stderr)
        return 2

    def budget(start: Start) -> int | None:
        return nodes if nodes is not None or level is None else level_nodes(name, start.game, level)

    gc.freeze()  # the modules loaded so far are never garbage: keep them out of every collection
    return run_matches(lambda start: policy_for(replace(match_for(start, budget(start)), level=level)),
                       name=name, version=version)
