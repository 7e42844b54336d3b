"""What a played match leaves behind: enough to store it, rate it and replay it exactly.

A :class:`MatchRecord` is the unit the referee produces, the store commits whole, and the
leaderboards read. It round-trips through :meth:`MatchRecord.to_wire` / :meth:`MatchRecord.from_wire`
(plain msgpack/JSON-able data) unchanged.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from arena.jsonable import jsonable_map
from engine.core import KnobValue, MatchConfig, Wire, WireMap


class FaultKind(str, enum.Enum):
    """Why the referee had to decide for a seat, or could not use a bot at all."""

    TIMEOUT = "timeout"
    """No reply within the clock plus the grace margin."""
    CRASH = "crash"
    """The bot process died or its connection vanished."""
    MALFORMED = "malformed"
    """A reply that is not a valid protocol message (bytes, shape, types, token, seat)."""
    ILLEGAL = "illegal"
    """A well-formed reply naming an action that is not legal now."""
    START = "start"
    """The bot could not be started or did not complete the handshake."""


@dataclass(frozen=True, slots=True)
class Fault:
    """One fault of one seat at decision index ``ply`` (``-1`` before the first decision)."""

    seat: int
    kind: FaultKind
    ply: int
    detail: str


@dataclass(frozen=True, slots=True)
class DecisionRecord:
    """One applied decision: who, what, how long the bot took (seconds), and anything it reported.

    ``fallback`` is true where the referee chose for the seat after a fault. ``info`` is kept as
    :func:`arena.jsonable.jsonable` makes it, so every record can be written as strict JSON.
    ``cpu``: seconds of CPU all the bot's processes used for this decision (from its thaw, or its
    previous decision, to its reply); ``None`` where not measured (remote bots, bots without control
    groups).
    """

    seat: int
    action: int
    elapsed: float
    info: WireMap | None = None
    fallback: bool = False
    cpu: float | None = None

    def __post_init__(self) -> None:
        if self.info is not None:
            if not isinstance(self.info, Mapping):
                raise TypeError(f"info must be a map, not {type(self.info).__name__}")
            object.__setattr__(self, "info", jsonable_map(self.info))


@dataclass(frozen=True, slots=True)
class MatchRecord:
    """A finished match.

    ``bots[s]`` names the bot in seat ``s``. ``scores`` are the game's scores; ``ranks`` are the
    final places after forfeits (a forfeited seat ranks last, tied with other forfeited seats).
    ``void``: why the match was stopped by a host fault (see :mod:`arena.hostfault`), ``None`` for a
    match played to its end; a void match has no result (scores 0, ranks 1) and counts for nothing.
    """

    game: str
    version: int
    variant: str
    knobs: Mapping[str, KnobValue]
    seed: int
    bots: tuple[str, ...]
    decisions: tuple[DecisionRecord, ...]
    faults: tuple[Fault, ...]
    scores: tuple[int, ...]
    ranks: tuple[int, ...]
    forfeited: tuple[int, ...] = ()
    duration: float = 0.0
    detail: WireMap = field(default_factory=dict)
    void: str | None = None

    @property
    def players(self) -> int:
        """Number of seats."""
        return len(self.bots)

    @property
    def config(self) -> MatchConfig:
        """The engine setup this match was played under."""
        return MatchConfig(self.game, self.version, self.variant, self.players, dict(self.knobs))

    @property
    def flagged(self) -> bool:
        """Whether anything went wrong for any seat."""
        return bool(self.faults or self.forfeited)

    def to_wire(self) -> WireMap:
        """Plain data for storage: only maps, lists, strings and numbers. ``cpu`` (the CPU seconds
        of each decision) is there only when some decision's was measured, ``void`` only in a void
        match's."""
        wire: WireMap = {
            "game": self.game,
            "version": self.version,
            "variant": self.variant,
            "knobs": dict(self.knobs),
            "seed": self.seed,
            "bots": list(self.bots),
            "decisions": [
                [d.seat, d.action, d.elapsed, d.info, d.fallback] for d in self.decisions
            ],
            "faults": [[f.seat, f.kind.value, f.ply, f.detail] for f in self.faults],
            "scores": list(self.scores),
            "ranks": list(self.ranks),
            "forfeited": list(self.forfeited),
            "duration": self.duration,
            "detail": self.detail,
        }
        if any(d.cpu is not None for d in self.decisions):
            wire["cpu"] = [d.cpu for d in self.decisions]  # per decision, where measured
        if self.void is not None:
            wire["void"] = self.void
        return wire

    @classmethod
    def from_wire(cls, data: Mapping[str, Any]) -> MatchRecord:
        """Inverse of :meth:`to_wire`; raises ``KeyError``/``ValueError``/``TypeError`` on bad data."""
        decisions: list[DecisionRecord] = []
        cpu = data.get("cpu") or [None] * len(data["decisions"])
        for (seat, action, elapsed, info, fallback), used in zip(data["decisions"], cpu, strict=True):
            decisions.append(
                DecisionRecord(int(seat), int(action), float(elapsed), info, bool(fallback),
                               None if used is None else float(used))
            )
        faults = tuple(
            Fault(int(seat), FaultKind(kind), int(ply), str(detail))
            for seat, kind, ply, detail in data["faults"]
        )
        detail: dict[str, Wire] = dict(data.get("detail", {}))
        return cls(
            game=str(data["game"]),
            version=int(data["version"]),
            variant=str(data["variant"]),
            knobs=dict(data["knobs"]),
            seed=int(data["seed"]),
            bots=tuple(str(b) for b in data["bots"]),
            decisions=tuple(decisions),
            faults=faults,
            scores=tuple(int(s) for s in data["scores"]),
            ranks=tuple(int(r) for r in data["ranks"]),
            forfeited=tuple(int(s) for s in data["forfeited"]),
            duration=float(data["duration"]),
            detail=detail,
            void=None if data.get("void") is None else str(data["void"]),
        )
