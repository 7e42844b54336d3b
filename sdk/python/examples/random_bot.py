"""A complete bot with the standalone SDK: a legal action at random, drawn from the match's own
generator, so the same match plays the same in any process.

    python3 -m venv venv && venv/bin/pip install ./sdk/python
    venv/bin/python sdk/python/examples/random_bot.py --connect alice.env
"""

from __future__ import annotations

from arena_bot.messages import Start
from arena_bot.sdk import Choice, ChooseFn, Clock, match_random, run_matches
from arena_bot.wire_types import WireMap


def new_match(start: Start) -> ChooseFn:
    """The ``choose`` of the match ``start`` begins."""
    rng = match_random(start)

    def choose(observation: WireMap, legal: tuple[int, ...], clock: Clock) -> Choice:
        return Choice(rng.choice(legal), info={"options": len(legal)})

    return choose


if __name__ == "__main__":
    raise SystemExit(run_matches(new_match, name="example-random", version="1"))
