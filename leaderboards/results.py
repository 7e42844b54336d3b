"""What the leaderboard rates: finished games as plain facts, handed over by whoever played them.

``leaderboards`` needs no runner, store or schedule: a :class:`RatedGame` per finished game (the
arena builds them from its match records, see :mod:`arena.rating_input`) is its whole input.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

#: The fault kinds a game may list (the referee's: see SPEC.md §6).
FAULT_KINDS = ("timeout", "illegal", "crash", "malformed", "start")


@dataclass(frozen=True, slots=True)
class RatedGame:
    """One finished game.

    ``bots[s]`` is the bot in seat ``s`` and ``ranks[s]`` its final place (1 best, ties share,
    forfeited seats last). ``game``, ``variant`` and ``seed`` name the deal (duplicate blocks are
    built from them). ``faults`` lists ``(seat, kind)`` with ``kind`` in :data:`FAULT_KINDS`;
    ``forfeited`` the forfeited seats; ``replies`` the ``(seat, seconds)`` of every decision a bot
    answered itself (fallbacks left out); ``clock`` what timed its decisions, ``"cpu"`` or
    ``"wall"`` (``None``: not recorded).
    """

    game: str
    variant: str
    seed: int
    bots: tuple[str, ...]
    ranks: tuple[int, ...]
    faults: tuple[tuple[int, str], ...] = ()
    forfeited: tuple[int, ...] = ()
    replies: tuple[tuple[int, float], ...] = ()
    clock: str | None = None

    def __post_init__(self) -> None:
        for _, kind in self.faults:
            if kind not in FAULT_KINDS:
                raise ValueError(f"unknown fault kind {kind!r}; kinds: {', '.join(FAULT_KINDS)}")

    @property
    def players(self) -> int:
        """Number of seats."""
        return len(self.bots)


def common_clock(kinds: Iterable[object]) -> str | None:
    """The clock that timed a set of matches, from each one's recorded clock (a match record's
    ``detail["clock"]``, or :attr:`RatedGame.clock`): ``"cpu"`` or ``"wall"`` when they all
    agree, ``"mixed"`` when they differ, ``None`` when none records one."""
    named = {kind for kind in kinds if kind in ("cpu", "wall")}
    return None if not named else named.pop() if len(named) == 1 else "mixed"
