"""One typed message ↔ one msgpack frame, for a bot reading the referee it chose to connect to.

:func:`encode` turns a message into a frame; :func:`decode` turns a frame into a message or raises
:class:`ProtocolError` saying what is wrong, within msgpack's own bounds on sizes and lengths. A
referee reading frames from bots it does not trust adds a header scan with hard limits
(``protocols/codec.py`` in Arena) and builds messages with :func:`message_from_map`.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import msgpack

from arena_bot.errors import ProtocolError
from arena_bot.messages import (
    CLOCK_KINDS,
    TYPE_NAMES,
    Act,
    Action,
    Bye,
    ClockMs,
    End,
    Error,
    Hello,
    Message,
    Ping,
    Pong,
    Start,
    Welcome,
)
from arena_bot.wire_types import Wire, WireMap


@dataclass(frozen=True, slots=True)
class Limits:
    """Hard limits on one frame: bytes, nesting depth, items per container, bytes per string, and
    the packed size of an ``action``'s ``info`` (``None``: no cap of its own).

    Depth and ``info`` are checked by the referee's header scan (Arena's ``protocols.codec``);
    ``max_depth=None`` skips it and keeps only msgpack's own nesting bound (1024 levels, enforced
    in C): for frames from a trusted peer, where a scan would only cost time.
    """

    max_frame: int = 1 << 20
    max_depth: int | None = 32
    max_items: int = 1 << 16
    max_string: int = 1 << 16
    max_info: int | None = None


#: For frames from the referee a bot chose to connect to: larger frames, no depth scan.
TRUSTED_LIMITS = Limits(max_depth=None)


def encode(message: Message) -> bytes:
    """The msgpack frame of ``message`` (a map with ``type`` first)."""
    body: dict[str, Any] = {"type": TYPE_NAMES[type(message)]}
    body.update(_ENCODERS[type(message)](message))
    frame: bytes = msgpack.packb(body, use_bin_type=True)
    return frame


def decode(frame: bytes, limits: Limits = TRUSTED_LIMITS) -> Message:
    """The message in ``frame``; raises :class:`ProtocolError` for anything malformed.

    Checks ``limits.max_frame`` first, then unpacks within msgpack's bounds on container and string
    lengths (nesting is bounded at 1024 levels, in C); ``max_depth`` and ``max_info`` are checked
    only by the referee's scan. Unknown fields are ignored (a newer peer may add fields); missing
    or mistyped ones are not.
    """
    if len(frame) > limits.max_frame:
        raise ProtocolError(f"frame of {len(frame)} bytes exceeds the limit of {limits.max_frame}")
    return message_from_map(unpack(frame, limits))


def message_from_map(body: Any) -> Message:
    """The message an unpacked frame describes; raises :class:`ProtocolError` unless it is a map
    with a known ``type`` and every field that type needs, of the right kind."""
    if not isinstance(body, dict):
        raise ProtocolError(f"a message must be a map, not {type(body).__name__}")
    kind = body.get("type")
    if not isinstance(kind, str) or kind not in _DECODERS:
        known = ", ".join(sorted(_DECODERS))
        raise ProtocolError(f"unknown message type {kind!r}; types: {known}")
    return _DECODERS[kind](_Fields(kind, body))


@functools.cache
def unpacker_options(limits: Limits) -> dict[str, Any]:
    """msgpack's options for ``limits`` (one dict per limits, never changed)."""
    return {
        "raw": False,
        "strict_map_key": True,
        "max_str_len": limits.max_string,
        "max_bin_len": limits.max_string,
        "max_array_len": limits.max_items,
        "max_map_len": limits.max_items,
        "max_ext_len": 0,
        "ext_hook": _refuse_extension,
    }


def _refuse_extension(code: int, data: bytes) -> Any:
    """Refuse an extension value that ``max_ext_len`` lets through (one of length zero)."""
    raise ValueError(f"extension type {code} is not allowed")


def unpack(frame: bytes, limits: Limits) -> Any:
    """The whole value in ``frame`` (msgpack's own limits only)."""
    try:
        return msgpack.unpackb(frame, **unpacker_options(limits))
    except (ValueError, TypeError, msgpack.UnpackException) as exc:
        raise ProtocolError(f"not valid msgpack: {exc}") from None


@dataclass(frozen=True, slots=True)
class DroppedInfo:
    """Stands for an ``info`` over the referee's cap (in an unpacked map): only its packed size is kept."""

    size: int


