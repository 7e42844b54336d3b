"""The codec: every message round-trips; anything malformed is a ProtocolError, never a crash."""

from __future__ import annotations

import msgpack
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

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

CLOCK = ClockMs(200, 5000, 100)
EXAMPLES: list[Message] = [
    Hello(1, "mybot", "2.1", "9f2c"),
    Welcome(1, "arena 0.1.0"),
    Start("m-1", "wongar", 1, "basic", {"board": "a"}, 1, 3, 2**64 - 1,
          [[0, ["pass"], "pass"], [1, ["take", "Emu"], "take Emu"]], CLOCK, 50),
    Act(7, 1, 12, {"hand": ["Emu"], "nested": {"x": [1, 2.5, None, True]}}, (0, 4, 9),
        [{"type": "took", "seat": 0}], CLOCK),
    Action(7, 4),
    Action(8, 4, seat=2, info={"eval": 0.5, "pv": [1, 2]}),
    End("m-1", 1, (7, 9, 3), (2, 1, 3), (2,), []),
    Ping(3),
    Pong(3),
    Bye("done"),
    Error("unknown token"),
    Error("cannot decide", seq=5),
]


@pytest.mark.parametrize("message", EXAMPLES, ids=lambda m: type(m).__name__)
def test_every_message_round_trips(message: Message) -> None:
    assert decode(encode(message)) == message
    assert decode(encode(message), TRUSTED_LIMITS) == message


def raw(body: object) -> bytes:
    frame: bytes = msgpack.packb(body, use_bin_type=True)
    return frame


@pytest.mark.parametrize(
    ("frame", "fragment"),
    [
        (b"", "ends in the middle"),
        (b"\xc1", "not allowed"),
        (raw([1, 2]), "must be a map"),
        (raw({"type": "shout"}), "unknown message type 'shout'"),
        (raw({"seq": 1}), "unknown message type None"),
        (raw({"type": "action", "seq": 1}), "action: missing field 'action'"),
        (raw({"type": "action", "seq": "1", "action": 2}), "field 'seq' must be an integer, not str"),
        (raw({"type": "action", "seq": True, "action": 2}), "field 'seq' must be an integer, not bool"),
        (raw({"type": "action", "seq": 1, "action": 2, "info": [1]}), "'info' must be a map"),
        (raw({"type": "act", "seq": 1, "seat": 0, "ply": 0, "observation": {}, "legal": [1, "x"],
              "events": [], "clock": {"move_ms": 1, "bank_ms": 0, "increment_ms": 0}}),
         "'legal' must be an array of integers"),
        (raw({"type": "act", "seq": 1, "seat": 0, "ply": 0, "observation": {}, "legal": [1],
              "events": [], "clock": {"move_ms": 1}}), "act.clock: missing field 'bank_ms'"),
        (raw({"type": "ping", "seq": 1}) + b"\x00", "1 bytes after the end"),
        (raw({"type": "ping", "seq": 1})[:-1], "ends in the middle"),
        (msgpack.packb(msgpack.ExtType(1, b"xx")), "not allowed"),
        (raw({1: 2}), "not valid msgpack"),
        (b"\x82\xa4type\xa4ping\xa3seq\xc4", "ends in the middle of a header"),
    ],
)
def test_malformed_frames_say_what_is_wrong(frame: bytes, fragment: str) -> None:
    with pytest.raises(ProtocolError) as caught:
        decode(frame)
    assert fragment in str(caught.value)


def test_invalid_utf8_is_malformed() -> None:
    frame = b"\x81\xa4type\xa2\xff\xfe"
    with pytest.raises(ProtocolError, match="not valid msgpack"):
        decode(frame)


