"""Any msgpack value a bot may send, as data that strict JSON (and msgpack) can hold.

The codec hands over ``None``, bools, ints (up to 64 bits), floats, strings, ``bytes``, lists
and maps keyed by strings or ``bytes``. Of those JSON cannot hold ``bytes`` and the floats NaN,
infinity and minus infinity; :func:`jsonable` rewrites exactly these (SPEC.md, ``info``):

- ``bytes`` → ``{"$bytes": "<base64>"}``; a ``bytes`` map key → the string ``"$bytes:<base64>"``;
- NaN, infinity, minus infinity → the strings ``"NaN"``, ``"Infinity"``, ``"-Infinity"``.
"""

from __future__ import annotations

import base64
import math
from collections.abc import Mapping
from typing import Any

from engine.core import Wire, WireMap

_NON_FINITE = {math.inf: "Infinity", -math.inf: "-Infinity"}


def _base64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def jsonable(value: object) -> Wire:
    """``value`` rewritten as above, recursively; the result contains no ``bytes`` and no non-finite
    float, and ``jsonable`` of it is itself. Any other type (never produced by the codec) is shown
    by its ``repr``."""
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        if math.isnan(value):
            return "NaN"
        return _NON_FINITE.get(value, value)
    if isinstance(value, (bytes, bytearray)):
        return {"$bytes": _base64(bytes(value))}
    if isinstance(value, (list, tuple)):
        return [jsonable(item) for item in value]
    if isinstance(value, dict):
        return jsonable_map(value)
    return repr(value)


def jsonable_map(value: Mapping[Any, object]) -> WireMap:
    """A map rewritten by :func:`jsonable`, its keys made strings (``bytes`` as above)."""
    return {_key(key): jsonable(item) for key, item in value.items()}


def _key(key: object) -> str:
    if isinstance(key, (bytes, bytearray)):
        return "$bytes:" + _base64(bytes(key))
    return key if isinstance(key, str) else repr(key)
