"""One frame ↔ one typed message, with hard limits checked before anything is built.

The messages, :func:`encode` and the trusted decoding are the bot SDK's (:mod:`arena_bot.codec`);
this module adds what a referee needs for frames from bots it does not trust: :func:`decode` with
limits (frame size, nesting depth, container and string lengths) enforced by a header scan before
unpacking, so a hostile frame costs at most one pass over its bytes and never a large allocation.
"""

from __future__ import annotations

import struct
from dataclasses import replace
from typing import Any

import msgpack

from arena_bot.codec import (
    TRUSTED_LIMITS,
    DroppedInfo,
    Limits,
    encode,
    message_from_map,
    unpack,
    unpacker_options,
)
from arena_bot.codec import decode as decode_trusted
from arena_bot.errors import ProtocolError
from arena_bot.messages import Message

__all__ = [
    "BOT_FRAME_LIMIT", "DEFAULT_LIMITS", "INFO_LIMIT", "SMALL_FRAME", "PEEK_WINDOW", "TRUSTED_LIMITS",
    "Limits", "bot_limits", "check_limits", "decode", "encode", "may_answer",
]


#: Bytes in one frame from a bot, by default (SPEC.md §2); the referee's own frames may be larger.
BOT_FRAME_LIMIT = 64 << 10
#: Packed bytes of an ``action``'s ``info`` that are kept; a larger ``info`` is dropped.
INFO_LIMIT = 4 << 10
#: For bytes from an untrusted peer: what the referee applies to every bot's frame.
DEFAULT_LIMITS = Limits(max_frame=BOT_FRAME_LIMIT, max_info=INFO_LIMIT)


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


def decode(frame: bytes, limits: Limits = DEFAULT_LIMITS) -> Message:
    """The message in ``frame``; raises :class:`ProtocolError` for anything malformed.

    Unknown fields are ignored (so a newer peer may add fields); missing or mistyped ones are not.
    With a ``max_depth`` (an untrusted peer), unknown fields are skipped without being built and
    only the known ones are scanned and unpacked, so a frame costs one pass in C plus the size of
    what is kept; an ``info`` over ``max_info`` packed bytes is dropped (:attr:`Action.info_dropped`).
    Without a ``max_depth`` (a trusted peer), this is :func:`arena_bot.codec.decode`.
    """
    if limits.max_depth is None:
        return decode_trusted(frame, limits)
    if len(frame) > limits.max_frame:
        raise ProtocolError(f"frame of {len(frame)} bytes exceeds the limit of {limits.max_frame}")
    return message_from_map(_small_fields(frame, limits) or _known_fields(frame, limits))


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
    unpacker = msgpack.Unpacker(max_buffer_size=len(frame), **unpacker_options(limits))
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
                body[key] = DroppedInfo(len(value))
                continue
            check_limits(value, limits, depth_used=1)
            body[key] = unpack(value, limits)
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
        whole = unpack(frame, limits)
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
    unpacker = msgpack.Unpacker(max_buffer_size=len(window), **unpacker_options(DEFAULT_LIMITS))
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
