"""The values a message can carry (no imports: bots and game engines load this on every start)."""

from __future__ import annotations

from typing import TypeAlias

#: A value that msgpack can carry: what observations, events, forms and knobs are made of.
Wire: TypeAlias = None | bool | int | float | str | bytes | list["Wire"] | dict[str, "Wire"]
#: An observation or an event: a msgpack-able map.
WireMap: TypeAlias = dict[str, Wire]
