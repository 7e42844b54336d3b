"""Telling a host fault from a bot fault: when a decision ends by the elapsed-time cap of the CPU
clock, was the bot hanging, or was the machine too busy to run it (or the referee)?

Under the CPU clock a bot is charged only the CPU time it uses, so a busy machine must cost it
nothing. A decision still ends after an elapsed-time cap (``wall_cap`` times its allowance) to catch
a bot that waits without computing. That cap is judged the host's fault, and the match is void
(played again, never counted), in exactly two cases:

* **the referee was starved**: the referee's own waiting loop, which asks to wake at least every
  :data:`~arena.referee.CRASH_CHECK` seconds, was held up for at least :data:`STARVED_SHARE` of
  the time it waited for the seat (each wake later than asked by more than ``CRASH_CHECK``, a
  margin for its own work, adds the excess);
* **every seat starved at once**: the cap cut off two or more seats, and every seat still playing,
  with no reply of any kind (an action, a late or malformed reply, a crash, a CPU overrun) from any
  seat in between.

Everything else stays the bot's fault: a crash, a malformed or illegal reply, its own CPU overrun,
and one seat cut off by the cap while another seat replies.
"""

from __future__ import annotations

from collections.abc import Collection

#: Share of a seat's wait the referee must have been held up for to void the match.
STARVED_SHARE = 0.5


class HostWatch:
    """The host-fault rule of one match: told of every reply and every cut-off, in time order."""

    def __init__(self) -> None:
        self._cut: set[int] = set()  # seats cut off by the cap since the last reply of any seat

    def replied(self) -> None:
        """A seat's decision ended by anything but the elapsed-time cap: the host ran it."""
        self._cut.clear()

    def cut_off(self, seat: int, waited: float, held_up: float, playing: Collection[int]) -> str | None:
        """The elapsed-time cap ended ``seat``'s decision after ``waited`` seconds, ``held_up`` of
        which the referee was held up; ``playing``: the seats not forfeited. The reason the match is
        void, or ``None``: the seat's own timeout."""
        if held_up >= STARVED_SHARE * waited:
            return (f"the referee itself was held up for {held_up * 1000:.0f} ms of the "
                    f"{waited * 1000:.0f} ms it waited for seat {seat}: the host was too busy")
        self._cut.add(seat)
        if len(self._cut) >= 2 and set(playing) <= self._cut:
            seats = ", ".join(str(s) for s in sorted(self._cut))
            return (f"seats {seats} were all cut off by the elapsed-time cap with no reply from "
                    "any seat in between: the host was too busy to run them")
        return None
