"""The phases a Waroong Wars position can be in (who decides what; see the package docstring)."""

from __future__ import annotations

DRAFT, COOK_STEP, DISH, KEEP_STEP, SECURITY_STEP, OFFER, OVER = range(7)
#: Phase names as observations show them.
PHASES: tuple[str, ...] = (
    "draft",
    "cook",
    "dish",
    "keep",
    "security",
    "businesswoman",
    "over",
)
