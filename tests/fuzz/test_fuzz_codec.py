"""Fuzzing the codec with frames shaped like protocol messages: every field of every message type
replaced, removed or joined by strangers, valid frames mutated, random messages round-tripped.
Only ProtocolError may escape ``decode``."""

from __future__ import annotations

from typing import Any

import msgpack
import pytest
from hypothesis import given
from hypothesis import strategies as st

from fuzz_settings import LONG, SHORT, fuzz
from protocols.codec import DEFAULT_LIMITS, TRUSTED_LIMITS, Limits, decode, encode
from protocols.errors import ProtocolError
from protocols.messages import (
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

SMALL = Limits(max_frame=4096, max_depth=4, max_items=8, max_string=64)

scalars = (
    st.none() | st.booleans() | st.integers(-(2**63), 2**64 - 1) | st.floats()
    | st.text(max_size=12) | st.binary(max_size=12)
)
wire = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=6), inner, max_size=5),
    max_leaves=30,
)
# Wire data as the engines produce it (no bytes, no NaN: what a game may put in a message).
game_scalars = st.none() | st.booleans() | st.integers(-(2**63), 2**63 - 1) | st.text(max_size=12)
game_data = st.recursive(
    game_scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=20,
)
game_map = st.dictionaries(st.text(max_size=6), game_data, max_size=5)
ints = st.integers(0, 2**63 - 1)
texts = st.text(max_size=20)
clocks = st.builds(ClockMs, ints, ints, ints)

messages: st.SearchStrategy[Message] = st.one_of(
    st.builds(Hello, ints, texts, texts, texts),
    st.builds(Welcome, ints, texts),
    st.builds(Start, texts, texts, ints, texts, game_map, ints, ints, st.integers(0, 2**64 - 1),
              st.lists(game_data, max_size=5), clocks, ints),
    st.builds(Act, ints, ints, ints, game_map, st.lists(ints, max_size=6).map(tuple),
              st.lists(game_data, max_size=4), clocks),
    st.builds(Action, ints, ints, st.none() | ints, st.none() | game_map),
    st.builds(End, texts, ints, st.lists(ints, max_size=5).map(tuple), st.lists(ints, max_size=5).map(tuple),
              st.lists(ints, max_size=5).map(tuple), st.lists(game_data, max_size=4)),
    st.builds(Ping, ints),
    st.builds(Pong, ints),
    st.builds(Bye, texts),
    st.builds(Error, texts, st.none() | ints),
)


def decode_only_protocol_errors(frame: bytes, limits: Limits = DEFAULT_LIMITS) -> Message | None:
    """``decode(frame)``, or ``None`` for a ProtocolError; anything else fails the test."""
    try:
        return decode(frame, limits)
    except ProtocolError:
        return None


@st.composite
def message_shaped(draw: st.DrawFn) -> dict[Any, Any]:
    """The body of a real message with fields replaced, removed or added (keys of any type)."""
    body: dict[Any, Any] = msgpack.unpackb(encode(draw(messages)), strict_map_key=False)
    for key in draw(st.lists(st.sampled_from(sorted(body)), max_size=3, unique=True)):
        if draw(st.booleans()):
            del body[key]
        else:
            body[key] = draw(wire)
    for key, value in draw(st.dictionaries(st.integers(0, 3) | st.text(max_size=6), wire, max_size=2)).items():
        body[key] = value
    return body


def _mutated_frames(message: Message, data: st.DataObject) -> None:
    frame = bytearray(encode(message))
    for _ in range(data.draw(st.integers(1, 4))):
        where = data.draw(st.integers(0, len(frame) - 1))
        how = data.draw(st.sampled_from(["flip", "cut", "insert", "delete"]))
        if how == "flip":
            frame[where] ^= 1 << data.draw(st.integers(0, 7))
        elif how == "cut":
            del frame[where:]
        elif how == "insert":
            frame[where:where] = data.draw(st.binary(min_size=1, max_size=8))
        elif len(frame) > 1:
            del frame[where]
        if not frame:
            frame.append(0xC1)
    for limits in (DEFAULT_LIMITS, TRUSTED_LIMITS, SMALL):
        decode_only_protocol_errors(bytes(frame), limits)


def _shaped_bodies(body: dict[Any, Any]) -> None:
    try:
        frame = msgpack.packb(body, use_bin_type=True)
    except (OverflowError, ValueError, TypeError):
        return  # not representable in msgpack at all
    for limits in (DEFAULT_LIMITS, TRUSTED_LIMITS, SMALL):
        decode_only_protocol_errors(frame, limits)


def within(value: object, limits: Limits, depth: int = 0) -> bool:
    """Whether ``value`` (as unpacked) keeps ``limits``' depth, item and string bounds; written from
    SPEC §2, independently of the codec. An empty container opens no level."""
    if isinstance(value, str):
        return len(value.encode()) <= limits.max_string
    if isinstance(value, bytes):
        return len(value) <= limits.max_string
    if isinstance(value, (list, dict)):
        if not value:
            return True
        assert limits.max_depth is not None
        if len(value) > limits.max_items or depth + 1 > limits.max_depth:
            return False
        inner = [*value.keys(), *value.values()] if isinstance(value, dict) else value
        return all(within(v, limits, depth + 1) for v in inner)
    return True


def _round_trip(message: Message) -> None:
    frame = encode(message)
    assert decode(frame) == message
    assert decode(frame, TRUSTED_LIMITS) == message
    small = decode_only_protocol_errors(frame, SMALL)
    fits = len(frame) <= SMALL.max_frame and within(msgpack.unpackb(frame, raw=False), SMALL)
    assert small == (message if fits else None)


test_mutated_frames_raise_only_protocol_error = fuzz(SHORT)(given(messages, st.data())(_mutated_frames))
test_message_shaped_bodies_raise_only_protocol_error = fuzz(SHORT)(given(message_shaped())(_shaped_bodies))
test_random_messages_round_trip = fuzz(SHORT)(given(messages)(_round_trip))

test_mutated_frames_long = pytest.mark.slow(fuzz(LONG)(given(messages, st.data())(_mutated_frames)))
test_message_shaped_bodies_long = pytest.mark.slow(fuzz(LONG)(given(message_shaped())(_shaped_bodies)))
test_random_messages_round_trip_long = pytest.mark.slow(fuzz(LONG)(given(messages)(_round_trip)))


def test_extension_types_and_non_string_keys_are_malformed() -> None:
    ext = msgpack.packb({"type": "pong", "seq": msgpack.ExtType(1, b"x")})
    keyed = msgpack.packb({"type": "pong", "seq": 1, 7: 1})
    for frame in (ext, keyed):
        with pytest.raises(ProtocolError):
            decode(frame)
