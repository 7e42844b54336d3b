"""The Python bot SDK: write ``choose(observation, legal, clock) -> action`` and call :func:`run`.

:func:`run` connects to the referee (endpoint and token from ``--endpoint``/``--token``, from a
connection file given as ``--connect FILE``, or from the ``ARENA_ENDPOINT``/``ARENA_TOKEN``
environment variables, in that order; CURVE when ``ARENA_SERVER_KEY`` or ``--server-key`` gives the
referee's public key), says hello, then plays every match it is sent, answers pings, and returns 0
on ``bye``. Over ``tcp://`` the referee pings an idle bot every few seconds; a bot that hears
nothing for ``--give-up`` seconds (default :data:`GIVE_UP`) gives up, or with ``--reconnect``
connects afresh and says hello again (the new connection replaces the old). Each decision's
:class:`Clock` says what the referee charges (elapsed or CPU time) and how much this decision has
used; :func:`node_budget` reads the organiser's node budget (``ARENA_NODES``).

A bot that draws at random draws from :func:`match_random`, a generator seeded from the match's
``start.seed`` (and ``ARENA_SEED``), never from one stream for the whole process: then a match
plays the same whatever the process played before it, so a resumed or redistributed tournament
plays the games of an uninterrupted one. :func:`run_matches` builds a fresh ``choose`` per match
for that. Example::

    from arena_bot.sdk import match_random, run_matches

    def new_match(start):
        rng = match_random(start)

        def choose(observation, legal, clock):
            return rng.choice(legal)

        return choose

    raise SystemExit(run_matches(new_match, name="my-bot"))
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import zmq

from arena_bot.codec import decode, encode
from arena_bot.delta import merge
from arena_bot.errors import ProtocolError
from arena_bot.messages import (
    ENV_ENDPOINT,
    ENV_NODES,
    ENV_SEED,
    ENV_SERVER_KEY,
    ENV_TOKEN,
    OLDEST_PROTOCOL_VERSION,
    PROTOCOL_VERSION,
    Act,
    Action,
    Bye,
    ClockMs,
    End,
    Error,
    Hello,
    Message,
    Ping,
    Pong,
    Start,
    Welcome,
)
from arena_bot.seeds import derive_seed
from arena_bot.wire_types import WireMap

if sys.platform != "win32":
    import resource

#: Seconds without a message from a ``tcp://`` referee after which the bot gives up (or reconnects).
GIVE_UP = 30.0


def clock_reading(kind: str) -> float:
    """Seconds on the clock of ``kind`` (``start.clock_kind``): the process's CPU time for ``"cpu"``
    (:func:`cpu_time`), ``time.monotonic()`` for ``"wall"``."""
    return cpu_time() if kind == "cpu" else time.monotonic()


def cpu_time() -> float:
    """The CPU seconds of this process, all its threads, to the microsecond.

    Read with ``getrusage`` rather than ``time.process_time()``: once a process has a CPU-time limit
    (``RLIMIT_CPU``, which the arena sets on every bot it starts), Linux answers the process CPU
    clock from the counter it keeps for that limit, which moves only at scheduler ticks (4 ms at
    250 Hz), too coarse to budget a 20 ms move by; ``getrusage`` adds up the threads' exact times.
    """
    if sys.platform == "win32":
        return time.process_time()
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


@dataclass(frozen=True, slots=True)
class Clock:
    """A seat's clock for one decision, in seconds.

    The reply must arrive within ``move + bank`` seconds of the ``act`` being sent (the referee adds a
    small grace margin for the transport); time beyond ``move`` comes out of ``bank``, and
    ``increment`` is added to the bank after every decision. ``kind`` is what the referee charges
    (``"wall"`` or ``"cpu"``, from ``start``); ``received`` is the reading of that clock
    (:func:`clock_reading`) from which the decision is charged: when the ``act`` arrived under a
    wall clock; under a CPU clock, as the referee charges it, when the previous reply was sent (for
    the first decision of a match, when the ``start`` arrived), so that what the process ran in
    between (a garbage collection, answering pings) counts too. ``overhead`` is the seconds that
    clock ran, at the previous decision, outside ``choose`` (decoding the ``act``, encoding and
    sending the reply, and under a CPU clock whatever ran before the ``act``): 0 before the first.
    """

    move: float
    bank: float
    increment: float
    kind: str = "wall"
    received: float = 0.0
    overhead: float = 0.0

    @property
    def budget(self) -> float:
        """Seconds this decision may take."""
        return self.move + self.bank

    def spent(self) -> float:
        """Seconds this decision has used so far on its clock (since :attr:`received`)."""
        return clock_reading(self.kind) - self.received

    @classmethod
    def from_wire(
        cls, clock: ClockMs, kind: str = "wall", received: float = 0.0, overhead: float = 0.0
    ) -> Clock:
        """Convert the wire's milliseconds."""
        seconds = (clock.move_ms / 1000, clock.bank_ms / 1000, clock.increment_ms / 1000)
        return cls(*seconds, kind, received, overhead)


