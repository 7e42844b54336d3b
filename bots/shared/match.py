"""What every built-in bot shares: the match it plays (from ``start``), its clock budget, and the loop.

A bot is a *policy factory*: given the :class:`Match` (game, configuration, seat, seeded rng) it
returns the ``choose`` function for that match. :func:`serve` runs the SDK loop, building a fresh
policy on every ``start``.
"""

from __future__ import annotations

import gc
import os
import random
import time
from collections.abc import Callable
from dataclasses import dataclass

from engine.core import Game, MatchConfig, State, WireMap, derive_seed
from engine.registry import get_game
from protocols.messages import Start
from protocols.sdk import Choice, Clock, run

#: Seconds kept back from every decision for the interpreter, garbage collection, the transport and
#: a busy machine (a 50 ms move leaves no time to think beyond one quick look).
SAFETY_SECONDS = 0.03
#: Share of the per-move time (and of the whole budget) a search may use.
MOVE_SHARE = 0.5
#: A search may also draw this share of the remaining bank per decision.
BANK_SHARE = 1 / 40


@dataclass(frozen=True, slots=True)
class Match:
    """The match a bot is playing, as its ``start`` message describes it."""

    game: Game
    config: MatchConfig
    seat: int
    rng: random.Random

    def sample(self, observation: WireMap) -> State:
        """A full state consistent with this seat's ``observation`` (hidden information sampled)."""
        return self.game.sample_state(self.config, self.seat, observation, self.rng)


def match_from_start(start: Start) -> Match:
    """The :class:`Match` of ``start``; the rng is seeded from the match seed (and ``ARENA_SEED``)."""
    game = get_game(f"{start.game}@{start.version}")
    config = game.configure(start.players, start.variant, start.knobs)
    extra = os.environ.get("ARENA_SEED")
    seed = start.seed if extra is None else derive_seed(start.seed, extra)
    return Match(game, config, start.seat, random.Random(derive_seed(seed, "seat", start.seat)))


def think_seconds(clock: Clock) -> float:
    """Seconds a decision may spend thinking: a share of the move time and a sliver of the bank,
    never more than a share of the whole budget, less :data:`SAFETY_SECONDS`; never negative."""
    allowance = MOVE_SHARE * clock.move + BANK_SHARE * clock.bank
    return max(0.0, min(allowance, MOVE_SHARE * clock.budget) - SAFETY_SECONDS)


def deadline(clock: Clock, started: float, deciders: int = 1) -> float:
    """The ``time.monotonic()`` by which a decision begun at ``started`` must stop thinking.

    The thinking time shrinks in proportion when there are fewer processors than runnable work:
    when ``deciders`` seats decide at once (a simultaneous step), and when the machine's recent
    load (the one-minute load average, spread over its processors) exceeds the processors this
    bot may run on (one, when the arena pins its match to a processor). A process that keeps a
    busy processor for long is the one the scheduler makes wait, so on a loaded machine a bot
    thinks less rather than risk a reply held up past its clock.
    """
    mine, machine = _processors()
    demand = max(1.0, float(deciders), _load() * mine / machine)
    share = min(1.0, mine / demand)
    return started + think_seconds(clock) * share


def _processors() -> tuple[int, int]:
    """The processors this process may run on, and the machine's."""
    machine = os.cpu_count() or 1
    if hasattr(os, "sched_getaffinity"):
        return min(machine, len(os.sched_getaffinity(0))) or 1, machine
    return machine, machine


def _load() -> float:
    """The one-minute load average (runnable processes), 0 where the system does not tell."""
    try:
        return os.getloadavg()[0]
    except OSError:
        return 0.0


Policy = Callable[[WireMap, tuple[int, ...], Clock], "int | Choice"]


def serve(name: str, version: str, policy_for: Callable[[Match], Policy]) -> int:
    """Play until the referee says bye, with a fresh policy per match; the exit status."""
    current: list[Policy] = []

    def on_start(start: Start) -> None:
        current[:] = [policy_for(match_from_start(start))]

    def choose(observation: WireMap, legal: tuple[int, ...], clock: Clock) -> int | Choice:
        return current[0](observation, legal, clock)

    gc.freeze()  # the modules loaded so far are never garbage: keep them out of every collection
    return run(choose, name=name, version=version, on_start=on_start)
