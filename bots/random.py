"""The uniform random bot: every legal action equally likely, seeded by the match.

Run as ``python -m bots.random``. Each match draws from its own generator, seeded from the
``start`` message's seed (combined with ``ARENA_SEED`` when that is set; :func:`match_random`), so a
match makes the same choices whatever the process played before it.
"""

from __future__ import annotations

from arena_bot.messages import Start
from arena_bot.sdk import ChooseFn, match_random, run_matches


def new_match(start: Start) -> ChooseFn:
    """Any legal action, uniformly, drawn from this match's generator."""
    rng = match_random(start)
    return lambda observation, legal, clock: rng.choice(legal)


def main() -> int:
    """Play until the referee says bye; the exit status."""
    return run_matches(new_match, name="random", version="1")


if __name__ == "__main__":
    raise SystemExit(main())