def node_budget() -> int | None:
    """The node budget in ``ARENA_NODES`` (a positive whole number), ``None`` when it is unset.

    Raises :class:`BotExit` with a one-line reason when it is set to anything else.
    """
    text = os.environ.get(ENV_NODES)
    if text is None:
        return None
    try:
        nodes = int(text.strip())
    except ValueError:
        nodes = 0
    if nodes <= 0:
        raise BotExit(f"{ENV_NODES} must be a positive whole number, not {text!r}")
    return nodes


def match_seed(start: Start) -> int:
    """The seed of this bot's draws in the match ``start`` begins: ``start.seed`` (given per match
    and seat by the referee), combined with ``ARENA_SEED`` when that is set, so that entrants
    running the same program still draw differently."""
    extra = os.environ.get(ENV_SEED)
    return start.seed if extra is None else derive_seed(start.seed, extra)


def match_random(start: Start, *labels: str | int) -> random.Random:
    """A generator for the match ``start`` begins, seeded from :func:`match_seed`; ``labels`` name
    an independent stream of the same match (none: seeded with :func:`match_seed` itself). The
    same ``start`` gives the same draws in any process, whatever it played before."""
    seed = match_seed(start)
    return random.Random(derive_seed(seed, *labels) if labels else seed)


@dataclass(frozen=True, slots=True)
class Choice:
    """An action with free-form ``info`` (evaluation, nodes searched...) for the match record."""

    action: int
    info: WireMap | None = None


ChooseFn = Callable[[WireMap, tuple[int, ...], Clock], "int | Choice"]
#: Builds the ``choose`` of the match a ``start`` begins.
NewMatch = Callable[[Start], ChooseFn]
StartHook = Callable[[Start], None]
EndHook = Callable[[End], None]


class BotExit(Exception):
    """The bot cannot go on: bad arguments, a refused handshake, or a referee that never answered."""


def run(
    choose: ChooseFn,
    *,
    name: str,
    version: str = "0",
    on_start: StartHook | None = None,
    on_end: EndHook | None = None,
    argv: Sequence[str] | None = None,
    handshake_timeout: float = 30.0,
) -> int:
    """Play until the referee says ``bye``; the process exit status (0 on ``bye``, 2 bad setup, 1 refused).

    Over ``tcp://``, ``give_up`` (``--give-up``) also bounds the wait for ``welcome``.

    ``choose`` gets the seat's observation, the ascending legal ids and its :class:`Clock`, and
    returns an id from ``legal`` (or a :class:`Choice`). ``on_start`` sees each ``start`` (game,
    seat, seed, action table, time control) and ``on_end`` each ``end``. Exceptions from these
    functions are not caught: the process dies and the referee records a crash.
    """
    try:
        settings = _settings(argv)
    except BotExit as exc:
        print(f"{name}: {exc}", file=sys.stderr)
        return 2
    hello = Hello(settings.protocol, name, version, settings.token)
    context = zmq.Context()
    try:
        while True:
            socket = _connect(context, settings)
            try:
                protocol = _handshake(socket, hello, settings.give_up or handshake_timeout)
                if _serve(socket, protocol, choose, on_start, on_end, settings.give_up):
                    return 0
            finally:
                socket.close(linger=0)
            if not settings.reconnect:
                raise BotExit(f"nothing from the referee for {settings.give_up:g} s; giving up")
            print(f"{name}: nothing from the referee for {settings.give_up:g} s; reconnecting",
                  file=sys.stderr)
    except BotExit as exc:
        print(f"{name}: {exc}", file=sys.stderr)
        return 1
    finally:
        context.term()


