"""The referee's side of the wire: one ROUTER socket, bots known by token.

A :class:`Hub` binds a ROUTER socket (``ipc://`` in a private temporary directory by default, or any
``tcp://`` endpoint for remote bots, optionally CURVE-encrypted). The caller announces each bot it
expects with :meth:`Hub.expect`, which returns a :class:`Peer` holding a fresh token; the hub answers
``hello`` itself (``welcome``, or ``error`` for a wrong token or version) and hands every later
message to the caller tagged with its peer. A hub belongs to one thread (ZeroMQ sockets are not
thread-safe); run one hub per thread to play matches in parallel.

Nothing a peer sends can make the hub buffer without bound, or work for long (SPEC.md §2):

* libzmq drops a frame larger than :data:`OVERSIZE_FACTOR` times the codec's frame limit (64 KiB
  from bots by default) and closes that connection; at most :data:`QUEUE_FRAMES` frames wait per
  connection in each direction (a send to a peer that does not read fails as :class:`PeerGone`).
* Authentication comes before decoding: a sender that has not said hello may send one small frame
  (at most :data:`HELLO_LIMIT` bytes); anything larger, undecodable or not a ``hello`` is dropped
  without being decoded, and after :data:`STRANGER_STRIKES` such frames its connection is ignored.
* A connected peer's frames are decoded only while it has an ``act`` or ``ping`` outstanding (sent
  with :meth:`Hub.send`, or a keepalive ping, whose answer may be at most :data:`HELLO_LIMIT`
  bytes; ended by a reply with its ``seq`` or :meth:`Hub.settle`); a frame whose
  first bytes alone show another ``seq`` or none is dropped there, and at most
  :data:`DECODES_PER_REQUEST` frames are decoded per request; anything else is dropped undecoded
  and counted.
* Every frame is stamped with the time it was taken off the socket, and pending frames are taken
  off (cheaply, undecoded) before any is decoded, so a hub busy with one peer's junk never delays
  the arrival time of another peer's reply.
* On ``tcp://`` endpoints, connections that have not said hello with a valid token are few and
  short-lived: a :class:`~protocols.guard.ConnectionGuard` sheds them when late and beyond caps
  per address and in all (:class:`~protocols.guard.ConnectionCaps`), so that a flood of
  connections cannot take the referee's descriptors; connections that said hello are never shed.

A peer whose connection closes is marked ``lost``: the hub learns it from the socket's monitor,
and from any later frame arriving on the same file descriptor under a new identity (libzmq
reconnects a dropped DEALER under a new identity, which has not said hello).

On an ``ipc://`` hub every expected peer also gets an endpoint of its own (:attr:`Peer.endpoint`)
in a folder of its own, mode 0700, so that a sandbox can let a bot reach its own socket and no
other. An ``ipc://`` hub may also listen on a ``tcp://`` endpoint for remote bots (``listen``);
CURVE then applies to that endpoint only. Every screening rule above holds on both.

Remote peers (``expect(..., remote=True)``: bots that connect from elsewhere, by themselves) may
reconnect with their token: a ``hello`` from a new connection replaces the old one (which is sent
``bye``), and :attr:`Peer.connections` counts the handshakes, so a referee can tell that a seat
needs its ``start`` again. Whenever the hub is receiving, it pings each connected remote peer
that has nothing outstanding and has not been heard from for :data:`PING_EVERY` seconds; its
``pong`` is taken by the hub (never returned), and a peer that misses :data:`PINGS_MISSED` pings
in a row is marked lost.

Hosting a remote bot with encryption (the bot's side is in SPEC.md §1)::

    keys = CurveKeys.generate()
    with Hub(listen="tcp://0.0.0.0:5555", curve=keys) as hub:
        peer = hub.expect("visitor", remote=True)
        # give the bot's owner: the endpoint, peer.token and keys.public (ARENA_SERVER_KEY)
        missing = hub.wait_connected([peer], timeout=300)
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import os
import secrets
import shutil
import struct
import tempfile
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import cast

import zmq

from protocols.codec import DEFAULT_LIMITS, Limits, decode, encode, may_answer
from protocols.errors import PeerGone, ProtocolError
from protocols.guard import ConnectionCaps, ConnectionGuard, raise_open_files_limit
from protocols.messages import (
    OLDEST_PROTOCOL_VERSION,
    PROTOCOL_VERSION,
    Act,
    Action,
    Bye,
    Error,
    Hello,
    Message,
    Ping,
    Pong,
    Welcome,
)

log = logging.getLogger(__name__)

# ZeroMQ's flags as plain integers: combining its enum members costs Python calls on every message.
_NOBLOCK = int(zmq.NOBLOCK)
_NOBLOCK_MORE = int(zmq.NOBLOCK | zmq.SNDMORE)
_EVENTS = int(zmq.EVENTS)
_POLLIN = int(zmq.POLLIN)
_ACCEPTED = int(zmq.EVENT_ACCEPTED)
_MONITOR_EVENT = struct.Struct("=Hi")

#: Frames that may wait per connection, in each direction.
QUEUE_FRAMES = 64
#: libzmq drops frames above this many times the codec's frame limit and disconnects the sender;
#: frames between the two limits reach the codec and are reported as malformed.
OVERSIZE_FACTOR = 2
#: Frames refused from senders that have not said hello are logged one by one up to this many;
#: beyond, they are only counted.
REFUSALS_LOGGED = 20
#: Frames dropped from one peer that are logged one by one; beyond, they are only counted.
DROPS_LOGGED = 5
#: Bytes of the one frame a sender that has not said hello may send (a ``hello``): a hello with the
#: longest name and version allowed (64 characters each, up to 4 bytes a character) takes under 600.
HELLO_LIMIT = 1024
#: Refused frames from one connection that has not said hello, after which it is ignored.
STRANGER_STRIKES = 3
#: Connections remembered as ignored (the oldest are forgotten first).
IGNORED_KEPT = 4096
#: Frames from one peer decoded per outstanding request; the rest are dropped undecoded.
DECODES_PER_REQUEST = 4
#: Frames taken off the socket (undecoded) in one go.
DRAIN_BATCH = 256
#: Connection events handled in one go (a few milliseconds' work at most).
EVENTS_BATCH = 64
#: Longest a name or version in ``hello`` may be, in characters.
NAME_LIMIT = 64
#: Seconds of silence after which the hub pings an idle remote peer.
PING_EVERY = 5.0
#: Keepalive pings a remote peer may leave unanswered in a row before it is marked lost.
PINGS_MISSED = 3
#: TCP keepalive for remote connections: idle seconds before the first probe, and between probes.
TCP_KEEPALIVE_IDLE = 30
TCP_KEEPALIVE_INTERVAL = 10
#: Connections the kernel may queue for a ``tcp://`` endpoint before they are accepted (it may
#: allow fewer: ``net.core.somaxconn``).
ACCEPT_BACKLOG = 1024
#: libzmq's own handshake interval (milliseconds), kept for ``ipc://`` endpoints.
HANDSHAKE_DEFAULT_MS = 30_000
#: Limits for a ``hello`` from a sender not yet known.
_HELLO_LIMITS = Limits(max_frame=HELLO_LIMIT, max_depth=2, max_items=16, max_string=HELLO_LIMIT)


@dataclass(frozen=True, slots=True)
class CurveKeys:
    """A CURVE key pair, Z85-encoded (40 bytes each), as ``zmq.curve_keypair()`` makes them."""

    public: bytes
    secret: bytes

    @classmethod
    def generate(cls) -> CurveKeys:
        """A fresh key pair; raises :class:`ProtocolError` if libzmq lacks CURVE support."""
        if not zmq.has("curve"):
            raise ProtocolError("this libzmq was built without CURVE support")
        public, secret = zmq.curve_keypair()
        return cls(public, secret)


@dataclass(eq=False)
class Peer:
    """One expected bot: its token, a label for logs, and what its ``hello`` said once connected.

    ``endpoint``: where this bot connects (its own on an ``ipc://`` hub); ``awaiting``: the ``seq``
    of its outstanding ``act`` or ``ping``, if any; ``dropped``: its frames dropped (nearly all
    unread); ``wrong_seq``: the ``seq`` awaited when a frame of it carrying another (or none) was
    first dropped.
    """

    token: str = field(repr=False)
    label: str
    endpoint: str = ""
    identity: bytes | None = None
    name: str = ""
    version: str = ""
    #: The protocol version agreed in the handshake (SPEC.md §7).
    protocol: int = PROTOCOL_VERSION
    lost: bool = False
    connected_at: float = field(default=0.0, repr=False)
    fd: int | None = field(default=None, repr=False)
    awaiting: int | None = field(default=None, repr=False)
    answer: type[Action] | type[Pong] = field(default=Action, repr=False)
    asked_at: float = field(default=0.0, repr=False)
    decodes_left: int = field(default=0, repr=False)
    dropped: int = 0
    wrong_seq: int | None = None
    #: May reconnect (a new ``hello`` replaces the connection) and is pinged while idle.
    remote: bool = False
    #: Handshakes accepted with this token so far (each reconnection adds one).
    connections: int = 0
    heard_at: float = field(default=0.0, repr=False)
    pinged: int | None = field(default=None, repr=False)
    pinged_at: float = field(default=0.0, repr=False)
    ping_decodes: int = field(default=0, repr=False)
    missed: int = field(default=0, repr=False)

    @property
    def connected(self) -> bool:
        """Whether the bot completed the handshake and has not been lost since."""
        return self.identity is not None and not self.lost


@dataclass(frozen=True, slots=True)
class Incoming:
    """One frame from a connected peer: the decoded ``message``, or the ``error`` that decoding
    raised, and ``arrived``, when it was taken off the socket (``time.monotonic()``)."""

    peer: Peer
    message: Message | None
    error: ProtocolError | None = None
    arrived: float = 0.0


@dataclass(frozen=True, slots=True)
class _Frame:
    """A message as taken off the socket: routing identity, its frames, descriptor, arrival."""

    identity: bytes
    parts: list[bytes]
    fd: int
    arrived: float
    keepalive: bool = False


def _digest(token: str) -> bytes:
    """What peers are filed under, so that finding one takes no time that depends on the token."""
    return hashlib.blake2b(token.encode(), digest_size=16).digest()


class Hub:
    """A bound ROUTER socket and the peers allowed to talk to it. A context manager; close is idempotent."""

    def __init__(
        self,
        endpoint: str | None = None,
        *,
        curve: CurveKeys | None = None,
        limits: Limits = DEFAULT_LIMITS,
        server: str = "arena",
        listen: str | None = None,
        caps: ConnectionCaps = ConnectionCaps(),
    ) -> None:
        """Bind ``endpoint`` (a private ``ipc://`` folder by default) and, with ``listen``, also a
        ``tcp://`` endpoint for remote bots. ``curve`` encrypts ``listen`` where it is given, else
        ``endpoint``. ``caps`` bound the connections of ``tcp://`` endpoints (see
        :mod:`protocols.guard`); before binding one, the hub raises the process's soft descriptor
        limit to the hard one. Raises :class:`ProtocolError` if an endpoint cannot be bound."""
        self._limits = limits
        self._server = server
        self._peers_by_digest: dict[bytes, Peer] = {}
        self._peers_by_identity: dict[bytes, Peer] = {}
        self._peers_by_fd: dict[int, Peer] = {}
        self._private: dict[int, str] = {}  # id(peer) → its own ipc folder
        self._remote: dict[int, Peer] = {}  # id(peer) → the remote peers, pinged while idle
        self._strikes: OrderedDict[bytes, int] = OrderedDict()  # senders not yet known
        self._queue: deque[_Frame] = deque()
        self._seq = 0
        self._tmpdir: str | None = None
        #: Frames refused because their sender had not said hello (or was refused).
        self.refused = 0
        #: Why ``hello`` was refused, the first :data:`REFUSALS_LOGGED` times.
        self.refused_hellos: list[str] = []
        #: Frames from connected peers dropped by the hub, most of them undecoded: frames nothing
        #: was asked for, frames beyond a request's decoding allowance, second hellos.
        self.dropped = 0
        self.curve_public: bytes | None = curve.public if curve else None
        self._curve_local = curve is not None and listen is None
        #: The ``tcp://`` endpoint remote bots connect to (the bound one, port resolved), if any.
        self.listening: str | None = None
        #: Called before a ``hello`` with an unknown token is refused, to :meth:`expect` tokens
        #: issued meanwhile elsewhere (a tournament's invitations); it must be cheap when nothing
        #: changed, since strangers can trigger it.
        self.refresh_tokens: Callable[[], object] | None = None
        self._caps = caps
        #: Counts the tcp connections and sheds those the caps do not allow.
        self.guard = ConnectionGuard(caps)
        self._context = zmq.Context()
        self._socket = self._context.socket(zmq.ROUTER)
        try:
            self._socket.setsockopt(zmq.LINGER, 0)
            self._socket.setsockopt(zmq.ROUTER_MANDATORY, 1)
            # Beyond the codec's limit (so a slightly oversized frame is reported as malformed),
            # but bounded so that a hostile peer cannot make the socket allocate without limit.
            self._socket.setsockopt(zmq.MAXMSGSIZE, OVERSIZE_FACTOR * limits.max_frame)
            self._socket.setsockopt(zmq.RCVHWM, QUEUE_FRAMES)
            self._socket.setsockopt(zmq.SNDHWM, QUEUE_FRAMES)
            self._monitor = self._watch_connections()
            self._poller = zmq.Poller()
            self._poller.register(self._socket, zmq.POLLIN)
            self._poller.register(self._monitor, zmq.POLLIN)
            if endpoint is None or endpoint.startswith("tcp://"):
                self._socket.setsockopt(zmq.TCP_KEEPALIVE, 1)
                self._socket.setsockopt(zmq.TCP_KEEPALIVE_IDLE, TCP_KEEPALIVE_IDLE)
                self._socket.setsockopt(zmq.TCP_KEEPALIVE_INTVL, TCP_KEEPALIVE_INTERVAL)
            if curve is not None and listen is None:
                self._curve(curve)
            if endpoint is None:
                self._tmpdir = tempfile.mkdtemp(prefix="arena-hub-")
                # Traversable, not listable: each bot's own folder inside has its own owner.
                os.chmod(self._tmpdir, 0o711)
                endpoint = f"ipc://{os.path.join(self._tmpdir, 'hub.sock')}"
            self.endpoint: str = self._bind(endpoint)
            if endpoint.startswith("tcp://"):
                self.listening = self.endpoint
            if listen is not None:
                endpoint = listen
                if not listen.startswith("tcp://"):
                    raise zmq.ZMQError(msg="only tcp:// endpoints can be listened on")
                if curve is not None:
                    self._curve(curve)
                self.listening = self._bind(listen)
                # Later binds (each local bot's own ipc endpoint) are not encrypted.
                self._socket.curve_server = False
        except zmq.ZMQError as exc:
            self.close()
            raise ProtocolError(f"cannot bind {endpoint}: {exc.strerror}") from None
        self._closed = False
        log.debug("hub bound at %s", self.endpoint)

    def _watch_connections(self) -> zmq.Socket[bytes]:
        """The socket's monitor, reporting each connection accepted and closed. Its queue has
        no limit, so that no event is lost however many connections come at once (it is
        read whenever the hub receives)."""
        address = f"inproc://hub-monitor-{id(self)}"
        self._socket.monitor(address, zmq.EVENT_ACCEPTED | zmq.EVENT_DISCONNECTED)
        monitor: zmq.Socket[bytes] = self._context.socket(zmq.PAIR)
        monitor.setsockopt(zmq.RCVHWM, 0)
        monitor.setsockopt(zmq.LINGER, 0)
        monitor.connect(address)
        return monitor

    def _bind(self, endpoint: str) -> str:
        """Bind ``endpoint``; the bound one (its port resolved). A ``tcp://`` endpoint is guarded:
        the descriptor limit is raised first, and libzmq closes connections that have not
        finished their handshake within the caps' ``hello_within``."""
        if not endpoint.startswith("tcp://"):
            self._socket.bind(endpoint)
            return self._socket.getsockopt_string(zmq.LAST_ENDPOINT)
        self.guard.budget = self._caps.budget(raise_open_files_limit())
        self._socket.setsockopt(zmq.HANDSHAKE_IVL, int(self._caps.hello_within * 1000))
        # Connections waiting to be accepted cost no descriptor; a burst that overflows the
        # queue would make the kernel drop connection attempts, a bot's among them (which retries
        # only after a second or more).
        self._socket.setsockopt(zmq.BACKLOG, ACCEPT_BACKLOG)
        try:
            self._socket.bind(endpoint)
        finally:  # binds that follow (each local bot's own ipc endpoint) keep libzmq's default
            self._socket.setsockopt(zmq.HANDSHAKE_IVL, HANDSHAKE_DEFAULT_MS)
        bound = self._socket.getsockopt_string(zmq.LAST_ENDPOINT)
        self.guard.ports.add(int(bound.rsplit(":", 1)[1]))
        return bound

    def _curve(self, keys: CurveKeys) -> None:
        """Make the binds that follow CURVE servers with ``keys``."""
        self._socket.curve_secretkey = keys.secret
        self._socket.curve_publickey = keys.public
        self._socket.curve_server = True

    def __enter__(self) -> Hub:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Close the socket and remove the ipc directory. Safe to call more than once."""
        if getattr(self, "_closed", False):
            return
        self._closed = True
        if hasattr(self, "_monitor"):
            self._socket.disable_monitor()
            self._monitor.close(linger=0)
        self._socket.close(linger=0)
        self._context.term()
        if self._tmpdir is not None:
            shutil.rmtree(self._tmpdir, ignore_errors=True)

    def expect(self, label: str, token: str | None = None, *, remote: bool = False) -> Peer:
        """Allow one bot to connect with ``token`` (a fresh random 128-bit one by default).

        A ``remote`` peer connects to :attr:`listening`, may reconnect, and is pinged while idle
        (:class:`ProtocolError` if the hub listens on no ``tcp://`` endpoint). Otherwise, on an
        ``ipc://`` hub the peer gets an endpoint of its own; raises :class:`ProtocolError` if it
        cannot be bound.
        """
        token = token or secrets.token_hex(16)
        digest = _digest(token)
        if digest in self._peers_by_digest:
            raise ValueError(f"token for {label!r} is already expected")
        if remote and self.listening is None:
            raise ProtocolError(f"{label} is remote, but this hub listens on no tcp:// endpoint")
        peer = Peer(token, label, self.endpoint, remote=remote)
        if remote:
            peer.endpoint = self.listening or self.endpoint
        elif self._tmpdir is not None:
            peer.endpoint = self._bind_private(peer)
        self._peers_by_digest[digest] = peer
        if remote:
            self._remote[id(peer)] = peer
        return peer

    def server_key(self, peer: Peer) -> bytes | None:
        """The public key ``peer`` must expect (``ARENA_SERVER_KEY``), ``None`` if its endpoint is
        not encrypted."""
        return self.curve_public if peer.remote or self._curve_local else None

    def set_limits(self, limits: Limits) -> None:
        """Apply ``limits`` to bots' frames from now on (the socket's size cap to connections
        made from now on)."""
        self._limits = limits
        self._socket.setsockopt(zmq.MAXMSGSIZE, OVERSIZE_FACTOR * limits.max_frame)

    def private_folder(self, peer: Peer) -> str | None:
        """The folder holding ``peer``'s own socket (``None`` off ``ipc://``), for a sandbox to
        bind and hand to the bot's identity."""
        return self._private.get(id(peer))

    def _bind_private(self, peer: Peer) -> str:
        assert self._tmpdir is not None
        folder = tempfile.mkdtemp(prefix="peer-", dir=self._tmpdir)
        endpoint = f"ipc://{os.path.join(folder, 'hub.sock')}"
        try:
            self._socket.bind(endpoint)
        except zmq.ZMQError as exc:
            shutil.rmtree(folder, ignore_errors=True)
            raise ProtocolError(f"cannot bind {endpoint}: {exc}") from None
        self._private[id(peer)] = folder
        return endpoint

    def forget(self, peer: Peer) -> None:
        """Stop accepting anything from ``peer``; its token may be expected again."""
        digest = _digest(peer.token)
        if self._peers_by_digest.get(digest) is peer:
            del self._peers_by_digest[digest]
        if peer.identity is not None:
            self._peers_by_identity.pop(peer.identity, None)
        if peer.fd is not None and self._peers_by_fd.get(peer.fd) is peer:
            del self._peers_by_fd[peer.fd]
            self.guard.release(peer.fd, time.monotonic())
        peer.lost = True
        peer.awaiting = None
        self._remote.pop(id(peer), None)
        folder = self._private.pop(id(peer), None)
        if folder is not None:
            try:
                self._socket.unbind(peer.endpoint)
            except zmq.ZMQError:
                pass
            shutil.rmtree(folder, ignore_errors=True)

    def next_seq(self) -> int:
        """A sequence number never used before on this hub."""
        self._seq += 1
        return self._seq

    def send(self, peer: Peer, message: Message) -> None:
        """Send ``message`` to a connected peer; raises :class:`PeerGone` if it cannot be routed.

        An ``act`` or ``ping`` becomes the peer's outstanding request: its frames are decoded
        from now until a reply with that ``seq`` (or :meth:`settle`).
        """
        if peer.identity is None or peer.lost:
            raise PeerGone(f"{peer.label} is not connected")
        frame = encode(message)
        handed = time.monotonic()  # before the frames leave: the peer cannot have them earlier
        try:
            # Two frames (the peer's routing id, then the message), without send_multipart's checks.
            self._socket.send(peer.identity, _NOBLOCK_MORE)
            self._socket.send(frame, _NOBLOCK)
        except zmq.ZMQError as exc:
            peer.lost = True
            raise PeerGone(f"{peer.label}: cannot send ({exc})") from None
        if isinstance(message, (Act, Ping)):
            peer.awaiting = message.seq
            peer.answer = Action if isinstance(message, Act) else Pong
            peer.asked_at = handed
            peer.decodes_left = DECODES_PER_REQUEST
        log.debug("→ %s %r", peer.label, message)

    def settle(self, peer: Peer) -> None:
        """End ``peer``'s outstanding request: its frames are dropped undecoded from now on."""
        peer.awaiting = None

    def receive(self, timeout: float) -> Incoming | None:
        """The next frame from a connected peer within ``timeout`` seconds, or ``None``.

        Handshakes, frames from unknown senders and refused tokens are handled (and logged) here and
        never returned.
        """
        deadline = time.monotonic() + timeout
        while True:
            go_on, incoming = self._receive_one(deadline - time.monotonic())
            # A flood of frames or connections cannot hold the caller past its deadline.
            if incoming is not None or not go_on or time.monotonic() >= deadline:
                return incoming

    def _receive_one(self, timeout: float) -> tuple[bool, Incoming | None]:
        """Handle at most one frame within ``timeout`` s: (whether to go on waiting, what to
        return). Go on: something came (a connection accepted or closed counts; the peer of a
        closed one is marked lost), or nothing did and the wait was ``timeout`` itself, not cut
        short for a ping or a sweep that falls due: the poll counts whole milliseconds on a clock of
        its own, which may end it a fraction of one early.
        """
        go_on = False
        if not self._queue:
            now = time.monotonic()
            self.guard.sweep(now)
            wait = min(timeout, self._keepalive(), self.guard.due(now))
            go_on = wait == timeout
            ready = dict(self._poller.poll(max(0, int(wait * 1000 + 0.999))))
            # Frames first, so that connection events (a flood of them) never delay their
            # arrival times; a closed connection whose event is not read yet is caught by the
            # descriptor check.
            if self._socket in ready:
                go_on = self._take_pending() > 0 or go_on
            if self._monitor in ready:
                go_on = self._drain_monitor() or go_on
        if not self._queue:
            return go_on, None
        return True, self._accept(self._queue.popleft())

    def _keepalive(self) -> float:
        """Ping the idle remote peers that are due, mark lost those that missed too many pings;
        the seconds until the next is due (infinite without remote peers)."""
        due = float("inf")
        if not self._remote:
            return due
        now = time.monotonic()
        for peer in list(self._remote.values()):
            if not peer.connected or peer.awaiting is not None:
                continue
            if peer.pinged is not None and now - peer.pinged_at >= PING_EVERY:
                peer.missed += 1
                peer.pinged = None
                if peer.missed >= PINGS_MISSED:
                    peer.lost = True
                    log.warning("%s lost: %d pings unanswered", peer.label, peer.missed)
                    continue
            last = max(peer.heard_at, peer.asked_at, peer.pinged_at)
            if peer.pinged is None and now - last >= PING_EVERY:
                peer.pinged, peer.pinged_at = self.next_seq(), now
                peer.ping_decodes = DECODES_PER_REQUEST
                if not self._raw_send(peer.identity, Ping(peer.pinged)):
                    peer.lost = True
                    continue
            due = min(due, (peer.pinged_at if peer.pinged is not None else last) + PING_EVERY - now)
        return max(0.0, due)

    def _take_pending(self) -> int:
        """Take the frames waiting on the socket (up to :data:`DRAIN_BATCH`), each stamped with the
        time it was taken; those :meth:`_screen` keeps wait in the queue, the rest are gone.
        Returns how many were taken."""
        socket = self._socket
        for taken in range(DRAIN_BATCH):
            # Asking first is cheaper than the exception of a receive that finds nothing.
            if not cast(int, socket.get(_EVENTS)) & _POLLIN:
                return taken
            try:
                frames = [socket.recv(_NOBLOCK, copy=False)]
            except zmq.Again:
                return taken
            while frames[-1].more:  # the parts of one message arrive together
                frames.append(socket.recv(_NOBLOCK, copy=False))
            arrived = time.monotonic()
            identity = frames[0].bytes
            fd = int(frames[-1].get(zmq.SRCFD))
            self._check_reused_fd(identity, fd)
            kept = self._screen(identity, frames[1:], fd, arrived)
            if kept is not None:
                self._queue.append(kept)
        return DRAIN_BATCH

    def _screen(
        self, identity: bytes, parts: list[zmq.Frame], fd: int, arrived: float
    ) -> _Frame | None:
        """The frame to keep for decoding, or ``None`` after dropping or refusing it unread: from
        a sender not yet known, anything but one small frame (or anything, once it is ignored);
        from a peer, anything not asked for, a reply whose ``seq`` is another, or more frames than
        it may have decoded per request."""
        size = sum(len(part) for part in parts)
        peer = self._peers_by_identity.get(identity)
        if peer is None:
            if self._strikes.get(identity, 0) >= STRANGER_STRIKES:
                self.refused += 1
            elif len(parts) != 1:
                self._refuse_frame(identity, fd, f"unknown sender: {len(parts)} frames in one message")
            elif size > HELLO_LIMIT:
                self._refuse_frame(identity, fd, f"unknown sender sent {size} bytes before saying hello")
            else:
                return _Frame(identity, [parts[0].bytes], fd, arrived)
            return None
        if (
            peer.pinged is not None
            and len(parts) == 1
            and size <= HELLO_LIMIT
            and peer.ping_decodes > 0
            and may_answer(parts[0].buffer, peer.pinged)
            and (peer.awaiting is None or not may_answer(parts[0].buffer, peer.awaiting))
        ):
            peer.ping_decodes -= 1
            return _Frame(identity, [parts[0].bytes], fd, arrived, keepalive=True)
        if peer.awaiting is None or arrived < peer.asked_at:
            self._drop(peer, f"a frame of {size} bytes", "(nothing asked)")
            return None
        if len(parts) == 1 and not may_answer(parts[0].buffer, peer.awaiting):
            if peer.wrong_seq is None:
                peer.wrong_seq = peer.awaiting
            self._drop(peer, f"a frame of {size} bytes", f"(not seq {peer.awaiting})")
            return None
        if peer.decodes_left <= 0:
            self._drop(peer, f"a frame of {size} bytes", "(beyond the frames decoded per request)")
            return None
        peer.decodes_left -= 1
        return _Frame(identity, [part.bytes for part in parts], fd, arrived)

    def _drain_monitor(self) -> bool:
        """Count the tcp connections the socket reports accepted (the guard sheds those beyond
        its caps) and mark the peers of connections it reports closed as lost, for up to
        :data:`EVENTS_BATCH` events; whether there were any."""
        came = False
        # A bounded batch: a flood of connections must not keep the hub here.
        for _ in range(EVENTS_BATCH):
            try:
                parts = self._monitor.recv_multipart(_NOBLOCK)
            except zmq.Again:
                break
            # The first frame: the event (16 bits) and its value (32 bits), in this machine's order.
            kind, fd = _MONITOR_EVENT.unpack_from(parts[0])
            came = True
            if kind == _ACCEPTED:
                where = parts[1]
                if where.startswith(b"tcp://"):
                    self.guard.accepted(fd, int(where.rsplit(b":", 1)[1]), time.monotonic())
                continue
            self.guard.closed(fd)
            self._lose_fd(fd, "the connection closed")
        return came

    def _check_reused_fd(self, identity: bytes, fd: int) -> None:
        """A frame from a new identity on a peer's descriptor: that peer's connection has closed."""
        peer = self._peers_by_fd.get(fd)
        if peer is not None and peer.identity != identity:
            self._lose_fd(fd, "a new connection took over its descriptor")

    def _lose_fd(self, fd: int, why: str) -> None:
        peer = self._peers_by_fd.pop(fd, None)
        if peer is not None and not peer.lost:
            peer.lost = True
            log.warning("%s lost: %s", peer.label, why)

    def wait_connected(self, peers: list[Peer], timeout: float) -> list[Peer]:
        """Wait until every peer has said hello or ``timeout`` seconds pass; the ones still missing.

        Anything else arriving meanwhile is logged and dropped.
        """
        deadline = time.monotonic() + timeout
        while True:
            missing = [p for p in peers if not p.connected]
            remaining = deadline - time.monotonic()
            if not missing or remaining <= 0:
                return missing
            _, incoming = self._receive_one(remaining)
            if incoming is not None:
                self._drop(incoming.peer, incoming.message or incoming.error, "while waiting for handshakes")

    def ping(self, peer: Peer, timeout: float) -> float | None:
        """Round-trip seconds of a ``ping`` to ``peer``, or ``None`` without a ``pong`` in time."""
        seq = self.next_seq()
        start = time.monotonic()
        try:
            self.send(peer, Ping(seq))
        except PeerGone:
            return None
        deadline = start + timeout
        while (remaining := deadline - time.monotonic()) > 0:
            incoming = self.receive(remaining)
            if incoming is None:
                break
            if incoming.peer is peer and incoming.message == Pong(seq):
                return time.monotonic() - start
            self._drop(incoming.peer, incoming.message or incoming.error, "while waiting for pong")
        return None

    def _drop(self, peer: Peer, what: object, why: str) -> None:
        """Count a frame of ``peer`` that is dropped (logging its first few)."""
        self.dropped += 1
        peer.dropped += 1
        if peer.dropped <= DROPS_LOGGED:
            log.info("%s: dropped %s %s", peer.label, what, why)

    def _refuse_frame(self, identity: bytes, fd: int, why: str) -> None:
        """Count a refused frame from a sender not yet known; after its last strike, ignore it
        and shed its connection."""
        self.refused += 1
        strikes = self._strikes.pop(identity, 0) + 1
        self._strikes[identity] = strikes
        if strikes == STRANGER_STRIKES:
            self.guard.refuse(fd)
        while len(self._strikes) > IGNORED_KEPT:
            self._strikes.popitem(last=False)
        if self.refused <= REFUSALS_LOGGED:
            log.warning("%s", why)
        elif self.refused == REFUSALS_LOGGED + 1:
            log.warning("refusing more frames from unknown senders; counting them in Hub.refused")

    def _accept(self, frame: _Frame) -> Incoming | None:
        """Decode a frame :meth:`_screen` kept: a stranger's ``hello``, or what a peer was asked."""
        peer = self._peers_by_identity.get(frame.identity)
        if peer is None:
            self._accept_stranger(frame)
            return None
        if frame.keepalive:
            self._accept_pong(peer, frame)
            return None
        if peer.awaiting is None:  # answered by a frame ahead of this one
            self._drop(peer, "a frame", "(nothing asked)")
            return None
        if len(frame.parts) != 1:
            error = ProtocolError(f"expected one frame per message, got {len(frame.parts)}")
            peer.awaiting = None
            return Incoming(peer, None, error, frame.arrived)
        # Whatever waits behind this frame is stamped before the time spent decoding it.
        self._take_pending()
        try:
            message = decode(frame.parts[0], self._limits)
        except ProtocolError as exc:
            log.debug("← %s malformed: %s", peer.label, exc)
            peer.awaiting = None
            return Incoming(peer, None, exc, frame.arrived)
        if isinstance(message, Hello):
            self._drop(peer, "a second hello", "(already connected)")
            return None
        if isinstance(message, (peer.answer, Error)) and message.seq == peer.awaiting:
            peer.awaiting = None
            peer.heard_at = frame.arrived
        log.debug("← %s %r", peer.label, message)
        return Incoming(peer, message, None, frame.arrived)

    def _accept_pong(self, peer: Peer, frame: _Frame) -> None:
        """A small frame that may answer ``peer``'s keepalive ping: the ``pong``, or dropped."""
        try:
            message = decode(frame.parts[0], _HELLO_LIMITS)
        except ProtocolError:
            message = None
        if message == Pong(peer.pinged or -1):
            peer.pinged, peer.missed, peer.heard_at = None, 0, frame.arrived
        else:
            self._drop(peer, "a frame", "(while a keepalive ping was outstanding)")

    def _accept_stranger(self, frame: _Frame) -> None:
        """One small frame from a sender that has not said hello: a ``hello``, or refused."""
        identity = frame.identity
        try:
            message = decode(frame.parts[0], _HELLO_LIMITS)
        except ProtocolError as exc:
            self._refuse_frame(identity, frame.fd, f"unknown sender sent a malformed frame: {exc}")
            return
        if not isinstance(message, Hello):
            self._refuse_frame(
                identity, frame.fd, f"refused {type(message).__name__} from a sender that has not said hello"
            )
            return
        if not self._handshake(identity, message, frame.fd):
            self._refuse_frame(identity, frame.fd, "refused a hello")

    def _handshake(self, identity: bytes, hello: Hello, fd: int) -> bool:
        """Connect the peer whose token ``hello`` carries, or answer ``error``; whether it did."""
        peer = self._peers_by_digest.get(_digest(hello.token))
        if peer is None and self.refresh_tokens is not None:
            self.refresh_tokens()
            peer = self._peers_by_digest.get(_digest(hello.token))
        if peer is None or not hmac.compare_digest(peer.token.encode(), hello.token.encode()):
            self._refuse(identity, f"unknown token from bot {hello.name[:NAME_LIMIT]!r}")
        elif peer.identity is not None and not peer.remote:
            self._refuse(identity, f"token of {peer.label} is already connected")
        elif len(hello.name) > NAME_LIMIT or len(hello.version) > NAME_LIMIT:
            self._refuse(identity, f"name and version may have at most {NAME_LIMIT} characters")
        elif hello.protocol < OLDEST_PROTOCOL_VERSION:
            # ``hello.protocol`` is the newest version the bot speaks; both then speak the lower
            # of it and this referee's newest.
            self._refuse(
                identity,
                f"protocol version {hello.protocol} is not supported; this referee speaks "
                f"{OLDEST_PROTOCOL_VERSION} to {PROTOCOL_VERSION}",
            )
        else:
            if peer.identity is not None:
                self._replace(peer)
            peer.identity, peer.lost = identity, False
            peer.name, peer.version = hello.name, hello.version
            peer.protocol = min(hello.protocol, PROTOCOL_VERSION)
            peer.connected_at = peer.heard_at = time.monotonic()
            peer.connections += 1
            self._peers_by_identity[identity] = peer
            if fd >= 0:
                peer.fd = fd
                self._peers_by_fd[fd] = peer
                self.guard.admit(fd)
            self._raw_send(identity, Welcome(peer.protocol, self._server))
            log.info("%s connected as %r %r", peer.label, hello.name, hello.version)
            return True
        return False

    def _replace(self, peer: Peer) -> None:
        """Retire a remote peer's connection, which a new ``hello`` with its token replaces: it is
        sent ``bye``, and what it sends from now on is refused as from a stranger."""
        assert peer.identity is not None
        if not peer.lost:
            self._raw_send(peer.identity, Bye("replaced by a new connection with this token"))
        self._peers_by_identity.pop(peer.identity, None)
        self._strikes[peer.identity] = STRANGER_STRIKES
        while len(self._strikes) > IGNORED_KEPT:
            self._strikes.popitem(last=False)
        if peer.fd is not None and self._peers_by_fd.get(peer.fd) is peer:
            del self._peers_by_fd[peer.fd]
            self.guard.release(peer.fd, time.monotonic())
        peer.fd = peer.awaiting = peer.pinged = None
        peer.missed = 0
        log.info("%s reconnected; the new connection replaces the old", peer.label)

    def _refuse(self, identity: bytes, reason: str) -> None:
        log.warning("refused a hello: %s", reason)
        if len(self.refused_hellos) < REFUSALS_LOGGED:
            self.refused_hellos.append(reason)
        self._raw_send(identity, Error(reason))

    def _raw_send(self, identity: bytes | None, message: Message) -> bool:
        """Send ``message`` to a connection, whether or not it is a peer's; whether it could."""
        try:
            self._socket.send_multipart([identity or b"", encode(message)], flags=zmq.NOBLOCK)
        except zmq.ZMQError as exc:
            log.warning("could not send %s: %s", type(message).__name__, exc)
            return False
        return True
