"""Codec limits from both sides: a value at exactly a limit passes, one more is refused with the exact
reason; every msgpack header is measured to the byte; extension types are refused on every path."""

from __future__ import annotations

import msgpack
import pytest

from protocols.codec import (
    BOT_FRAME_LIMIT,
    DEFAULT_LIMITS,
    INFO_LIMIT,
    PEEK_WINDOW,
    TRUSTED_LIMITS,
    Limits,
    bot_limits,
    check_limits,
    decode,
    encode,
    may_answer,
)
from protocols.errors import ProtocolError
from protocols.messages import Action, Bye, ClockMs, Error, Pong, Start

SMALL = Limits(max_frame=300, max_depth=3, max_items=16, max_string=20)


def raw(body: object, **options: bool) -> bytes:
    frame: bytes = msgpack.packb(body, use_bin_type=True, **options)
    return frame


def refused(frame: bytes, limits: Limits = DEFAULT_LIMITS) -> str:
    with pytest.raises(ProtocolError) as caught:
        check_limits(frame, limits)
    return str(caught.value)


def test_the_limits_are_the_documented_numbers() -> None:
    assert BOT_FRAME_LIMIT == 65536 and INFO_LIMIT == 4096 and PEEK_WINDOW == 1024
    assert DEFAULT_LIMITS == Limits(max_frame=65536, max_depth=32, max_items=65536, max_string=65536,
                                    max_info=4096)
    assert TRUSTED_LIMITS == Limits(max_frame=1 << 20, max_depth=None, max_items=65536,
                                    max_string=65536, max_info=None)
    assert bot_limits(1) == Limits(max_frame=1024, max_depth=32, max_items=65536, max_string=65536,
                                   max_info=4096)
    assert bot_limits(64) == DEFAULT_LIMITS
    with pytest.raises(ValueError, match="the frame limit must be at least 1 KiB"):
        bot_limits(0)


# Every kind of header, each in the shortest and a longer form: strings, binaries, numbers, containers.
VALUES = [
    None, False, True, 0, 127, -1, -32, 128, 255, 256, 65535, 65536, 2**32, 2**64 - 1, -33, -129,
    -32769, -(2**31) - 1, 1.5, "", "x" * 31, "x" * 32, "y" * 256, b"", b"z" * 256,
    [], [[], {}], list(range(15)), list(range(16)), {"k": None}, {str(i): i for i in range(15)},
    {str(i): i for i in range(16)}, {"deep": [[1]]},
]


@pytest.mark.parametrize("value", VALUES, ids=repr)
def test_each_header_is_measured_to_the_byte(value: object) -> None:
    limits = Limits(max_string=300)
    frame = raw(value)
    check_limits(frame, limits)
    assert refused(frame + b"\x00", limits) == "1 bytes after the end of the message"
    assert refused(frame + b"\x00\x01\x02", limits) == "3 bytes after the end of the message"
    if len(frame) > 1:
        assert refused(frame[:-1], limits).startswith("frame ends in the middle of a")


def test_single_precision_floats_and_wide_headers() -> None:
    check_limits(raw(1.5, use_single_float=True))
    assert refused(raw(1.5, use_single_float=True)[:4]) == "frame ends in the middle of a value"
    # 32-bit string, binary, array and map headers, as another packer may write them.
    check_limits(b"\xdb\x00\x00\x00\x02ab")
    check_limits(b"\xc6\x00\x00\x00\x01a")
    check_limits(b"\xdd\x00\x00\x00\x01\x05")
    check_limits(b"\xdf\x00\x00\x00\x01\xa1k\x05")
    check_limits(b"\xde\x00\x01\xa1k\x05")
    assert refused(b"\xdb\x00\x00\x00") == "frame ends in the middle of a header"
    assert refused(b"\xc5\x00") == "frame ends in the middle of a header"
    assert refused(b"\xdc\x00\x02\x01") == "frame ends in the middle of a value"