def run_matches(
    new_match: NewMatch,
    *,
    name: str,
    version: str = "0",
    on_end: EndHook | None = None,
    argv: Sequence[str] | None = None,
    handshake_timeout: float = 30.0,
) -> int:
    """:func:`run` with a fresh ``choose`` per match: ``new_match(start)`` on every ``start``, so
    nothing (a generator from :func:`match_random`, memory of the match) outlives its match.
    An ``act`` before any ``start`` ends the bot (exit status 1)."""
    current: list[ChooseFn] = []

    def on_start(start: Start) -> None:
        current[:] = [new_match(start)]

    def choose(observation: WireMap, legal: tuple[int, ...], clock: Clock) -> int | Choice:
        if not current:
            raise BotExit("an act came before any start")
        return current[0](observation, legal, clock)

    return run(choose, name=name, version=version, on_start=on_start, on_end=on_end, argv=argv,
               handshake_timeout=handshake_timeout)


@dataclass(frozen=True, slots=True)
class Settings:
    """Where and how to connect: endpoint, token, the referee's CURVE key (``""``: none), the
    seconds of silence before giving up (``None``: never), whether to reconnect then, and the
    newest protocol version to speak."""

    endpoint: str
    token: str
    server_key: str
    give_up: float | None
    reconnect: bool
    protocol: int = PROTOCOL_VERSION