def test_limits_are_enforced_before_unpacking() -> None:
    small = Limits(max_frame=64, max_depth=3, max_items=4, max_string=8)
    with pytest.raises(ProtocolError, match="frame of 65 bytes exceeds the limit of 64"):
        check_limits(b"\x00" * 65, small)
    with pytest.raises(ProtocolError, match="nesting deeper than the limit of 3"):
        check_limits(raw([[[[1]]]]), small)
    check_limits(raw([[[1]]]), small)
    with pytest.raises(ProtocolError, match="container of 5 items exceeds the limit of 4"):
        check_limits(raw(list(range(5))), small)
    with pytest.raises(ProtocolError, match="container of 20 items exceeds the limit of 4"):
        check_limits(raw(list(range(20))), small)
    with pytest.raises(ProtocolError, match="string of 9 bytes exceeds the limit of 8"):
        check_limits(raw("x" * 9), small)
    # A header announcing a huge array is refused from the header alone, without allocating it.
    with pytest.raises(ProtocolError, match="container of 4294967295 items"):
        check_limits(b"\xdd\xff\xff\xff\xff", DEFAULT_LIMITS)


def test_default_depth_limit_refuses_deep_info() -> None:
    nested: list[object] = []
    for _ in range(40):
        nested = [nested]
    frame = raw({"type": "action", "seq": 1, "action": 0, "info": {"deep": nested}})
    with pytest.raises(ProtocolError, match="nesting deeper than the limit of 32"):
        decode(frame)


def test_trusted_limits_still_bound_size_and_lengths() -> None:
    with pytest.raises(ProtocolError, match="exceeds the limit"):
        decode(b"\x00" * (TRUSTED_LIMITS.max_frame + 1), TRUSTED_LIMITS)
    with pytest.raises(ProtocolError, match="not valid msgpack"):
        decode(raw({"type": "bye", "reason": "x" * (TRUSTED_LIMITS.max_string + 1)}), TRUSTED_LIMITS)


def test_unknown_fields_are_ignored() -> None:
    assert decode(raw({"type": "pong", "seq": 4, "extra": [1, 2]})) == Pong(4)


@settings(max_examples=150, deadline=None)
@given(st.binary(max_size=200) | st.binary(max_size=40).map(lambda tail: b"\x82\xa4type\xa4pong\xa3seq" + tail))
def test_arbitrary_bytes_raise_only_protocol_error(frame: bytes) -> None:
    try:
        message = decode(frame)
    except ProtocolError as exc:
        assert str(exc) and "\n" not in str(exc)
        return
    # Accepted: the frame is one msgpack map, and every field of the message is as it was sent.
    body = msgpack.unpackb(frame, raw=False, strict_map_key=False, unicode_errors="surrogateescape")
    assert isinstance(body, dict)
    sent = msgpack.unpackb(encode(message), raw=False)
    assert sent["type"] == body["type"]
    assert all(body[key] == value for key, value in sent.items() if key in body)


wire_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**63), 2**64 - 1) | st.floats(allow_nan=False)
    | st.text(max_size=10),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=4),
    max_leaves=20,
)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def expected_message(body: dict[str, object]) -> Message | None:
    """What a map of these fields must decode to (``None``: a ProtocolError), written out from SPEC."""
    kind = body.get("type")
    seq, seat, info = body.get("seq"), body.get("seat"), body.get("info")
    if kind == "action":
        action = body.get("action")
        if not (_is_int(seq) and _is_int(action) and (seat is None or _is_int(seat))
                and (info is None or isinstance(info, dict))):
            return None
        return Action(seq, action, seat, info)  # type: ignore[arg-type]
    if kind == "error":
        text = body.get("message")
        if not (isinstance(text, str) and (seq is None or _is_int(seq))):
            return None
        return Error(text, seq)  # type: ignore[arg-type]
    if kind in ("ping", "pong"):
        return (Ping if kind == "ping" else Pong)(seq) if _is_int(seq) else None  # type: ignore[arg-type]
    return None


message_fields = st.dictionaries(
    st.sampled_from(["type", "seq", "action", "seat", "info", "message"]),
    wire_values,
)
typed_fields = st.fixed_dictionaries(
    {"type": st.sampled_from(["action", "error", "ping", "pong", "shout"])},
    optional={"seq": st.integers(0, 2**64 - 1) | wire_values, "action": st.integers(0, 99) | wire_values,
              "seat": st.none() | st.integers(0, 5) | wire_values, "message": st.text(max_size=8) | wire_values,
              "info": st.dictionaries(st.text(max_size=5), wire_values, max_size=4) | wire_values},
)