class _Fields:
    """Typed access to one message's fields, with errors naming the message and field."""

    __slots__ = ("_kind", "_body")

    def __init__(self, kind: str, body: dict[str, Any]) -> None:
        self._kind = kind
        self._body = body

    def _fail(self, name: str, wanted: str) -> ProtocolError:
        if name not in self._body:
            return ProtocolError(f"{self._kind}: missing field {name!r} ({wanted})")
        got = type(self._body[name]).__name__
        return ProtocolError(f"{self._kind}: field {name!r} must be {wanted}, not {got}")

    def integer(self, name: str) -> int:
        value = self._body.get(name)
        if isinstance(value, bool) or not isinstance(value, int):
            raise self._fail(name, "an integer")
        return value

    def opt_integer(self, name: str) -> int | None:
        return None if self._body.get(name) is None else self.integer(name)

    def text(self, name: str, default: str | None = None) -> str:
        value = self._body.get(name, default)
        if not isinstance(value, str):
            raise self._fail(name, "a string")
        return value

    def choice(self, name: str, allowed: tuple[str, ...], default: str) -> str:
        value = self.text(name, default)
        if value not in allowed:
            raise ProtocolError(f"{self._kind}: field {name!r} must be one of {', '.join(allowed)}, not {value!r}")
        return value

    def mapping(self, name: str) -> WireMap:
        value = self._body.get(name)
        if not isinstance(value, dict):
            raise self._fail(name, "a map")
        return value

    def opt_mapping(self, name: str) -> WireMap | None:
        return None if self._body.get(name) is None else self.mapping(name)

    def info(self) -> tuple[WireMap | None, int]:
        """An action's ``info`` and, if it was dropped over the cap, its packed size (else 0)."""
        value = self._body.get("info")
        if isinstance(value, DroppedInfo):
            return None, value.size
        return self.opt_mapping("info"), 0

    def array(self, name: str) -> list[Wire]:
        value = self._body.get(name)
        if not isinstance(value, list):
            raise self._fail(name, "an array")
        return value

    def integers(self, name: str) -> tuple[int, ...]:
        values = self.array(name)
        if not set(map(type, values)) <= {int}:
            raise self._fail(name, "an array of integers")
        return tuple(values)  # type: ignore[arg-type]

    def texts(self, name: str) -> tuple[str, ...]:
        """An optional array of strings (empty when absent)."""
        if name not in self._body:
            return ()
        values = self.array(name)
        if not all(isinstance(v, str) for v in values):
            raise self._fail(name, "an array of strings")
        return tuple(values)  # type: ignore[arg-type]

    def clock(self, name: str) -> ClockMs:
        inner = _Fields(f"{self._kind}.{name}", self.mapping(name))
        return ClockMs(inner.integer("move_ms"), inner.integer("bank_ms"), inner.integer("increment_ms"))


def _clock(clock: ClockMs) -> dict[str, int]:
    return {"move_ms": clock.move_ms, "bank_ms": clock.bank_ms, "increment_ms": clock.increment_ms}


def _encode_action(m: Action) -> dict[str, Any]:
    body: dict[str, Any] = {"seq": m.seq, "action": m.action}
    if m.seat is not None:
        body["seat"] = m.seat
    if m.info is not None:
        body["info"] = m.info
    return body


def _encode_error(m: Error) -> dict[str, Any]:
    return {"message": m.message} if m.seq is None else {"message": m.message, "seq": m.seq}


_ENCODERS: dict[type[Message], Callable[[Any], Mapping[str, Any]]] = {
    Hello: lambda m: {"protocol": m.protocol, "name": m.name, "version": m.version, "token": m.token},
    Welcome: lambda m: {"protocol": m.protocol, "server": m.server},
    Start: lambda m: {
        "match": m.match, "game": m.game, "version": m.version, "variant": m.variant,
        "knobs": m.knobs, "seat": m.seat, "players": m.players, "seed": m.seed,
        "actions": m.actions, "clock": _clock(m.clock), "grace_ms": m.grace_ms,
        "clock_kind": m.clock_kind,
    },
    Act: lambda m: {
        "seq": m.seq, "seat": m.seat, "ply": m.ply, "observation": m.observation,
        "legal": m.legal, "events": m.events, "clock": _clock(m.clock),
        **({"gone": m.gone} if m.gone else {}),
    },
    Action: _encode_action,
    End: lambda m: {
        "match": m.match, "seat": m.seat, "scores": list(m.scores), "ranks": list(m.ranks),
        "forfeited": list(m.forfeited), "events": m.events,
    },
    Ping: lambda m: {"seq": m.seq},
    Pong: lambda m: {"seq": m.seq},
    Bye: lambda m: {"reason": m.reason},
    Error: _encode_error,
}

_DECODERS: dict[str, Callable[[_Fields], Message]] = {
    "hello": lambda f: Hello(f.integer("protocol"), f.text("name"), f.text("version"), f.text("token")),
    "welcome": lambda f: Welcome(f.integer("protocol"), f.text("server")),
    "start": lambda f: Start(
        f.text("match"), f.text("game"), f.integer("version"), f.text("variant"), f.mapping("knobs"),
        f.integer("seat"), f.integer("players"), f.integer("seed"), f.array("actions"), f.clock("clock"),
        f.integer("grace_ms"), f.choice("clock_kind", CLOCK_KINDS, "wall"),
    ),
    "act": lambda f: Act(
        f.integer("seq"), f.integer("seat"), f.integer("ply"), f.mapping("observation"), f.integers("legal"),
        f.array("events"), f.clock("clock"), f.texts("gone"),
    ),
    "action": lambda f: Action(f.integer("seq"), f.integer("action"), f.opt_integer("seat"), *f.info()),
    "end": lambda f: End(
        f.text("match"), f.integer("seat"), f.integers("scores"), f.integers("ranks"), f.integers("forfeited"),
        f.array("events"),
    ),
    "ping": lambda f: Ping(f.integer("seq")),
    "pong": lambda f: Pong(f.integer("seq")),
    "bye": lambda f: Bye(f.text("reason", "")),
    "error": lambda f: Error(f.text("message"), f.opt_integer("seq")),
}

