"""Time control known answers: exact durations, exact strings and wire values, both sides of every
limit, and the bank charged to the millisecond."""

from __future__ import annotations

import pytest

from arena.clock import (
    CLOCK_CHOICES,
    DEFAULT_WALL_CAP,
    ClockRule,
    SeatClock,
    TimeControl,
    TimeControlError,
    parse_duration,
)
from protocols.messages import ClockMs


@pytest.mark.parametrize(
    ("text", "seconds"),
    [("250ms", 0.25), ("1.5s", 1.5), ("2m", 120.0), (" 3s ", 3.0), ("0ms", 0.0), ("0.5m", 30.0)],
)
def test_durations_in_each_unit(text: str, seconds: float) -> None:
    assert parse_duration(text) == seconds


@pytest.mark.parametrize("text", ["", "5", "ms", "1h", "-1s", "1,5s", "1s1", "s1"])
def test_bad_durations_say_how_to_write_one(text: str) -> None:
    with pytest.raises(TimeControlError) as caught:
        parse_duration(text)
    assert str(caught.value) == f"{text!r} is not a duration; write e.g. 250ms, 1.5s or 2m"


def test_a_time_control_parses_each_part_into_its_own_field() -> None:
    control = TimeControl.parse(" 2s+300ms/1m~20ms ")
    assert (control.move, control.increment, control.bank, control.grace) == (2.0, 0.3, 60.0, 0.02)
    assert TimeControl.parse("1s/5s") == TimeControl(1.0, increment=0.0, bank=5.0, grace=0.05)
    assert TimeControl.parse("1s+2s") == TimeControl(1.0, increment=2.0, bank=0.0, grace=0.05)
    assert TimeControl.parse("1s~0ms").grace == 0.0


def test_the_default_grace_is_fifty_milliseconds() -> None:
    assert TimeControl(1.0).grace == 0.05
    assert TimeControl(1.0).increment == 0.0 and TimeControl(1.0).bank == 0.0


@pytest.mark.parametrize(
    ("control", "text"),
    [
        (TimeControl(0.2), "200ms~50ms"),
        (TimeControl(1.0, increment=0.1, bank=10.0), "1s+100ms/10s~50ms"),
        (TimeControl(0.0, increment=1.0, bank=60.0, grace=0.02), "0s+1s/60s~20ms"),
        (TimeControl(1.5, grace=1.0), "1500ms~1s"),
        (TimeControl(2.0, grace=0.0), "2s~0s"),
    ],
)
def test_a_time_control_is_written_back_exactly(control: TimeControl, text: str) -> None:
    assert str(control) == text
    assert TimeControl.parse(text) == control


def test_the_start_clock_carries_move_bank_and_increment_in_their_own_fields() -> None:
    wire = TimeControl(1.0, increment=0.1, bank=10.0, grace=0.3).wire()
    assert wire == ClockMs(move_ms=1000, bank_ms=10000, increment_ms=100)
    assert TimeControl(0.0015, bank=0.0025).wire() == ClockMs(2, 2, 0)  # rounded to the millisecond


def test_the_first_decision_must_get_some_time() -> None:
    with pytest.raises(TimeControlError) as caught:
        TimeControl.parse("0s+1s")
    assert "must allow some time for the first decision" in str(caught.value)
    assert "0s+1s/1s" in str(caught.value)
    with pytest.raises(TimeControlError, match="first decision"):
        TimeControl(0.0)
    # The smallest allowances on either side pass.
    assert SeatClock(TimeControl(0.001)).budget == 0.001
    assert SeatClock(TimeControl(0.0, increment=1.0, bank=0.001)).budget == 0.001
    assert TimeControl.parse("0s+1s/1s") == TimeControl(0.0, increment=1.0, bank=1.0)


@pytest.mark.parametrize("field", ["move", "increment", "bank", "grace"])
def test_no_part_may_be_negative(field: str) -> None:
    values = {"move": 1.0, "increment": 0.0, "bank": 0.0, "grace": 0.0}
    TimeControl(**values)  # zero is fine for every part but the whole allowance
    with pytest.raises(TimeControlError, match="cannot be negative"):
        TimeControl(**{**values, field: -0.001})


@pytest.mark.parametrize("field", ["move", "increment", "bank", "grace"])
def test_no_part_may_be_over_a_day(field: str) -> None:
    values = {"move": 1.0, "increment": 0.0, "bank": 0.0, "grace": 0.0}
    TimeControl(**{**values, field: 86400.0})
    with pytest.raises(TimeControlError, match="cannot be over 24 hours"):
        TimeControl(**{**values, field: 86400.001})
    with pytest.raises(TimeControlError, match="cannot be over 24 hours"):
        TimeControl.parse("99999999999999999999s")


