"""The host-fault rule with known answers (:class:`arena.hostfault.HostWatch`): which elapsed-time
cut-offs void a match, and which stay the bot's timeout."""

from __future__ import annotations

from arena.hostfault import STARVED_SHARE, HostWatch

EVERY = "were all cut off by the elapsed-time cap with no reply from any seat in between"


def test_one_hanging_seat_while_the_others_reply_is_the_bots_fault() -> None:
    watch = HostWatch()
    for _ in range(3):
        assert watch.cut_off(0, 1.5, 0.0, playing=[0, 1, 2]) is None
        watch.replied()  # seat 1 replies
        watch.replied()  # seat 2 replies


def test_every_playing_seat_cut_off_with_no_reply_between_is_the_hosts() -> None:
    watch = HostWatch()
    assert watch.cut_off(2, 1.5, 0.0, playing=[0, 1, 2]) is None
    assert watch.cut_off(0, 1.5, 0.0, playing=[0, 1, 2]) is None
    assert watch.cut_off(1, 1.5, 0.0, playing=[0, 1, 2]) == (
        f"seats 0, 1, 2 {EVERY}: the host was too busy to run them"
    )


def test_a_reply_between_cut_offs_keeps_them_the_bots() -> None:
    watch = HostWatch()
    assert watch.cut_off(0, 1.5, 0.0, playing=[0, 1, 2]) is None
    assert watch.cut_off(1, 1.5, 0.0, playing=[0, 1, 2]) is None
    watch.replied()
    assert watch.cut_off(2, 1.5, 0.0, playing=[0, 1, 2]) is None
    assert watch.cut_off(0, 1.5, 0.0, playing=[0, 1, 2]) is None
    assert watch.cut_off(1, 1.5, 0.0, playing=[0, 1, 2]) is not None


def test_forfeited_seats_are_not_waited_for_but_one_seat_alone_is_never_the_hosts() -> None:
    watch = HostWatch()
    assert watch.cut_off(0, 1.5, 0.0, playing=[0, 2]) is None
    assert watch.cut_off(2, 1.5, 0.0, playing=[0, 2]) == f"seats 0, 2 {EVERY}: the host was too busy to run them"
    alone = HostWatch()
    assert alone.cut_off(2, 1.5, 0.0, playing=[2]) is None
    assert alone.cut_off(2, 1.5, 0.0, playing=[2]) is None


def test_a_referee_held_up_for_half_the_wait_is_the_hosts_fault() -> None:
    watch = HostWatch()
    assert STARVED_SHARE == 0.5
    assert watch.cut_off(1, 1.5, 0.749, playing=[0, 1, 2]) is None
    assert watch.cut_off(1, 1.5, 0.75, playing=[0, 1, 2]) == (
        "the referee itself was held up for 750 ms of the 1500 ms it waited for seat 1: "
        "the host was too busy"
    )