def test_frame_size_both_sides() -> None:
    exact = raw("x" * 10) + b""
    limits = Limits(max_frame=len(exact))
    check_limits(exact, limits)
    assert refused(raw("x" * 11), limits) == f"frame of 12 bytes exceeds the limit of {len(exact)}"
    assert len(exact) == 11


@pytest.mark.parametrize("shape", ["array", "map"])
@pytest.mark.parametrize("size", [15, 16])
def test_containers_at_exactly_the_item_limit_pass_and_one_more_is_refused(shape: str, size: int) -> None:
    limits = Limits(max_items=size)

    def container(n: int) -> object:
        return list(range(n)) if shape == "array" else {f"k{i:02}": i for i in range(n)}

    check_limits(raw(container(size)), limits)
    assert refused(raw(container(size + 1)), limits) == (
        f"container of {size + 1} items exceeds the limit of {size}")


def test_a_map_of_sixteen_entries_counts_as_sixteen_items_with_thirty_two_values() -> None:
    sixteen = {f"k{i:02}": [i] for i in range(16)}
    check_limits(raw(sixteen), Limits(max_items=16))
    frame = raw(sixteen)
    assert refused(frame[:-1], Limits(max_items=16)) == "frame ends in the middle of a value"
    assert refused(frame + b"\xc0", Limits(max_items=16)) == "1 bytes after the end of the message"
    info = {f"key{i:02}": i for i in range(16)}
    frame = encode(Action(3, 1, None, info))
    for limits in (DEFAULT_LIMITS, TRUSTED_LIMITS):
        assert decode(frame, limits) == Action(3, 1, None, info)


@pytest.mark.parametrize(
    "make", [lambda n: "s" * n, lambda n: b"b" * n], ids=["string", "binary"]
)
@pytest.mark.parametrize("size", [20, 31, 32, 256])
def test_strings_at_exactly_the_length_limit_pass_and_one_more_is_refused(make: object, size: int) -> None:
    assert callable(make)
    limits = Limits(max_string=size)
    check_limits(raw(make(size)), limits)
    assert refused(raw(make(size + 1)), limits) == (
        f"string of {size + 1} bytes exceeds the limit of {size}")


def test_nesting_at_exactly_the_depth_limit_passes_and_one_more_is_refused() -> None:
    check_limits(raw([[[1]]]), SMALL)
    check_limits(raw({"a": {"b": [1]}}), SMALL)
    assert refused(raw([[[[1]]]]), SMALL) == "nesting deeper than the limit of 3"
    assert refused(raw([[[{"a": 1}]]]), SMALL) == "nesting deeper than the limit of 3"
    check_limits(raw([[[[]]]]), SMALL)  # an empty container opens no level
    check_limits(raw([[[{}]]]), SMALL)

    def info(depth: int) -> bytes:
        inner: object = 1
        for _ in range(depth):
            inner = [inner]
        return raw({"type": "action", "seq": 1, "action": 0, "info": {"d": inner}})

    # The message is level 1 and the info level 2: 30 more levels reach the default limit of 32.
    assert isinstance(decode(info(30)), Action)
    with pytest.raises(ProtocolError) as caught:
        decode(info(31))
    assert str(caught.value) == "nesting deeper than the limit of 32"


