"""Every message of the protocol as a frozen dataclass (see ``protocols/SPEC.md`` in the Arena repository).

Times on the wire are whole milliseconds; :class:`ClockMs` carries them unconverted.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeAlias

from arena_bot.wire_types import Wire, WireMap

#: The newest protocol version this package speaks; ``hello`` and ``welcome`` carry versions.
PROTOCOL_VERSION = 2
#: The oldest version the referee still speaks (SPEC.md §7): version 1 sends whole observations.
OLDEST_PROTOCOL_VERSION = 1

#: Environment variables a started bot reads (see SPEC.md, "Transport").
ENV_ENDPOINT = "ARENA_ENDPOINT"
ENV_TOKEN = "ARENA_TOKEN"
ENV_SERVER_KEY = "ARENA_SERVER_KEY"
#: The node budget a bot may be given (see SPEC.md, "Transport"): search a fixed amount per decision.
ENV_NODES = "ARENA_NODES"
#: A bot's own seed (see SPEC.md, "Transport"), combined with each match's ``start.seed``.
ENV_SEED = "ARENA_SEED"

#: What a referee may charge a decision (``start.clock_kind``): elapsed time or the bot's CPU time.
CLOCK_KINDS = ("wall", "cpu")


@dataclass(frozen=True, slots=True)
class ClockMs:
    """A seat's clock in milliseconds.

    ``move_ms``: time per decision that never comes out of the bank; ``bank_ms``: the bank that
    pays for any time beyond ``move_ms``; ``increment_ms``: added to the bank after every decision.
    In ``start`` ``bank_ms`` is the initial bank; in ``act`` it is what remains.
    """

    move_ms: int
    bank_ms: int
    increment_ms: int


@dataclass(frozen=True, slots=True)
class Hello:
    """Bot → referee, first message: who the bot is and the token it was given."""

    protocol: int
    name: str
    version: str
    token: str


@dataclass(frozen=True, slots=True)
class Welcome:
    """Referee → bot: the handshake succeeded; ``server`` names the referee software."""

    protocol: int
    server: str


@dataclass(frozen=True, slots=True)
class Start:
    """Referee → bot: a match begins; the bot plays ``seat``. No reply."""

    match: str
    game: str
    version: int
    variant: str
    knobs: WireMap
    seat: int
    players: int
    seed: int
    actions: list[Wire]
    clock: ClockMs
    grace_ms: int
    clock_kind: str = "wall"
    """What the referee charges a decision: ``"wall"`` (elapsed time) or ``"cpu"`` (the bot's CPU time)."""


@dataclass(frozen=True, slots=True)
class Act:
    """Referee → bot: decide now; answer with :class:`Action` carrying the same ``seq``.

    In protocol version 1 ``observation`` is the seat's whole observation. In version 2 it holds
    only the entries that changed since the seat's previous ``act`` of the match (every entry in the
    first ``act`` after a ``start``), and ``gone`` names the entries removed since then
    (:func:`arena_bot.delta.merge` rebuilds the whole observation).
    """

    seq: int
    seat: int
    ply: int
    observation: WireMap
    legal: tuple[int, ...]
    events: list[Wire]
    clock: ClockMs
    gone: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Action:
    """Bot → referee: the chosen action id for the ``act`` numbered ``seq``.

    ``seat``, when given, must be the seat of that ``act``; ``info`` is free-form and logged.
    ``info_dropped``: on receipt, the packed size of an ``info`` the referee dropped as too large
    (never sent).
    """

    seq: int
    action: int
    seat: int | None = None
    info: WireMap | None = None
    info_dropped: int = 0


@dataclass(frozen=True, slots=True)
class End:
    """Referee → bot: the match is over. No reply; the bot waits for the next ``start`` or ``bye``."""

    match: str
    seat: int
    scores: tuple[int, ...]
    ranks: tuple[int, ...]
    forfeited: tuple[int, ...]
    events: list[Wire]


@dataclass(frozen=True, slots=True)
class Ping:
    """Referee → bot: answer with :class:`Pong` carrying the same ``seq``."""

    seq: int


@dataclass(frozen=True, slots=True)
class Pong:
    """Bot → referee: the answer to :class:`Ping`."""

    seq: int


@dataclass(frozen=True, slots=True)
class Bye:
    """Referee → bot: close the connection and exit with status 0."""

    reason: str = ""


@dataclass(frozen=True, slots=True)
class Error:
    """Either way: something was refused or cannot be done; ``seq`` names the request, if any."""

    message: str
    seq: int | None = None


Message: TypeAlias = Hello | Welcome | Start | Act | Action | End | Ping | Pong | Bye | Error

#: The ``type`` field of each message class.
TYPE_NAMES: dict[type[Message], str] = {
    Hello: "hello",
    Welcome: "welcome",
    Start: "start",
    Act: "act",
    Action: "action",
    End: "end",
    Ping: "ping",
    Pong: "pong",
    Bye: "bye",
    Error: "error",
}
