"""An SDK bot that reports, in each decision's ``info``, a digest of the observation ``choose`` got
and the protocol version it was started with (``--protocol``), so a test can check that every
version hands a bot the engine's whole observation."""

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
    return Choice(_rng.choice(legal), {"digest": digest(observation), "argv": sys.argv[1:]})


if __name__ == "__main__":
    raise SystemExit(run(choose, name="observer", version="1"))