def test_decoding_applies_the_item_and_string_limits_to_known_fields() -> None:
    small = Limits(max_frame=4096, max_depth=8, max_items=4, max_string=8)
    assert decode(raw({"type": "bye", "reason": "x" * 8}), small) == Bye("x" * 8)
    with pytest.raises(ProtocolError, match="string of 9 bytes exceeds the limit of 8"):
        decode(raw({"type": "bye", "reason": "x" * 9}), small)
    assert decode(raw({"type": "action", "seq": 1, "action": 0, "info": {"a": [1, 2, 3, 4]}}), small) \
        == Action(1, 0, None, {"a": [1, 2, 3, 4]})
    with pytest.raises(ProtocolError, match="container of 5 items exceeds the limit of 4"):
        decode(raw({"type": "action", "seq": 1, "action": 0, "info": {"a": [1, 2, 3, 4, 5]}}), small)
    four = raw({"type": "pong", "seq": 1, "a": 0, "b": 0})
    assert decode(four, small) == Pong(1)
    with pytest.raises(ProtocolError) as caught:
        decode(raw({"type": "pong", "seq": 1, "a": 0, "b": 0, "c": 0}), small)
    assert str(caught.value) == "container of 5 items exceeds the limit of 4"
    with pytest.raises(ProtocolError) as caught:
        decode(four, Limits(max_frame=len(four) - 1))
    assert str(caught.value) == f"frame of {len(four)} bytes exceeds the limit of {len(four) - 1}"
    assert decode(four, Limits(max_frame=len(four))) == Pong(1)


def test_info_at_the_cap_is_kept_and_one_byte_more_is_dropped_on_the_untrusted_path_only() -> None:
    at_cap = {"k": "x" * (INFO_LIMIT - 6)}
    over = {"k": "x" * (INFO_LIMIT - 5)}
    frame = raw({"type": "action", "seq": 2, "action": 1, "info": over})
    assert decode(frame) == Action(2, 1, None, None, INFO_LIMIT + 1)
    assert decode(frame, TRUSTED_LIMITS) == Action(2, 1, None, over)
    assert decode(raw({"type": "action", "seq": 2, "action": 1, "info": at_cap})) == Action(2, 1, None, at_cap)
    capped = Limits(max_info=10)
    assert decode(raw({"type": "action", "seq": 2, "action": 1, "info": {"a": "b" * 6}}), capped) \
        == Action(2, 1, None, {"a": "b" * 6})
    assert decode(raw({"type": "action", "seq": 2, "action": 1, "info": {"a": "b" * 7}}), capped) \
        == Action(2, 1, None, None, 11)


EXT_IN_INFO = raw({"type": "action", "seq": 1, "action": 0, "info": {"a": msgpack.ExtType(1, b"xy")}})


@pytest.mark.parametrize(
    ("limits", "reasons"),
    [
        (DEFAULT_LIMITS, ("byte 0xd5 at offset 3 is not allowed", "byte 0xc7 at offset 0 is not allowed")),
        (TRUSTED_LIMITS, ("not valid msgpack: 3 exceeds max_ext_len(0)",
                          "not valid msgpack: extension type 5 is not allowed")),
    ],
    ids=["untrusted", "trusted"],
)
def test_extension_types_are_refused_on_every_path(limits: Limits, reasons: tuple[str, str]) -> None:
    with pytest.raises(ProtocolError) as caught:
        decode(EXT_IN_INFO, limits)
    assert str(caught.value) == reasons[0]
    with pytest.raises(ProtocolError) as caught:
        decode(raw({"type": "pong", "seq": msgpack.ExtType(5, b"")}), limits)
    assert str(caught.value) == reasons[1]


def test_extension_and_reserved_bytes_are_named_with_their_offset() -> None:
    for byte in (0xC1, 0xC7, 0xC8, 0xC9, 0xD4, 0xD5, 0xD6, 0xD7, 0xD8):
        assert refused(bytes([0x91, byte])) == f"byte 0x{byte:02x} at offset 1 is not allowed"
        with pytest.raises(ProtocolError) as caught:
            decode(bytes([byte]))
        assert str(caught.value) == f"byte 0x{byte:02x} at offset 0 is not allowed"


@pytest.mark.parametrize("frame", [raw([1]), raw("type"), raw(7), b"\xc0", raw(1.5)])
def test_a_message_that_is_not_a_map_is_refused_on_both_paths(frame: bytes) -> None:
    with pytest.raises(ProtocolError) as caught:
        decode(frame)
    assert str(caught.value) == "a message must be a map"
    with pytest.raises(ProtocolError, match="a message must be a map, not "):
        decode(frame, TRUSTED_LIMITS)


