"""The uniform random bot: every legal action equally likely, seeded by the match.

Run as ``python -m bots.random``. Each match reseeds from the ``start`` message's seed, combined
with ``ARENA_SEED`` when that is set, so a replayed match makes the same choices.
"""

from __future__ import annotations

import os
import random

from engine.wire_types import WireMap
from protocols.messages import Start
from protocols.sdk import Clock, run

_rng = random.Random()


def on_start(start: Start) -> None:
    """Reseed for the new match."""
    extra = os.environ.get("ARENA_SEED")
    if extra is not None:
        from engine.core import derive_seed  # loaded only when needed: it costs every start 4 ms
    _rng.seed(start.seed if extra is None else derive_seed(start.seed, extra))


def choose(observation: WireMap, legal: tuple[int, ...], clock: Clock) -> int:
    """Any legal action, uniformly."""
    return _rng.choice(legal)


def main() -> int:
    """Play until the referee says bye; the exit status."""
    return run(choose, name="random", version="1", on_start=on_start)


if __name__ == "__main__":
    raise SystemExit(main())
