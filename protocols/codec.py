"""One frame ↔ one typed message, with hard limits checked before anything is built.

:func:`encode` turns a message into a msgpack frame; :func:`decode` turns a frame into a message or
raises :class:`ProtocolError` saying what is wrong. Limits (frame size, nesting depth, container
and string lengths) are enforced by a header scan before unpacking, so a hostile frame costs at
most one pass over its bytes and never a large allocation.
"""

from __future__ import annotations

import functools
import struct
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

import msgpack

from engine.wire_types import Wire, WireMap
from protocols.errors import ProtocolError
from protocols.messages import (
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


@dataclass(frozen=True, slots=True)
class Limits:
    """Hard limits on one frame: bytes, nesting depth, items per container, bytes per string, and
    the packed size of an ``action``'s ``info`` (``None``: no cap of its own).

    ``max_depth=None`` skips the header scan and keeps only msgpack's own nesting bound (1024
    levels, enforced in C): for frames from a trusted peer, where a scan would only cost time.
    """

    max_frame: int = 1 << 20
    max_depth: int | None = 32
    max_items: int = 1 << 16
    max_string: int = 1 << 16
    max_info: int | None = None


#: Bytes in one frame from a bot, by default (SPEC.md §2); the referee's own frames may be larger.
BOT_FRAME_LIMIT = 64 << 10
#: Packed bytes of an ``action``'s ``info`` that are kept; a larger ``info`` is dropped.
INFO_LIMIT = 4 << 10
#: For bytes from an untrusted peer: what the referee applies to every bot's frame.
DEFAULT_LIMITS = Limits(max_frame=BOT_FRAME_LIMIT, max_info=INFO_LIMIT)
#: For frames from the referee a bot chose to connect to: larger frames, no depth scan.
TRUSTED_LIMITS = Limits(max_depth=None)


def bot_limits(frame_kb: int) -> Limits:
    """The limits for bots' frames with a frame limit of ``frame_kb`` KiB (the rest as default)."""
    if frame_kb < 1:
        raise ValueError("the frame limit must be at least 1 KiB")
    return replace(DEFAULT_LIMITS, max_frame=frame_kb << 10)

_U8 = struct.Struct(">B")
_U16 = struct.Struct(">H")
_U32 = struct.Struct(">I")
# Fixed-size scalars: first byte → bytes after it.
_SCALAR_TAIL = {0xC0: 0, 0xC2: 0, 0xC3: 0, 0xCA: 4, 0xCB: 8, 0xCC: 1, 0xCD: 2, 0xCE: 4, 0xCF: 8,
                0xD0: 1, 0xD1: 2, 0xD2: 4, 0xD3: 8}
# Strings and binaries with an explicit length: first byte → (length struct).
_SIZED = {0xC4: _U8, 0xC5: _U16, 0xC6: _U32, 0xD9: _U8, 0xDA: _U16, 0xDB: _U32}
# Containers with an explicit count: first byte → (count struct, items per count).
_CONTAINERS = {0xDC: (_U16, 1), 0xDD: (_U32, 1), 0xDE: (_U16, 2), 0xDF: (_U32, 2)}


def check_limits(frame: bytes, limits: Limits = DEFAULT_LIMITS, *, depth_used: int = 0) -> None:
    """Raise :class:`ProtocolError` unless ``frame`` is exactly one msgpack value within ``limits``.

    Only headers are read: no value is built. Extension types are refused (the protocol has none).
    ``depth_used``: nesting levels above this value (for a field of an enclosing map).
    """
    size = len(frame)
    if size > limits.max_frame:
        raise ProtocolError(f"frame of {size} bytes exceeds the limit of {limits.max_frame}")
    max_depth = (1024 if limits.max_depth is None else limits.max_depth) - depth_used
    pos = 0
    pending = [1]  # values still expected at each open nesting level
    while pending:
        if pos >= size:
            raise ProtocolError("frame ends in the middle of a value")
        first = frame[pos]
        pos += 1
        items = per = 0
        if first <= 0x7F or first >= 0xE0:
            pass
        elif first <= 0x8F:
            items, per = first & 0x0F, 2
        elif first <= 0x9F:
            items, per = first & 0x0F, 1
        elif first <= 0xBF:
            pos += _string(first & 0x1F, limits)
        elif first in _SCALAR_TAIL:
            pos += _SCALAR_TAIL[first]
        elif first in _SIZED:
            shape = _SIZED[first]
            pos += shape.size + _string(_read(frame, pos, shape), limits)
        elif first in _CONTAINERS:
            shape, per = _CONTAINERS[first]
            items = _read(frame, pos, shape)
            pos += shape.size
        else:
            raise ProtocolError(f"byte 0x{first:02x} at offset {pos - 1} is not allowed")
        pending[-1] -= 1
        if items:
            if items > limits.max_items:
                raise ProtocolError(
                    f"container of {items} items exceeds the limit of {limits.max_items}"
                )
            pending.append(per * items)
            if len(pending) - 1 > max_depth:
                raise ProtocolError(f"nesting deeper than the limit of {max_depth + depth_used}")
        while pending and pending[-1] == 0:
            pending.pop()
    if pos > size:
        raise ProtocolError("frame ends in the middle of a value")
    if pos != size:
        raise ProtocolError(f"{size - pos} bytes after the end of the message")


def _string(length: int, limits: Limits) -> int:
    if length > limits.max_string:
        raise ProtocolError(f"string of {length} bytes exceeds the limit of {limits.max_string}")
    return length


def _read(frame: bytes, pos: int, shape: struct.Struct) -> int:
    if pos + shape.size > len(frame):
        raise ProtocolError("frame ends in the middle of a header")
    value: int = shape.unpack_from(frame, pos)[0]
    return value


def encode(message: Message) -> bytes:
    """The msgpack frame of ``message`` (a map with ``type`` first)."""
    body: dict[str, Any] = {"type": TYPE_NAMES[type(message)]}
    body.update(_ENCODERS[type(message)](message))
    frame: bytes = msgpack.packb(body, use_bin_type=True)
    return frame


def decode(frame: bytes, limits: Limits = DEFAULT_LIMITS) -> Message:
    """The message in ``frame``; raises :class:`ProtocolError` for anything malformed.

    Unknown fields are ignored (so a newer peer may add fields); missing or mistyped ones are not.
    With a ``max_depth`` (an untrusted peer), unknown fields are skipped without being built and
    only the known ones are scanned and unpacked, so a frame costs one pass in C plus the size of
    what is kept; an ``info`` over ``max_info`` packed bytes is dropped (:attr:`Action.info_dropped`).
    """
    if len(frame) > limits.max_frame:
        raise ProtocolError(f"frame of {len(frame)} bytes exceeds the limit of {limits.max_frame}")
    if limits.max_depth is None:
        body = _unpack(frame, limits)
    else:
        body = _small_fields(frame, limits) or _known_fields(frame, limits)
    if not isinstance(body, dict):
        raise ProtocolError(f"a message must be a map, not {type(body).__name__}")
    kind = body.get("type")
    if not isinstance(kind, str) or kind not in _DECODERS:
        known = ", ".join(sorted(_DECODERS))
        raise ProtocolError(f"unknown message type {kind!r}; types: {known}")
    return _DECODERS[kind](_Fields(kind, body))


@functools.cache
def _unpacker_options(limits: Limits) -> dict[str, Any]:
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


def _unpack(frame: bytes, limits: Limits) -> Any:
    """The whole value in ``frame`` (msgpack's own limits only)."""
    try:
        return msgpack.unpackb(frame, **_unpacker_options(limits))
    except (ValueError, TypeError, msgpack.UnpackException) as exc:
        raise ProtocolError(f"not valid msgpack: {exc}") from None


#: Every field name of every message: the only fields an untrusted frame has unpacked.
_KNOWN_FIELDS = frozenset(
    {"type", "seq", "protocol", "name", "version", "token", "server", "match", "game", "variant",
     "knobs", "seat", "players", "seed", "actions", "clock", "grace_ms", "clock_kind", "ply", "observation",
     "legal", "events", "gone", "action", "info", "scores", "ranks", "forfeited", "reason", "message"}
)
_MAP_BYTES = frozenset(range(0x80, 0x90)) | {0xDE, 0xDF}
_STR_BYTES = frozenset(range(0xA0, 0xC0)) | {0xD9, 0xDA, 0xDB}
_NEVER_ALLOWED = frozenset({0xC1, 0xC7, 0xC8, 0xC9, 0xD4, 0xD5, 0xD6, 0xD7, 0xD8})


def _known_fields(frame: bytes, limits: Limits) -> dict[str, Any]:
    """The known fields of the map in ``frame``, each checked against ``limits`` before it is
    built; unknown fields are skipped (parsed in C, never built)."""
    if not frame:
        raise ProtocolError("frame ends in the middle of a value")
    if frame[0] not in _MAP_BYTES:
        check_limits(frame[:1] if frame[0] in _NEVER_ALLOWED else b"\xc0", limits)
        raise ProtocolError("a message must be a map")
    unpacker = msgpack.Unpacker(max_buffer_size=len(frame), **_unpacker_options(limits))
    unpacker.feed(frame)
    body: dict[str, Any] = {}
    try:
        count = unpacker.read_map_header()
        if count > limits.max_items:
            raise ProtocolError(f"container of {count} items exceeds the limit of {limits.max_items}")
        for _ in range(count):
            start = unpacker.tell()
            if start >= len(frame):
                raise msgpack.OutOfData
            if frame[start] not in _STR_BYTES:
                raise ProtocolError("not valid msgpack: the keys of a message must be strings")
            key = unpacker.unpack()
            begin = unpacker.tell()
            unpacker.skip()
            if key not in _KNOWN_FIELDS:
                continue
            if key in body:
                raise ProtocolError(f"field {key!r} appears twice")
            value = frame[begin : unpacker.tell()]
            if key == "info" and limits.max_info is not None and len(value) > limits.max_info:
                body[key] = _DroppedInfo(len(value))
                continue
            check_limits(value, limits, depth_used=1)
            body[key] = _unpack(value, limits)
        end = unpacker.tell()
    except msgpack.OutOfData:
        raise ProtocolError("frame ends in the middle of a header or value") from None
    except (ValueError, TypeError, msgpack.UnpackException) as exc:
        raise ProtocolError(f"not valid msgpack: {exc}") from None
    if end != len(frame):
        raise ProtocolError(f"{len(frame) - end} bytes after the end of the message")
    return body


#: Untrusted frames up to this many bytes (with under 16 fields, string keys, no key twice, within
#: every limit) are checked in one scan and unpacked whole: the same result as field by field, at a
#: third of the cost. Anything else, malformed frames included, takes the field-by-field path.
SMALL_FRAME = 512


def _small_fields(frame: bytes, limits: Limits) -> dict[str, Any] | None:
    """The known fields of a small, well-formed frame, or ``None`` where :func:`_known_fields` must
    decide (and name what is wrong)."""
    if len(frame) > SMALL_FRAME or not frame or not 0x80 <= frame[0] <= 0x8F:
        return None
    if limits.max_info is not None and len(frame) > limits.max_info:
        return None
    try:
        check_limits(frame, limits)
        whole = _unpack(frame, limits)
    except ProtocolError:
        return None
    if len(whole) != frame[0] & 0x0F or not all(type(key) is str for key in whole):
        return None
    return {key: value for key, value in whole.items() if key in _KNOWN_FIELDS}


#: Bytes at the start of a frame in which :func:`may_answer` looks for ``seq``.
PEEK_WINDOW = 1024
_INT_BYTES = frozenset(range(0x00, 0x80)) | frozenset(range(0xE0, 0x100)) | set(range(0xCC, 0xD4))


def may_answer(frame: bytes | memoryview, seq: int) -> bool:
    """``False`` if ``frame`` surely does not answer the request numbered ``seq``: a map whose
    ``seq`` is another integer, or which has none, read from its first :data:`PEEK_WINDOW` bytes
    without decoding anything else; ``True`` if it carries ``seq`` or cannot be told that way (then
    only :func:`decode` can). Never raises."""
    if not frame or frame[0] not in _MAP_BYTES:
        return True
    window = frame[:PEEK_WINDOW]
    unpacker = msgpack.Unpacker(max_buffer_size=len(window), **_unpacker_options(DEFAULT_LIMITS))
    unpacker.feed(window)
    try:
        for _ in range(unpacker.read_map_header()):
            if window[unpacker.tell()] not in _STR_BYTES:
                return True
            if unpacker.unpack() != "seq":
                unpacker.skip()
            elif window[unpacker.tell()] in _INT_BYTES:
                return bool(unpacker.unpack() == seq)
            else:
                return True
    except (IndexError, ValueError, TypeError, msgpack.UnpackException):
        return True
    return False


@dataclass(frozen=True, slots=True)
class _DroppedInfo:
    """Stands for an ``info`` over the cap: only its packed size is kept."""

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
        if isinstance(value, _DroppedInfo):
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

