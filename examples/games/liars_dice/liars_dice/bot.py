"""The Liar's Dice search bot: determinized Monte Carlo over rolls of the hidden dice, within its clock.

Run as ``python -m liars_dice.bot`` (or ``arena-liars-dice-bot``). Each decision samples a full
state from its observation (``GAME.sample_state``), then searches (:mod:`liars_dice.search`): a
bandit over a few candidate actions, each iteration a fresh roll of the other seats' dice and the
round played out with the quick policy of :mod:`liars_dice.heuristics`. It thinks for its share
of the clock, or for exactly ``ARENA_NODES`` iterations (:mod:`bots.shared.budget`), and answers
the most tried action with ``info = {"nodes", "spent_ms", "value"}``, as the built-in ``ismcts``
does.
"""

from __future__ import annotations

from arena_bot.messages import Start
from arena_bot.sdk import Choice, Clock, match_random
from bots.shared.budget import Budget
from bots.shared.match import Match, Policy, serve
from engine.core import WireMap

from . import GAME
from .search import search
from .state import LiarsDiceState


def match_of(start: Start, nodes: int | None = None) -> Match:
    """The :class:`Match` of a Liar's Dice ``start`` (the game taken from this package)."""
    config = GAME.configure(start.players, start.variant, start.knobs)
    return Match(GAME, config, start.seat, match_random(start, "seat", start.seat), nodes)


def search_policy(match: Match) -> Policy:
    """The searching ``choose`` for one match."""

    def choose(observation: WireMap, legal: tuple[int, ...], clock: Clock) -> int | Choice:
        if len(legal) == 1:
            return Choice(legal[0], info={"nodes": 0, "value": None})
        root = match.sample(observation)
        assert isinstance(root, LiarsDiceState)
        budget = Budget(clock, match.nodes)
        verdict = search(root, match.seat, legal, budget.more, match.rng)
        info: WireMap = {**budget.report(verdict.iterations), "value": round(verdict.value, 4)}
        return Choice(verdict.action, info=info)

    return choose


def main() -> int:
    """Play until the referee says bye; the exit status."""
    return serve("liars-dice-search", "1", search_policy, match_of)


if __name__ == "__main__":
    raise SystemExit(main())
