"""What every built-in bot shares: the match it plays (from ``start``) and the loop.

A bot is a *policy factory*: given the :class:`Match` (game, configuration, seat, seeded rng, node
budget) it returns the ``choose`` function for that match. :func:`serve` runs the SDK loop, building
a fresh policy on every ``start``. Every random choice a bot makes draws on :attr:`Match.rng`, so
with a node budget (:mod:`.budget`) a match seed decides every move.
"""

from __future__ import annotations

import gc
import os
import random
import sys
from collections.abc import Callable
from dataclasses import dataclass

from engine.core import Game, MatchConfig, State, WireMap, derive_seed
from engine.registry import get_game
from protocols.messages import Start
from protocols.sdk import BotExit, Choice, Clock, node_budget, run


@dataclass(frozen=True, slots=True)
class Match:
    """The match a bot is playing, as its ``start`` message describes it, and the bot's node
    budget (``None``: think by the clock)."""

    game: Game
    config: MatchConfig
    seat: int
    rng: random.Random
    nodes: int | None = None

    def sample(self, observation: WireMap) -> State:
        """A full state consistent with this seat's ``observation`` (hidden information sampled)."""
        return self.game.sample_state(self.config, self.seat, observation, self.rng)


def match_from_start(start: Start, nodes: int | None = None) -> Match:
    """The :class:`Match` of ``start``; the rng is seeded from the match seed (and ``ARENA_SEED``)."""
    game = get_game(f"{start.game}@{start.version}")
    config = game.configure(start.players, start.variant, start.knobs)
    extra = os.environ.get("ARENA_SEED")
    seed = start.seed if extra is None else derive_seed(start.seed, extra)
    return Match(game, config, start.seat, random.Random(derive_seed(seed, "seat", start.seat)), nodes)


Policy = Callable[[WireMap, tuple[int, ...], Clock], "int | Choice"]


def serve(name: str, version: str, policy_for: Callable[[Match], Policy]) -> int:
    """Play until the referee says bye, with a fresh policy per match; the exit status (2, with a
    one-line message, when ``ARENA_NODES`` is not a node budget)."""
    try:
        nodes = node_budget()
    except BotExit as exc:
        print(f"{name}: {exc}", file=sys.stderr)
        return 2
    current: list[Policy] = []

    def on_start(start: Start) -> None:
        current[:] = [policy_for(match_from_start(start, nodes))]

    def choose(observation: WireMap, legal: tuple[int, ...], clock: Clock) -> int | Choice:
        return current[0](observation, legal, clock)

    gc.freeze()  # the modules loaded so far are never garbage: keep them out of every collection
    return run(choose, name=name, version=version, on_start=on_start)
