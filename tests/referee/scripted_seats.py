"""Scripted bots in threads, for the referee's judging tests: each answers every ``act`` as its
script says, over a real socket, and keeps what it was sent; it can also hang up, reconnect with
its token, or join late."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Union

import zmq

from arena.clock import TimeControl
from arena.handle import BotHandle
from arena.manifest import BotSpec
from arena.record import MatchRecord
from arena.referee import FaultPolicy, play_match
from arena_bot.delta import merge
from arena_bot.wire_types import WireMap
from engine.core import Game
from engine.registry import games
from protocols.codec import TRUSTED_LIMITS, decode, encode
from protocols.messages import Act, Action, Bye, End, Hello, Message, Ping, Pong, Start
from protocols.transport import Hub


@dataclass(frozen=True)
class Reconnect:
    """A step: close the connection (or leave it open and unread, with ``close=False``), wait
    ``after`` seconds, then connect anew and say hello with the same token."""

    after: float = 0.0
    close: bool = True


@dataclass(frozen=True)
class HangUp:
    """A step: close the connection and stop."""


#: What a script does for one ``act``: wait some seconds, send a message or raw bytes, or change
#: its connection.
Step = Union[float, Message, bytes, Reconnect, HangUp]
Script = Callable[[Act, int], Sequence[Step]]  # (the act, how many acts came before) → steps


#: In a step list of :func:`at`: the act's answer, and a ``pong`` with the act's ``seq``.
ANSWER = "answer"
PONG = "pong"
#: The seed of the matches :class:`Table` plays unless told.
SEED = 21


def prompt(act: Act, _: int) -> list[Step]:
    """The first legal action, at once."""
    return [Action(act.seq, act.legal[0])]


@dataclass
class ScriptedBot:
    """A bot in a thread on a DEALER socket connected to ``endpoint``, ``join_after`` seconds from
    now, saying hello with ``protocol``: answers each ``act`` as its script says and keeps every
    ``start``, ``act``, ``end`` and ``bye`` it receives, and each act's whole observation (rebuilt
    from the changes it carries in protocol 2); ``connections``: how many times it has said hello."""

    endpoint: str
    token: str
    script: Script = prompt
    join_after: float = 0.0
    protocol: int = 1
    starts: list[Start] = field(default_factory=list)
    acts: list[Act] = field(default_factory=list)
    ends: list[End] = field(default_factory=list)
    byes: list[Bye] = field(default_factory=list)
    observations: list[WireMap] = field(default_factory=list)
    connections: int = 0

    def __post_init__(self) -> None:
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def connect(self) -> zmq.Socket[bytes]:
        """A new connection that has said hello."""
        socket: zmq.Socket[bytes] = zmq.Context.instance().socket(zmq.DEALER)
        socket.setsockopt(zmq.LINGER, 0)
        socket.connect(self.endpoint)
        socket.send(encode(Hello(self.protocol, "scripted", "1", self.token)))
        self.connections += 1
        return socket

    def run(self) -> None:
        if self.stop.wait(self.join_after):
            return
        socket = self.connect()
        seen: WireMap | None = None  # the last act's whole observation since the last start
        left: list[zmq.Socket[bytes]] = []  # connections left open by a reconnection
        try:
            while not self.stop.is_set():
                if not socket.poll(50):
                    continue
                message = decode(socket.recv(), TRUSTED_LIMITS)
                if isinstance(message, Start):
                    self.starts.append(message)
                    seen = None
                elif isinstance(message, End):
                    self.ends.append(message)
                elif isinstance(message, Ping):
                    socket.send(encode(Pong(message.seq)))
                elif isinstance(message, Bye):
                    self.byes.append(message)
                    return
                elif isinstance(message, Act):
                    before = len(self.acts)
                    self.acts.append(message)
                    seen = message.observation if seen is None else merge(seen, message.observation,
                                                                          message.gone)
                    self.observations.append(seen)
                    for step in self.script(message, before):
                        if isinstance(step, float):
                            time.sleep(step)
                        elif isinstance(step, Reconnect):
                            if step.close:
                                socket.close()
                            else:
                                left.append(socket)
                            time.sleep(step.after)
                            socket = self.connect()
                        elif isinstance(step, HangUp):
                            return
                        elif isinstance(step, bytes):
                            socket.send(step)
                        else:
                            socket.send(encode(step))
        finally:
            for each in [socket, *left]:
                each.close()


@dataclass
class Seat:
    """One seat of a table: a scripted bot, local (its own ``ipc://`` endpoint) or remote
    (``tcp://``, may reconnect), connecting ``join_after`` seconds after the match is set up, or
    never (``None``), speaking ``protocol``; or a handle the test made (``handle``)."""

    script: Script = prompt
    remote: bool = True
    join_after: float | None = 0.0
    handle: BotHandle | None = None
    protocol: int = 1


def at(steps: dict[int, list[Step | str]]) -> Script:
    """A script that follows ``steps[n]`` at the seat's ``n``-th act and answers at once otherwise;
    in a step list :data:`ANSWER` stands for the act's answer and :data:`PONG` for a ``pong``
    with its ``seq``."""

    def script(act: Act, before: int) -> list[Step]:
        if before not in steps:
            return prompt(act, before)
        marks: dict[str, Step] = {ANSWER: Action(act.seq, act.legal[0]), PONG: Pong(act.seq)}
        return [marks[s] if isinstance(s, str) else s for s in steps[before]]

    return script


@dataclass
class Table:
    """A hub with a local ``ipc://`` endpoint and a remote ``tcp://`` one, and the bots of the
    match played on it."""

    hub: Hub
    bots: dict[int, ScriptedBot] = field(default_factory=dict)
    handles: list[BotHandle] = field(default_factory=list)

    def seat(self, seats: list[Seat]) -> list[BotHandle]:
        seats = seats + [Seat()] * (3 - len(seats))
        handles = []
        for number, seat in enumerate(seats):
            if seat.handle is not None:
                handles.append(seat.handle)
                continue
            peer = self.hub.expect(f"seat{number}", remote=seat.remote)
            handle = BotHandle(BotSpec(f"seat{number}", ("scripted",)), self.hub, peer)
            handles.append(handle)
            if seat.join_after is not None:
                endpoint = self.hub.listening if seat.remote else peer.endpoint
                assert endpoint is not None
                self.bots[number] = ScriptedBot(endpoint, peer.token, seat.script, seat.join_after,
                                                seat.protocol)
        now = [h.peer for h, s in zip(handles, seats) if s.handle is None and s.join_after == 0.0]
        assert self.hub.wait_connected(now, 10) == []
        self.handles = handles
        return handles

    def play(self, game: Game, control: TimeControl, seats: list[Seat] | None = None, *,
             strikes: int = 3, last: bool = True, match_id: str = "m-1", seed: int = SEED,
             **options: Any) -> MatchRecord:
        """Play a match (on the seats of the one before when ``seats`` is ``None``); after the
        ``last``, say ``bye`` to every bot and wait until each has read everything before it."""
        handles = self.handles if seats is None else self.seat(seats)
        record = play_match(game, game.configure(3), seed, handles, control, FaultPolicy(strikes),
                            match_id=match_id, **options)
        if last:
            for handle in handles:
                handle.say_bye()
            for bot in self.bots.values():
                bot.thread.join(5)
        return record


@contextmanager
def table_on_hub() -> Iterator[Table]:
    """A :class:`Table` on a fresh hub; every handle closed and every bot stopped on leaving."""
    with Hub(listen="tcp://127.0.0.1:*") as hub:
        seated = Table(hub)
        try:
            yield seated
        finally:
            for handle in seated.handles:
                handle.close(grace=0.2)
    for bot in seated.bots.values():
        bot.stop.set()
        bot.thread.join(5)


def simultaneous_game() -> Game:
    """Waroong Wars for three: its first rounds are simultaneous for all seats (plies 0-2, 3-5, ...)."""
    return next(g for g in games().values() if g.min_players == 3 and g.name == "waroong")


def referee_log(records: Sequence[logging.LogRecord]) -> list[str]:
    """The referee's log messages among ``records`` (``caplog.records``)."""
    return [r.getMessage() for r in records if r.name == "arena.referee"]