def test_map_keys_must_be_strings_and_unique() -> None:
    with pytest.raises(ProtocolError) as caught:
        decode(raw({"type": "pong", 3: 1, "seq": 1}))
    assert str(caught.value) == "not valid msgpack: the keys of a message must be strings"
    with pytest.raises(ProtocolError) as caught:
        decode(b"\x82\xa4type\xa4pong")
    assert str(caught.value) == "frame ends in the middle of a header or value"
    with pytest.raises(ProtocolError) as caught:
        decode(b"\x83\xa4type\xa4pong\xa3seq\x01\xa3seq\x02")
    assert str(caught.value) == "field 'seq' appears twice"
    with pytest.raises(ProtocolError) as caught:
        decode(raw({"type": "pong", "seq": 1}) + b"\x00\x00")
    assert str(caught.value) == "2 bytes after the end of the message"


def test_field_errors_name_the_message_the_field_and_the_type() -> None:
    cases = {
        raw({"type": "pong"}): "pong: missing field 'seq' (an integer)",
        raw({"type": "pong", "seq": 1.0}): "pong: field 'seq' must be an integer, not float",
        raw({"type": "bye", "reason": 5}): "bye: field 'reason' must be a string, not int",
        raw({"type": "welcome", "protocol": 1}): "welcome: missing field 'server' (a string)",
        raw({"type": "end", "match": "m", "seat": 0, "scores": 5}):
            "end: field 'scores' must be an array, not int",
        raw({"type": "action", "seq": 1, "action": 1, "seat": "0"}):
            "action: field 'seat' must be an integer, not str",
        raw({"type": 5}): "unknown message type 5; types: act, action, bye, end, error, hello, ping, "
                          "pong, start, welcome",
    }
    for frame, message in cases.items():
        with pytest.raises(ProtocolError) as caught:
            decode(frame)
        assert str(caught.value) == message


def test_optional_fields_and_defaults() -> None:
    assert decode(raw({"type": "bye"})) == Bye("")
    assert decode(raw({"type": "action", "seq": 1, "action": 2, "seat": None, "info": None})) \
        == Action(1, 2, None, None)
    assert decode(raw({"type": "action", "seq": 1, "action": 2, "seat": 0})) == Action(1, 2, 0)
    start = Start("m", "g", 1, "v", {}, 0, 2, 5, [], ClockMs(1, 2, 3), 50)
    body = msgpack.unpackb(encode(start))
    assert body["clock"] == {"move_ms": 1, "bank_ms": 2, "increment_ms": 3}
    assert body["clock_kind"] == "wall" and list(body)[0] == "type" and body["type"] == "start"
    del body["clock_kind"]
    assert decode(raw(body)) == start
    body["clock_kind"] = "cpu"
    assert decode(raw(body)).clock_kind == "cpu"  # type: ignore[attr-defined]
    body["clock_kind"] = "sundial"
    with pytest.raises(ProtocolError) as caught:
        decode(raw(body))
    assert str(caught.value) == "start: field 'clock_kind' must be one of wall, cpu, not 'sundial'"


@pytest.mark.parametrize(
    ("frame", "seq", "answer"),
    [
        (b"", 1, True),
        (raw([1]), 1, True),
        (raw({"seq": 1}), 1, True),
        (raw({"seq": 1}), 2, False),
        (raw({"seq": -1}), 2**64 - 1, False),
        (raw({"seq": 2**64 - 1}), 2**64 - 1, True),
        (raw({"type": "pong"}), 1, False),
        (raw({"seq": None}), 1, True),
        (raw({"seq": [1]}), 1, True),
        (raw({"a": [1, 2], "seq": 9}), 9, True),
        (raw({"a": [1, 2], "seq": 9}), 8, False),
        (raw({5: 1, "seq": 9}), 8, True),
        (raw({"pad": "x" * (PEEK_WINDOW - 13), "seq": 9}), 8, False),  # 1024 bytes: all seen
        (raw({"pad": "x" * (PEEK_WINDOW - 12), "seq": 9}), 8, True),  # its last byte cut off
        (raw({"seq": 9})[:-1], 8, True),
    ],
)
def test_may_answer_known_answers(frame: bytes, seq: int, answer: bool) -> None:
    assert may_answer(frame, seq) is answer
    assert may_answer(memoryview(frame), seq) is answer


