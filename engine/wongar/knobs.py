"""The rules knobs of Wongar (docs/games/wongar.md, W1, W3, W12): ``board``, ``scorpion_track`` and
``ceremony_points``.

* ``scorpion_track``: three phase lengths in spaces, ``"A/B/C"`` (default ``"5/5/5"``). The Scorpion
  starts on space 1; the game end is triggered when it reaches space A+B+C.
* ``ceremony_points``: points for one majority, ``"a,e,ae/a,e,ae/a,e,ae"``: per phase (1/2/3), for a
  ceremony triggered by the Ancestor, the Elder, and the Ancestor-and-Elder card (default
  ``"2,3,4/3,4,5/5,6,7"``).
"""

from __future__ import annotations

from functools import cache

from engine.core import Knob
from engine.wongar.board import parse_board

PHASES = 3
TRIGGERS = 3


def parse_track(raw: object) -> str:
    """Canonical ``scorpion_track`` value; ``ValueError`` saying what is allowed."""
    text = _text(raw, "three phase lengths like '5/5/5'")
    parts = text.split("/")
    if len(parts) != PHASES:
        raise ValueError(f"expected three phase lengths like '5/5/5', got {text!r}")
    lengths = [_whole(p, "a phase length", minimum=1) for p in parts]
    if sum(lengths) < 2:
        raise ValueError("the track needs at least 2 spaces")
    return "/".join(map(str, lengths))


@cache
def track_phase_ends(value: str) -> tuple[int, ...]:
    """The last space of each phase (1-based, cumulative) for a canonical ``scorpion_track``."""
    ends: list[int] = []
    total = 0
    for part in value.split("/"):
        total += int(part)
        ends.append(total)
    return tuple(ends)


def phase_of(space: int, phase_ends: tuple[int, ...]) -> int:
    """The 1-based phase of the Scorpion on ``space`` for a track with these ``phase_ends``."""
    phase = 1
    for end in phase_ends[:-1]:
        if space > end:
            phase += 1
    return phase


def parse_points(raw: object) -> str:
    """Canonical ``ceremony_points`` value; ``ValueError`` saying what is allowed."""
    shape = "'a,e,ae/a,e,ae/a,e,ae' (Ancestor, Elder, Ancestor-and-Elder points per phase)"
    text = _text(raw, shape)
    phases = text.split("/")
    if len(phases) != PHASES or any(len(p.split(",")) != TRIGGERS for p in phases):
        raise ValueError(f"expected {shape}, got {text!r}")
    rows = [[_whole(v, "a point value", minimum=0) for v in p.split(",")] for p in phases]
    return "/".join(",".join(map(str, row)) for row in rows)


@cache
def points_table(value: str) -> tuple[tuple[int, ...], ...]:
    """``table[phase][trigger]`` (0-based) for a canonical ``ceremony_points`` value."""
    return tuple(tuple(int(v) for v in p.split(",")) for p in value.split("/"))


def _text(raw: object, shape: str) -> str:
    if not isinstance(raw, str):
        raise ValueError(f"expected {shape}, got {type(raw).__name__}")
    return raw.replace(" ", "")


def _whole(text: str, what: str, minimum: int) -> int:
    if not text.isdigit():
        raise ValueError(f"{what} must be a whole number >= {minimum}, not {text!r}")
    value = int(text)
    if value < minimum:
        raise ValueError(f"{what} must be >= {minimum}, not {value}")
    return value


KNOBS: tuple[Knob, ...] = (
    Knob(
        "board",
        "standard",
        "'standard' or a JSON object mapping 10 territory names (setup order) to neighbour lists",
        parse=parse_board,
    ),
    Knob("scorpion_track", "5/5/5", "Scorpion track phase lengths 'A/B/C'", parse=parse_track),
    Knob(
        "ceremony_points",
        "2,3,4/3,4,5/5,6,7",
        "majority points per phase 'a,e,ae/a,e,ae/a,e,ae' (Ancestor, Elder, Ancestor-and-Elder)",
        parse=parse_points,
    ),
)
