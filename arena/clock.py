"""Time control: a per-decision allowance, a bank with a Fischer increment, and a grace margin.

A decision may take ``move + bank`` seconds; time beyond ``move`` is paid from the bank, and
``increment`` is added to the bank after every decision (so ``move + bank`` must be above zero: the
first decision gets no increment). Replies up to ``grace`` seconds late are
still accepted (the bank drops to zero). Written ``MOVE[+INCREMENT][/BANK][~GRACE]``, e.g. ``200ms``
or ``1s+100ms/10s``; see ``protocols/SPEC.md`` §5.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass

from arena.errors import ArenaError
from protocols.messages import ClockMs

_DURATION = r"\d+(?:\.\d+)?(?:ms|s|m)"
_GRAMMAR = re.compile(
    rf"(?P<move>{_DURATION})(?:\+(?P<increment>{_DURATION}))?(?:/(?P<bank>{_DURATION}))?"
    rf"(?:~(?P<grace>{_DURATION}))?"
)
_UNITS = {"ms": 0.001, "s": 1.0, "m": 60.0}

log = logging.getLogger(__name__)
_noted: set[str] = set()


#: The longest time control value, in seconds: a day, far beyond any match, and within what the
#: protocol's millisecond fields carry.
LONGEST = 24 * 3600.0


class TimeControlError(ArenaError):
    """A time control that does not parse or makes no sense."""


def parse_duration(text: str) -> float:
    """Seconds in ``text`` (a number with ``ms``, ``s`` or ``m``); raises :class:`TimeControlError`."""
    match = re.fullmatch(r"(\d+(?:\.\d+)?)(ms|s|m)", text.strip())
    if match is None:
        raise TimeControlError(f"{text!r} is not a duration; write e.g. 250ms, 1.5s or 2m")
    return float(match.group(1)) * _UNITS[match.group(2)]


def _format(seconds: float) -> str:
    ms = round(seconds * 1000)
    return f"{ms}ms" if ms % 1000 else f"{ms // 1000}s"


@dataclass(frozen=True, slots=True)
class TimeControl:
    """Seconds per decision free of the bank, increment, initial bank and grace margin."""

    move: float
    increment: float = 0.0
    bank: float = 0.0
    grace: float = 0.05

    def __post_init__(self) -> None:
        if min(self.move, self.increment, self.bank, self.grace) < 0:
            raise TimeControlError("time control values cannot be negative")
        if max(self.move, self.increment, self.bank, self.grace) > LONGEST:
            raise TimeControlError(f"time control values cannot be over {LONGEST / 3600:g} hours (a day a decision)")
        if self.move + self.bank <= 0:
            raise TimeControlError(
                "a time control must allow some time for the first decision: MOVE or BANK above zero "
                "(an increment is only added after a decision; write e.g. 0s+1s/1s, not 0s+1s)"
            )

    @classmethod
    def parse(cls, text: str) -> TimeControl:
        """Parse ``MOVE[+INCREMENT][/BANK][~GRACE]``; raises :class:`TimeControlError`."""
        match = _GRAMMAR.fullmatch(text.strip())
        if match is None:
            raise TimeControlError(
                f"time control {text!r} does not parse; write MOVE, then optionally +INCREMENT, "
                "/BANK and ~GRACE, each with a unit ms, s or m: e.g. 200ms, 1s+100ms/10s or 0s+1s/1m~20ms"
            )
        parts = {k: parse_duration(v) for k, v in match.groupdict().items() if v is not None}
        return cls(**parts)

    def __str__(self) -> str:
        text = _format(self.move)
        if self.increment:
            text += f"+{_format(self.increment)}"
        if self.bank:
            text += f"/{_format(self.bank)}"
        return text + f"~{_format(self.grace)}"

    def wire(self) -> ClockMs:
        """The control as sent in ``start``."""
        return ClockMs(round(self.move * 1000), round(self.bank * 1000), round(self.increment * 1000))


class SeatClock:
    """One seat's running clock for one match."""

    __slots__ = ("control", "bank")

    def __init__(self, control: TimeControl) -> None:
        self.control = control
        self.bank = control.bank

    @property
    def budget(self) -> float:
        """Seconds the next decision may take before grace."""
        return self.control.move + self.bank

    @property
    def limit(self) -> float:
        """Seconds after which the next decision is a timeout (budget plus grace)."""
        return self.budget + self.control.grace

    def settle(self, elapsed: float) -> None:
        """Charge a decision that took ``elapsed`` seconds (a timeout charges the whole bank)."""
        self.bank = max(0.0, self.bank - max(0.0, elapsed - self.control.move))
        self.bank += self.control.increment

    def wire(self) -> ClockMs:
        """The clock as sent in ``act``."""
        return ClockMs(
            round(self.control.move * 1000),
            int(self.bank * 1000),
            round(self.control.increment * 1000),
        )


#: What a match's decisions may be charged: ``"cpu"``, the CPU time all the bot's processes use
#: between its ``act`` and its reply (its control group's accounting); ``"wall"``, elapsed time;
#: ``"auto"``, cpu where every seat's bot has CPU accounting (a local bot, sandboxed or trusted,
#: in control groups of its own), else wall.
CLOCK_CHOICES = ("auto", "cpu", "wall")
#: The ``--clock`` option's help, the same on every command.
CLOCK_HELP = ("Charge decisions CPU time (cpu), elapsed time (wall), or cpu where every bot's CPU "
              "time is measured, i.e. no remote seats and control groups available (auto).")
#: Under the CPU clock a decision still ends after this many times its allowance in elapsed time.
DEFAULT_WALL_CAP = 10.0


@dataclass(frozen=True, slots=True)
class ClockRule:
    """How decisions are charged (``kind``, one of :data:`CLOCK_CHOICES`) and, under the CPU clock,
    the elapsed-time cap as a multiple of a decision's allowance (``wall_cap`` ≥ 1)."""

    kind: str = "auto"
    wall_cap: float = DEFAULT_WALL_CAP

    def __post_init__(self) -> None:
        if self.kind not in CLOCK_CHOICES:
            raise TimeControlError(f"clock {self.kind!r} is not one of {', '.join(CLOCK_CHOICES)}")
        if not self.wall_cap >= 1:
            raise TimeControlError(f"the wall-time cap must be at least 1 (times the allowance), not {self.wall_cap}")

    def resolve(self, unaccounted: str | None) -> str:
        """``"cpu"`` or ``"wall"`` for a match whose bots all have CPU accounting
        (``unaccounted`` is ``None``) or not (``unaccounted`` says which bot lacks it and why);
        raises :class:`TimeControlError` for the CPU clock without it."""
        if self.kind == "auto":
            return "cpu" if unaccounted is None else "wall"
        if self.kind == "cpu" and unaccounted is not None:
            raise TimeControlError(f"the CPU clock cannot time every bot: {unaccounted}; use "
                                   "--clock wall or auto")
        return self.kind


def note_wall_clock(unaccounted: str) -> None:
    """Say, once per process and reason, that ``auto`` times a match on the wall clock because a
    bot lacks CPU accounting (``unaccounted``, as :meth:`ClockRule.resolve` takes it): a one-line
    warning."""
    if unaccounted not in _noted:
        _noted.add(unaccounted)
        log.warning("note: the wall clock times this match, not the CPU clock: %s", unaccounted)
