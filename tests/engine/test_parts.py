"""Kept observation parts (engine.parts): the same object while the source is unchanged, a new one
once it changed, and never a stale one, however the source was changed."""

from __future__ import annotations

from engine.core import Wire
from engine.parts import Parts, as_is, copy_rows
from engine.wongar.arrange import set_face_up, set_hand, set_pieces, staged
from engine.wongar.cards import RitualCard, TerritoryCard


def doubled(values: list[int]) -> list[Wire]:
    return [2 * v for v in values]


def total(values: list[int]) -> int:
    return sum(values)


def counted(values: list[int]) -> dict[str, Wire]:
    return {"count": len(values)}


def test_a_part_is_kept_while_its_source_is_unchanged_and_rebuilt_after_a_change_in_place() -> None:
    parts = Parts()
    source = [1, 2, 3]
    first = parts.get("doubled", source, list.copy, doubled)
    assert parts.get("doubled", source, list.copy, doubled) is first
    assert parts.get("doubled", [1, 2, 3], list.copy, doubled) is first
    source[1] = 5
    changed = parts.get("doubled", source, list.copy, doubled)
    assert changed == [2, 10, 6] and changed is not first
    assert first == [2, 4, 6]


def test_a_rebuilt_part_equal_to_the_kept_one_is_the_kept_object() -> None:
    parts = Parts()
    first = parts.get("sizes", [[1, 2], [3]], copy_rows, _sizes)
    assert parts.get("sizes", [[2, 1], [4]], copy_rows, _sizes) is first
    assert parts.get("sizes", [[2], [4]], copy_rows, _sizes) == [1, 1]


def _sizes(rows: list[list[int]]) -> list[Wire]:
    return [len(row) for row in rows]


def test_rows_keep_every_unchanged_row_and_the_list_while_no_row_changed() -> None:
    parts = Parts()
    source = [1, 2, 3, 4, 5, 6]
    first = parts.rows("rows", source, 2, doubled)
    assert first == [[2, 4], [6, 8], [10, 12]]
    assert parts.rows("rows", source, 2, doubled) is first
    source[3] = 0
    second = parts.rows("rows", source, 2, doubled)
    assert second == [[2, 4], [6, 0], [10, 12]] and second is not first
    assert second[0] is first[0] and second[2] is first[2] and second[1] is not first[1]
    assert first == [[2, 4], [6, 8], [10, 12]]


def test_each_keeps_the_elements_of_unchanged_lists() -> None:
    parts = Parts()
    stacks = [[1], [2, 3], []]
    first = parts.each("stacks", stacks, counted)
    stacks[1].pop()
    second = parts.each("stacks", stacks, counted)
    assert second == [{"count": 1}, {"count": 1}, {"count": 0}]
    assert second[0] is first[0] and second[2] is first[2] and second[1] is not first[1]
    stacks[1][0] = 9
    assert parts.each("stacks", stacks, counted) is second


def test_same_hands_out_the_kept_object_for_an_equal_value() -> None:
    parts = Parts()
    first = parts.same("pending", {"decision": "take", "seat": 1})
    assert parts.same("pending", {"decision": "take", "seat": 1}) is first
    assert parts.same("pending", {"decision": "take", "seat": 2}) == {"decision": "take", "seat": 2}
    assert parts.get("sum", (1, 2), as_is, _pair_sum) == 3


def _pair_sum(pair: tuple[int, int]) -> int:
    return pair[0] + pair[1]


def entry(value: Wire, *path: int) -> Wire:
    """The element of nested lists at ``path``."""
    for index in path:
        assert isinstance(value, list)
        value = value[index]
    return value


def test_wongar_parts_follow_positions_changed_directly() -> None:
    """Staging helpers and direct field changes between observations show at once, in new parts;
    the parts they did not touch stay the same objects."""
    state = staged(4, 7)
    state.begin()
    before = state.observation(0)
    set_pieces(state, "Moon", 2, disc=3, cube=1)
    set_face_up(state, "Emu", TerritoryCard.TRIPLE)
    set_hand(state, 0, [RitualCard.CUBE, RitualCard.CUBE])
    state.scores[3] = 11
    after = state.observation(0)
    assert after == state.clone().observation(0)
    assert entry(after["pieces"], state.board.index("Moon"), 2) == [3, 1, 0]
    assert entry(after["face_up"], state.board.index("Emu")) == "Triple"
    assert after["hand"] == {"Disc": 0, "Cube": 2, "Cylinder": 0, "Double": 0}
    assert after["scores"] == [0, 0, 0, 11]
    for key in ("pieces", "supply", "face_up", "hand", "scores"):
        assert after[key] is not before[key] and after[key] != before[key], key
    for key in ("territories", "neighbours", "taken", "discard", "scorpion"):
        assert after[key] is before[key], key
