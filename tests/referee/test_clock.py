"""Time control: the grammar, its round trip, and how a seat's bank is charged."""

from __future__ import annotations

import pytest

from arena.clock import SeatClock, TimeControl, TimeControlError
from protocols.messages import ClockMs


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("200ms", TimeControl(0.2)),
        ("1s+100ms/10s", TimeControl(1.0, increment=0.1, bank=10.0)),
        ("0s+1s/1m~20ms", TimeControl(0.0, increment=1.0, bank=60.0, grace=0.02)),
        ("1.5s/2m", TimeControl(1.5, bank=120.0)),
    ],
)
def test_parse_and_round_trip(text: str, expected: TimeControl) -> None:
    parsed = TimeControl.parse(text)
    assert parsed == expected
    assert TimeControl.parse(str(parsed)) == parsed


@pytest.mark.parametrize("text", ["", "200", "fast", "1s+", "1h", "-1s", "1s/2s+1s", "0s"])
def test_bad_time_controls_say_how_to_write_one(text: str) -> None:
    with pytest.raises(TimeControlError) as caught:
        TimeControl.parse(text)
    message = str(caught.value)
    assert "does not parse" in message or "must allow some time" in message


def test_bank_pays_for_overruns_and_gets_the_increment() -> None:
    clock = SeatClock(TimeControl(1.0, increment=0.5, bank=10.0, grace=0.05))
    assert clock.budget == pytest.approx(11.0) and clock.limit == pytest.approx(11.05)
    clock.settle(0.4)
    assert clock.bank == pytest.approx(10.5)
    clock.settle(4.0)
    assert clock.bank == pytest.approx(8.0)
    clock.settle(100.0)
    assert clock.bank == pytest.approx(0.5)
    assert clock.wire() == ClockMs(1000, 500, 500)
