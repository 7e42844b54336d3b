"""How long the fuzzers run: a short run by default, a long one under ``pytest -m slow``.

``ARENA_FUZZ_EXAMPLES`` overrides the short run's number of examples per property (25) and
``ARENA_FUZZ_EXAMPLES_LONG`` the long run's (1500).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any, TypeVar

from hypothesis import HealthCheck, settings

SHORT = int(os.environ.get("ARENA_FUZZ_EXAMPLES", "25"))
LONG = int(os.environ.get("ARENA_FUZZ_EXAMPLES_LONG", "1500"))

F = TypeVar("F", bound=Callable[..., Any])


def fuzz(examples: int) -> Callable[[F], F]:
    """Hypothesis settings for a fuzzer: ``examples`` examples, no deadline (a loaded machine)."""
    decorate: Callable[[F], F] = settings(
        max_examples=examples,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture,
                               HealthCheck.data_too_large],
    )
    return decorate