def read_connection_file(path: Path) -> dict[str, str]:
    """The ``NAME=VALUE`` lines of a connection file (blank lines and ``#`` comments skipped);
    raises :class:`BotExit` if it cannot be read or a line is not of that form."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise BotExit(f"cannot read the connection file {path}: {exc}") from None
    values: dict[str, str] = {}
    for number, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        key, sep, value = line.partition("=")
        if not sep or not key.strip():
            raise BotExit(f"{path}:{number}: expected NAME=VALUE")
        values[key.strip()] = value.strip()
    return values


def _settings(argv: Sequence[str] | None) -> Settings:
    parser = argparse.ArgumentParser(description="A bot for the arena protocol.")
    parser.add_argument("--endpoint")
    parser.add_argument("--token")
    parser.add_argument("--server-key")
    parser.add_argument("--connect", type=Path, help="a connection file (NAME=VALUE lines)")
    parser.add_argument("--give-up", type=float, default=GIVE_UP,
                        help="seconds of silence from a tcp:// referee before giving up (0: never)")
    parser.add_argument("--reconnect", action="store_true",
                        help="after that silence, connect again instead of exiting")
    parser.add_argument("--protocol", type=int, default=PROTOCOL_VERSION,
                        help=f"the newest protocol version to speak (default {PROTOCOL_VERSION}; "
                             "1: every act carries the whole observation)")
    args, _unknown = parser.parse_known_args(argv)
    found = read_connection_file(args.connect) if args.connect is not None else {}
    for key in (ENV_ENDPOINT, ENV_TOKEN, ENV_SERVER_KEY):
        if key not in found and key in os.environ:
            found[key] = os.environ[key]
    endpoint = args.endpoint or found.get(ENV_ENDPOINT)
    token = args.token or found.get(ENV_TOKEN)
    if not endpoint:
        raise BotExit(f"no referee endpoint: pass --endpoint or --connect, or set {ENV_ENDPOINT}")
    if not token:
        raise BotExit(f"no token: pass --token or --connect, or set {ENV_TOKEN}")
    if args.give_up < 0:
        raise BotExit("--give-up cannot be negative")
    if not OLDEST_PROTOCOL_VERSION <= args.protocol <= PROTOCOL_VERSION:
        raise BotExit(f"--protocol must be {OLDEST_PROTOCOL_VERSION} to {PROTOCOL_VERSION}")
    give_up = args.give_up if args.give_up > 0 and endpoint.startswith("tcp://") else None
    server_key = args.server_key or found.get(ENV_SERVER_KEY, "")
    return Settings(endpoint, token, server_key, give_up, bool(args.reconnect), args.protocol)


def _connect(context: zmq.Context[zmq.Socket[bytes]], settings: Settings) -> zmq.Socket[bytes]:
    """A DEALER socket connecting to the referee (a CURVE client when there is a server key)."""
    socket = context.socket(zmq.DEALER)
    socket.setsockopt(zmq.LINGER, 0)
    if settings.server_key:
        public, secret = zmq.curve_keypair()
        try:
            socket.curve_serverkey = settings.server_key.encode()
        except zmq.ZMQError:
            socket.close(linger=0)
            raise BotExit(f"{ENV_SERVER_KEY} is not a CURVE key (40 Z85 characters)") from None
        socket.curve_publickey = public
        socket.curve_secretkey = secret
    try:
        socket.connect(settings.endpoint)
    except zmq.ZMQError as exc:
        socket.close(linger=0)
        raise BotExit(f"cannot connect to {settings.endpoint}: {exc.strerror}") from None
    return socket


def _handshake(socket: zmq.Socket[bytes], hello: Hello, timeout: float) -> int:
    """Say hello and read the welcome; the protocol version agreed."""
    socket.send(encode(hello))
    if not socket.poll(int(timeout * 1000), zmq.POLLIN):
        raise BotExit(f"no welcome from the referee within {timeout:g} s")
    reply = _receive(socket)
    if isinstance(reply, Error):
        raise BotExit(f"refused by the referee: {reply.message}")
    if not isinstance(reply, Welcome):
        raise BotExit(f"expected welcome, got {reply!r}")
    if not OLDEST_PROTOCOL_VERSION <= reply.protocol <= hello.protocol:
        raise BotExit(f"the referee speaks protocol version {reply.protocol}, this SDK "
                      f"{OLDEST_PROTOCOL_VERSION} to {hello.protocol}")
    return reply.protocol


def _serve(
    socket: zmq.Socket[bytes],
    protocol: int,
    choose: ChooseFn,
    on_start: StartHook | None,
    on_end: EndHook | None,
    give_up: float | None,
) -> bool:
    """Play until ``bye`` (``True``) or ``give_up`` seconds without a message (``False``).

    Under ``protocol`` 2 each ``act`` carries what changed; ``choose`` gets the whole observation.
    """
    kind = "wall"  # until a start says otherwise
    observation: WireMap = {}
    overhead = 0.0
    # The CPU reading from which the referee charges the next decision under a CPU clock: the
    # start's arrival, then each reply (what runs between a reply and the next act is charged too).
    charged_from = 0.0
    poller = zmq.Poller()
    poller.register(socket, zmq.POLLIN)
    wait = None if give_up is None else int(give_up * 1000)
    while True:
        # Without a give-up time, the receive below waits by itself.
        if wait is not None and not poller.poll(wait):
            return False
        frame = socket.recv()
        arrived = clock_reading(kind)
        try:
            message = _decode(frame)
        except BotExit as exc:
            print(f"ignored: {exc}", file=sys.stderr)
            continue
        if isinstance(message, Act):
            received = charged_from if kind == "cpu" else arrived
            clock = Clock.from_wire(message.clock, kind, received, overhead)
            before = clock_reading(kind)
            if protocol >= 2:
                observation = merge(observation, message.observation, message.gone)
            else:
                observation = message.observation
            chosen = choose(observation, message.legal, clock)
            after = clock_reading(kind)
            reply = chosen if isinstance(chosen, Choice) else Choice(chosen)
            socket.send(encode(Action(message.seq, reply.action, message.seat, reply.info)))
            charged_from = clock_reading(kind)
            overhead = charged_from - after + before - received
        elif isinstance(message, Ping):
            socket.send(encode(Pong(message.seq)))
        elif isinstance(message, Start):
            kind, observation = message.clock_kind, {}
            charged_from = clock_reading(kind)
            if on_start is not None:
                on_start(message)
        elif isinstance(message, End):
            if on_end is not None:
                on_end(message)
        elif isinstance(message, Bye):
            return True
        else:
            print(f"ignored an unexpected {type(message).__name__}", file=sys.stderr)


def _receive(socket: zmq.Socket[bytes]) -> Message:
    return _decode(socket.recv())


def _decode(frame: bytes) -> Message:
    try:
        return decode(frame)
    except ProtocolError as exc:
        raise BotExit(f"malformed message from the referee: {exc}") from None