def test_frames_are_encoded_byte_for_byte() -> None:
    assert encode(Pong(7)) == b"\x82\xa4type\xa4pong\xa3seq\x07"
    assert encode(Error("no")) == b"\x82\xa4type\xa5error\xa7message\xa2no"  # no seq: no field
    assert encode(Error("no", 3)) == b"\x83\xa4type\xa5error\xa7message\xa2no\xa3seq\x03"
    assert encode(Action(1, 2)) == b"\x83\xa4type\xa6action\xa3seq\x01\xa6action\x02"
    # Bytes travel as msgpack binaries, and come back as bytes.
    binary = Action(1, 2, None, {"blob": b"\x00\xff"})
    assert b"\xc4\x02\x00\xff" in encode(binary)
    for limits in (DEFAULT_LIMITS, TRUSTED_LIMITS):
        assert decode(encode(binary), limits) == binary


def test_a_dropped_info_does_not_stop_the_fields_after_it() -> None:
    frame = raw({"type": "action", "seq": 1, "action": 0, "info": {"k": "x" * 5000}, "seat": 2})
    assert decode(frame) == Action(1, 0, 2, None, 5006)


def test_keys_obey_the_string_limit_and_bad_keys_are_named() -> None:
    small = Limits(max_string=8)
    assert decode(raw({"type": "pong", "seq": 1, "k" * 8: 0}), small) == Pong(1)
    with pytest.raises(ProtocolError) as caught:
        decode(raw({"type": "pong", "seq": 1, "k" * 9: 0}), small)
    assert str(caught.value) == "not valid msgpack: 9 exceeds max_str_len(8)"
    with pytest.raises(ProtocolError) as caught:
        decode(b"\x81\xa2\xff\xfe\x01")
    assert str(caught.value) == ("not valid msgpack: 'utf-8' codec can't decode byte 0xff in position 0: "
                                 "invalid start byte")


def test_exact_messages_of_empty_and_non_map_frames() -> None:
    with pytest.raises(ProtocolError) as caught:
        decode(b"")
    assert str(caught.value) == "frame ends in the middle of a value"
    with pytest.raises(ProtocolError) as caught:
        decode(raw([1]), TRUSTED_LIMITS)
    assert str(caught.value) == "a message must be a map, not list"
    with pytest.raises(ValueError) as refused_kb:
        bot_limits(0)
    assert str(refused_kb.value) == "the frame limit must be at least 1 KiB"


def test_without_a_depth_limit_the_scan_stops_at_msgpack_s_own_1024_levels() -> None:
    def nested(levels: int) -> bytes:
        return b"\x91" * levels + b"\x01"

    check_limits(nested(1024), TRUSTED_LIMITS)
    assert refused(nested(1025), TRUSTED_LIMITS) == "nesting deeper than the limit of 1024"
    check_limits(nested(1023), TRUSTED_LIMITS, depth_used=1)
    with pytest.raises(ProtocolError) as caught:
        check_limits(nested(1024), TRUSTED_LIMITS, depth_used=1)
    assert str(caught.value) == "nesting deeper than the limit of 1024"


@pytest.mark.parametrize("limits", [DEFAULT_LIMITS, TRUSTED_LIMITS], ids=["untrusted", "trusted"])
def test_keys_inside_values_must_be_strings_too(limits: Limits) -> None:
    frame = raw({"type": "action", "seq": 1, "action": 0, "info": {1: 2}})
    with pytest.raises(ProtocolError) as caught:
        decode(frame, limits)
    assert str(caught.value) == "not valid msgpack: int is not allowed for map key when strict_map_key=True"
