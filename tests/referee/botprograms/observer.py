"""An SDK bot that reports, in each decision's ``info``, a digest of the observation ``choose`` got,
the arguments it was started with (``--protocol``) and the milliseconds its clock says the decision
had used when ``choose`` began, so a test can check that every version hands a bot the engine's
whole observation, and that the SDK times a decision from the ``act``'s arrival."""

from __future__ import annotations

import hashlib
import json
import random
import sys

from engine.core import WireMap
from protocols.sdk import Choice, Clock, run

_rng = random.Random(1)


def digest(observation: WireMap) -> str:
    """A digest of ``observation`` that does not depend on the order of its keys."""
    return hashlib.sha256(json.dumps(observation, sort_keys=True).encode()).hexdigest()[:16]


def choose(observation: WireMap, legal: tuple[int, ...], clock: Clock) -> Choice:
    spent_ms = clock.spent() * 1000  # since the act arrived
    return Choice(_rng.choice(legal), {"digest": digest(observation), "argv": sys.argv[1:],
                                       "spent_ms": spent_ms})


if __name__ == "__main__":
    raise SystemExit(run(choose, name="observer", version="1"))
