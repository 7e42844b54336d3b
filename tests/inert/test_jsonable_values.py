"""arena.jsonable: every msgpack value a bot may send becomes strict JSON data, once and for all."""

from __future__ import annotations

import json
import math

import msgpack
from hypothesis import given, settings
from hypothesis import strategies as st

from arena.jsonable import jsonable
from arena.record import DecisionRecord, MatchRecord

SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(-(2**63), 2**64 - 1)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text()
    | st.binary(max_size=40)
)
#: What the codec can hand over: maps keyed by strings or bytes (strict_map_key), any nesting.
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text() | st.binary(max_size=8), inner, max_size=4),
    max_leaves=30,
)
PLAIN = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**63), 2**64 - 1) | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=30,
)


@settings(max_examples=300, deadline=None)
@given(VALUES)
def test_any_value_becomes_strict_json_and_stays_put(value: object) -> None:
    plain = jsonable(value)
    text = json.dumps(plain, allow_nan=False)
    assert json.loads(text) == plain
    assert jsonable(plain) == plain
    assert msgpack.unpackb(msgpack.packb(plain), raw=False) == plain


@settings(max_examples=200, deadline=None)
@given(PLAIN)
def test_values_json_can_hold_are_kept(value: object) -> None:
    assert jsonable(value) == value


def test_the_documented_forms() -> None:
    assert jsonable(b"\x00\xff") == {"$bytes": "AP8="}
    assert jsonable({b"k": 1}) == {"$bytes:aw==": 1}
    assert jsonable([math.nan, math.inf, -math.inf, 1.5]) == ["NaN", "Infinity", "-Infinity", 1.5]
    assert jsonable(2**64 - 1) == 2**64 - 1


@settings(max_examples=100, deadline=None)
@given(st.dictionaries(st.text() | st.binary(max_size=8), VALUES, max_size=4))
def test_a_record_with_any_info_is_written_as_json_and_read_back(info: dict[object, object]) -> None:
    decision = DecisionRecord(0, 1, 0.01, info)  # type: ignore[arg-type]  # what a hostile bot may send
    record = MatchRecord("wongar", 1, "basic", {}, 7, ("a", "b", "c"), (decision,), (), (1, 2, 3), (3, 2, 1))
    text = json.dumps(record.to_wire(), allow_nan=False)
    assert MatchRecord.from_wire(json.loads(text)) == record