def test_the_bad_grammar_message_names_the_parts() -> None:
    with pytest.raises(TimeControlError) as caught:
        TimeControl.parse("1s/2s+1s")
    assert str(caught.value).startswith("time control '1s/2s+1s' does not parse; write MOVE, then")


def test_a_decision_within_its_move_costs_nothing_and_the_bank_pays_the_rest() -> None:
    clock = SeatClock(TimeControl(1.0, increment=0.25, bank=2.0, grace=0.5))
    assert (clock.bank, clock.budget, clock.limit) == (2.0, 3.0, 3.5)
    clock.settle(1.0)  # exactly the move: free
    assert clock.bank == 2.25
    clock.settle(0.0)
    assert clock.bank == 2.5
    clock.settle(1.5)  # half a second over the move
    assert clock.bank == 2.25
    assert (clock.budget, clock.limit) == (3.25, 3.75)


def test_a_timeout_empties_the_bank_which_then_gets_only_the_increment() -> None:
    clock = SeatClock(TimeControl(0.5, increment=0.125, bank=1.0, grace=0.25))
    clock.settle(clock.limit)
    assert clock.bank == 0.125
    clock.settle(10.0)
    assert clock.bank == 0.125
    no_increment = SeatClock(TimeControl(0.5, bank=1.0))
    no_increment.settle(1.5)  # the whole bank, to the last bit
    assert no_increment.bank == 0.0
    no_increment.settle(0.25)
    assert no_increment.bank == 0.0


def test_the_act_clock_rounds_the_bank_down_to_whole_milliseconds() -> None:
    clock = SeatClock(TimeControl(0.2, increment=0.05, bank=0.0006))
    assert clock.wire() == ClockMs(200, 0, 50)  # 0.6 ms left: the bot is told 0, never more
    clock.settle(0.1)
    assert clock.wire() == ClockMs(200, 50, 50)
    clock = SeatClock(TimeControl(0.0015, bank=1.9999))
    assert clock.wire() == ClockMs(2, 1999, 0)


def test_clock_rules_resolve_by_accounting() -> None:
    assert CLOCK_CHOICES == ("auto", "cpu", "wall")
    assert ClockRule() == ClockRule("auto", DEFAULT_WALL_CAP) and DEFAULT_WALL_CAP == 10.0
    missing = "'random' has no control group to measure its CPU time (no cgroup mount)"
    assert ClockRule("auto").resolve(None) == "cpu"
    assert ClockRule("auto").resolve(missing) == "wall"
    assert ClockRule("cpu").resolve(None) == "cpu"
    assert ClockRule("wall").resolve(None) == "wall"
    assert ClockRule("wall").resolve(missing) == "wall"
    with pytest.raises(TimeControlError) as caught:
        ClockRule("cpu").resolve(missing)
    assert str(caught.value) == (
        "the CPU clock cannot time every bot: 'random' has no control group to measure its CPU "
        "time (no cgroup mount); use --clock wall or auto")


def test_clock_rule_limits_both_sides() -> None:
    assert ClockRule("cpu", 1.0).wall_cap == 1.0
    with pytest.raises(TimeControlError) as caught:
        ClockRule("cpu", 0.999)
    assert str(caught.value) == "the wall-time cap must be at least 1 (times the allowance), not 0.999"
    with pytest.raises(TimeControlError, match="at least 1"):
        ClockRule("cpu", float("nan"))
    with pytest.raises(TimeControlError) as caught:
        ClockRule("fast")
    assert str(caught.value) == "clock 'fast' is not one of auto, cpu, wall"


def test_whole_second_increments_reach_the_wire_exactly() -> None:
    control = TimeControl(2.0, increment=3.0, bank=4.0)
    assert control.wire() == ClockMs(2000, 4000, 3000)
    assert SeatClock(control).wire() == ClockMs(2000, 4000, 3000)


def test_every_time_control_error_in_full() -> None:
    messages = {
        "1x": "time control '1x' does not parse; write MOVE, then optionally +INCREMENT, /BANK and "
              "~GRACE, each with a unit ms, s or m: e.g. 200ms, 1s+100ms/10s or 0s+1s/1m~20ms",
        "0s+1s": "a time control must allow some time for the first decision: MOVE or BANK above zero "
                 "(an increment is only added after a decision; write e.g. 0s+1s/1s, not 0s+1s)",
    }
    for text, message in messages.items():
        with pytest.raises(TimeControlError) as caught:
            TimeControl.parse(text)
        assert str(caught.value) == message
    with pytest.raises(TimeControlError) as caught:
        TimeControl(1.0, grace=-1.0)
    assert str(caught.value) == "time control values cannot be negative"
    with pytest.raises(TimeControlError) as caught:
        ClockRule("cpu").resolve("'far' is a remote seat, timed on the wall clock")
    assert str(caught.value) == (
        "the CPU clock cannot time every bot: 'far' is a remote seat, timed on the wall clock; use "
        "--clock wall or auto")
