"""Reading observations back: typed access to msgpack-able values, for rebuilding game states.

Each function returns the value as the type asked for, or raises ``TypeError`` naming what it got.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.core import Wire


def as_int(value: Wire) -> int:
    """``value`` as a whole number (booleans are not numbers here)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"expected a whole number, got {value!r}")
    return value


def as_list(value: Wire) -> list[Wire]:
    """``value`` as a list."""
    if not isinstance(value, list):
        raise TypeError(f"expected a list, got {type(value).__name__}")
    return value


def as_map(value: Wire) -> dict[str, Wire]:
    """``value`` as a map."""
    if not isinstance(value, dict):
        raise TypeError(f"expected a map, got {type(value).__name__}")
    return value


def counts_by_name(value: Wire, names: Sequence[str]) -> list[int]:
    """A map of name to count as a list of counts in the order of ``names`` (absent names: 0)."""
    by_name = as_map(value)
    return [as_int(by_name.get(name, 0)) for name in names]