seqs = st.integers(0, 2**64 - 1)
valid_fields = st.one_of(
    st.builds(Action, seqs, st.integers(0, 99), st.none() | st.integers(0, 5),
              st.none() | st.dictionaries(st.text(max_size=5), wire_values, max_size=4)),
    st.builds(Error, st.text(max_size=8), st.none() | seqs),
    st.builds(Ping, seqs),
    st.builds(Pong, seqs),
).map(lambda message: msgpack.unpackb(encode(message)))


@settings(max_examples=150, deadline=None)
@given(message_fields | typed_fields | valid_fields)
def test_arbitrary_maps_raise_only_protocol_error(body: dict[str, object]) -> None:
    expected = expected_message(body)
    for limits in (DEFAULT_LIMITS, TRUSTED_LIMITS):
        if expected is None:
            with pytest.raises(ProtocolError):
                decode(raw(body), limits)
        else:
            assert decode(raw(body), limits) == expected


@pytest.mark.parametrize(
    ("body", "seq", "answer"),
    [
        ({"type": "action", "seq": 5, "action": 1}, 5, True),
        ({"type": "action", "seq": 5, "action": 1}, 6, False),
        ({"type": "pong", "seq": 2**40}, 2**40, True),
        ({"type": "hello", "name": "x"}, 5, False),  # no seq: answers nothing
        ({"type": "action", "seq": "5"}, 5, True),  # cannot tell: decoding decides
        ({"pad": "x" * PEEK_WINDOW, "seq": 6}, 5, True),  # beyond the window: cannot tell
        ({"pad": "x" * (PEEK_WINDOW - 20), "seq": 6}, 5, False),
        ({1: 2, "seq": 6}, 5, True),
        ([5], 5, True),
    ],
)
def test_may_answer_reads_only_the_first_bytes(body: object, seq: int, answer: bool) -> None:
    assert may_answer(msgpack.packb(body), seq) is answer


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=300), st.integers(0, 2**64 - 1))
def test_may_answer_never_raises(frame: bytes, seq: int) -> None:
    assert may_answer(frame, seq) in (True, False)


def test_an_untrusted_frame_builds_only_known_fields() -> None:
    junk = [[[]]] * 20_000  # skipped unread, however it nests
    frame = raw({"type": "pong", "seq": 3, "junk": junk})
    assert len(frame) < DEFAULT_LIMITS.max_frame and decode(frame) == Pong(3)
    with pytest.raises(ProtocolError, match="appears twice"):
        decode(b"\x83\xa4type\xa4pong\xa3seq\x01\xa3seq\x02")


def test_info_over_the_cap_is_dropped_with_its_size() -> None:
    at_cap = {"k": "x" * (INFO_LIMIT - 6)}
    assert len(msgpack.packb(at_cap)) == INFO_LIMIT
    kept = decode(raw({"type": "action", "seq": 1, "action": 0, "info": at_cap}))
    assert isinstance(kept, Action) and kept.info == at_cap and kept.info_dropped == 0
    over = {"k": "x" * (INFO_LIMIT - 5)}
    dropped = decode(raw({"type": "action", "seq": 1, "action": 0, "info": over}))
    assert isinstance(dropped, Action) and dropped.info is None
    assert dropped.info_dropped == INFO_LIMIT + 1
    sixteen = {f"key{i:02}": i for i in range(16)}
    assert decode(raw({"type": "action", "seq": 1, "action": 0, "info": sixteen})) == Action(1, 0, None, sixteen)


def test_bot_frame_limit_both_sides() -> None:
    body = {"type": "pong", "seq": 1, "pad": ""}
    overhead = len(raw(body))
    exact = raw({**body, "pad": "x" * (BOT_FRAME_LIMIT - overhead - 2)})
    assert len(exact) == BOT_FRAME_LIMIT and decode(exact) == Pong(1)
    with pytest.raises(ProtocolError, match=f"exceeds the limit of {BOT_FRAME_LIMIT}"):
        decode(exact + b"\x00")
    assert decode(exact, bot_limits(64)) == Pong(1)
    with pytest.raises(ProtocolError, match="exceeds the limit of 1024"):
        decode(exact, bot_limits(1))
    with pytest.raises(ValueError):
        bot_limits(0)
