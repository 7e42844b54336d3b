"""Time control in its string form ``BANK+INC[/MOVE]`` (seconds), e.g. ``"60+0.5/2"``.

``BANK`` is each seat's time bank, ``INC`` the Fischer increment added after each decision, ``MOVE``
an optional cap on any one decision. Missing parts are zero: ``"60"`` is a bank alone, ``"/0.5"`` half
a second a decision and no bank.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from arena.tournament import TournamentError


@dataclass(frozen=True, slots=True)
class TimeControl:
    """Seconds: ``bank`` per seat, ``increment`` per decision, ``move`` cap per decision (0: none)."""

    bank: float
    increment: float
    move: float

    def __str__(self) -> str:
        text = f"{_num(self.bank)}+{_num(self.increment)}"
        return f"{text}/{_num(self.move)}" if self.move else text

    def max_decision(self) -> float:
        """The longest one decision may take with a full bank (seconds; ``inf`` if unbounded)."""
        cap = self.bank + self.increment
        if self.move:
            cap = min(cap, self.move) if cap > 0 else self.move
        return cap if cap > 0 else math.inf

    def max_game(self, players: int, decisions: int) -> float:
        """Upper bound on the thinking time of one game of ``decisions`` decisions (seconds)."""
        by_move = decisions * self.max_decision()
        by_bank = players * self.bank + decisions * self.increment if self.bank else math.inf
        return min(by_move, by_bank)


def _num(value: float) -> str:
    return f"{value:g}"


def parse_time_control(text: str) -> TimeControl:
    """Parse ``BANK+INC[/MOVE]``; raises :class:`TournamentError` naming the problem."""
    raw = text.strip()
    main, _, move_part = raw.partition("/")
    bank_part, plus, inc_part = main.partition("+")
    try:
        bank = float(bank_part) if bank_part.strip() else 0.0
        increment = float(inc_part) if plus else 0.0
        move = float(move_part) if move_part.strip() else 0.0
    except ValueError:
        raise TournamentError(
            f"time control {text!r}: expected BANK+INC[/MOVE] in seconds, e.g. '60+0.5/2'"
        ) from None
    values = (bank, increment, move)
    if any(not math.isfinite(v) or v < 0 for v in values):
        raise TournamentError(f"time control {text!r}: times must be finite and not negative")
    if bank + increment + move == 0:
        raise TournamentError(f"time control {text!r}: gives no time at all")
    return TimeControl(bank, increment, move)
