"""The referee's side of the wire: one ROUTER socket, bots known by token.

A :class:`Hub` binds a ROUTER socket (``ipc://`` in a private temporary directory by default, or any
``tcp://`` endpoint for remote bots, optionally CURVE-encrypted). The caller announces each bot it
expects with :meth:`Hub.expect`, which returns a :class:`Peer` holding a fresh token; the hub answers
``hello`` itself (``welcome``, or ``error`` for a wrong token or version) and hands every later
message to the caller tagged with its peer. A hub belongs to one thread (ZeroMQ sockets are not
thread-safe); run one hub per thread to play matches in parallel.

Nothing a peer sends can make the hub buffer without bound: libzmq drops a frame larger than
:data:`OVERSIZE_FACTOR` times the codec's frame limit and closes that connection (the peer is then
marked lost, see below); at most :data:`QUEUE_FRAMES` frames wait per connection in each direction
(beyond that a sender is held back by the transport, and a send to a peer that does not read fails
as :class:`PeerGone`). A peer whose connection closes is marked ``lost``: the hub learns it from the
socket's monitor, and from any later frame arriving on the same file descriptor under a new
identity (libzmq reconnects a dropped DEALER under a new identity, which has not said hello).

Hosting a remote bot with encryption (the bot's side is in SPEC.md §1)::

    keys = CurveKeys.generate()
    with Hub("tcp://0.0.0.0:5555", curve=keys) as hub:
        peer = hub.expect("visitor")
        # give the bot's owner: the endpoint, peer.token and keys.public (ARENA_SERVER_KEY)
        missing = hub.wait_connected([peer], timeout=300)
"""

from __future__ import annotations

import logging
import os
import secrets
import shutil
import tempfile
import time
from dataclasses import dataclass, field

import zmq
from zmq.utils.monitor import parse_monitor_message

from protocols.codec import DEFAULT_LIMITS, Limits, decode, encode
from protocols.errors import PeerGone, ProtocolError
from protocols.messages import PROTOCOL_VERSION, Error, Hello, Message, Ping, Pong, Welcome

log = logging.getLogger(__name__)

#: Frames that may wait per connection, in each direction.
QUEUE_FRAMES = 64
#: libzmq drops frames above this many times the codec's frame limit and disconnects the sender;
#: frames between the two limits reach the codec and are reported as malformed.
OVERSIZE_FACTOR = 2
#: Frames refused from senders that have not said hello, and frames dropped while the hub waits, are
#: each logged individually up to this many; beyond, they are only counted.
REFUSALS_LOGGED = 20


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
    """One expected bot: its token, a label for logs, and what its ``hello`` said once connected."""

    token: str
    label: str
    identity: bytes | None = None
    name: str = ""
    version: str = ""
    lost: bool = False
    connected_at: float = field(default=0.0, repr=False)
    fd: int | None = field(default=None, repr=False)

    @property
    def connected(self) -> bool:
        """Whether the bot completed the handshake and has not been lost since."""
        return self.identity is not None and not self.lost


@dataclass(frozen=True, slots=True)
class Incoming:
    """One frame from a connected peer: the decoded ``message``, or the ``error`` that decoding raised."""

    peer: Peer
    message: Message | None
    error: ProtocolError | None = None


class Hub:
    """A bound ROUTER socket and the peers allowed to talk to it. A context manager; close is idempotent."""

    def __init__(
        self,
        endpoint: str | None = None,
        *,
        curve: CurveKeys | None = None,
        limits: Limits = DEFAULT_LIMITS,
        server: str = "arena",
    ) -> None:
        self._limits = limits
        self._server = server
        self._peers_by_token: dict[str, Peer] = {}
        self._peers_by_identity: dict[bytes, Peer] = {}
        self._peers_by_fd: dict[int, Peer] = {}
        self._seq = 0
        self._tmpdir: str | None = None
        #: Frames refused because their sender had not said hello (or was refused).
        self.refused = 0
        #: Frames from connected peers dropped by the hub: second hellos, and frames arriving while
        #: it waited for handshakes or a pong.
        self.dropped = 0
        self.curve_public: bytes | None = curve.public if curve else None
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
            self._monitor: zmq.Socket[bytes] = self._socket.get_monitor_socket(zmq.EVENT_DISCONNECTED)
            self._poller = zmq.Poller()
            self._poller.register(self._socket, zmq.POLLIN)
            self._poller.register(self._monitor, zmq.POLLIN)
            if curve is not None:
                self._socket.curve_secretkey = curve.secret
                self._socket.curve_publickey = curve.public
                self._socket.curve_server = True
            if endpoint is None:
                self._tmpdir = tempfile.mkdtemp(prefix="arena-hub-")
                endpoint = f"ipc://{os.path.join(self._tmpdir, 'hub.sock')}"
            self._socket.bind(endpoint)
            self.endpoint: str = self._socket.getsockopt_string(zmq.LAST_ENDPOINT)
        except zmq.ZMQError as exc:
            self.close()
            raise ProtocolError(f"cannot bind {endpoint}: {exc}") from None
        self._closed = False
        log.debug("hub bound at %s", self.endpoint)

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

    def expect(self, label: str, token: str | None = None) -> Peer:
        """Allow one bot to connect with ``token`` (a fresh random one by default)."""
        token = token or secrets.token_hex(16)
        if token in self._peers_by_token:
            raise ValueError(f"token for {label!r} is already expected")
        peer = Peer(token, label)
        self._peers_by_token[token] = peer
        return peer

    def forget(self, peer: Peer) -> None:
        """Stop accepting anything from ``peer``; its token may be expected again."""
        self._peers_by_token.pop(peer.token, None)
        if peer.identity is not None:
            self._peers_by_identity.pop(peer.identity, None)
        if peer.fd is not None and self._peers_by_fd.get(peer.fd) is peer:
            del self._peers_by_fd[peer.fd]
        peer.lost = True

    def next_seq(self) -> int:
        """A sequence number never used before on this hub."""
        self._seq += 1
        return self._seq

    def send(self, peer: Peer, message: Message) -> None:
        """Send ``message`` to a connected peer; raises :class:`PeerGone` if it cannot be routed."""
        if peer.identity is None or peer.lost:
            raise PeerGone(f"{peer.label} is not connected")
        frame = encode(message)
        try:
            self._socket.send_multipart([peer.identity, frame], flags=zmq.NOBLOCK)
        except zmq.ZMQError as exc:
            peer.lost = True
            raise PeerGone(f"{peer.label}: cannot send ({exc})") from None
        log.debug("→ %s %r", peer.label, message)

    def receive(self, timeout: float) -> Incoming | None:
        """The next frame from a connected peer within ``timeout`` seconds, or ``None``.

        Handshakes, frames from unknown senders and refused tokens are handled (and logged) here and
        never returned.
        """
        deadline = time.monotonic() + timeout
        while True:
            handled, incoming = self._receive_one(deadline - time.monotonic())
            if incoming is not None or not handled:
                return incoming

    def _receive_one(self, timeout: float) -> tuple[bool, Incoming | None]:
        """Handle at most one frame within ``timeout`` s: (whether one came, what to return).

        A closed connection also counts as something that came (its peer is marked lost).
        """
        ready = dict(self._poller.poll(max(0, int(timeout * 1000 + 0.999))))
        # A closed connection whose event is not read yet is caught by the descriptor check below.
        closed = self._monitor in ready and self._drain_monitor()
        if self._socket not in ready:
            return closed, None
        frames = self._socket.recv_multipart(copy=False)
        parts = [frame.bytes for frame in frames]
        fd = int(frames[-1].get(zmq.SRCFD))
        self._check_reused_fd(parts[0], fd)
        return True, self._accept(parts, fd)

    def _drain_monitor(self) -> bool:
        """Mark the peers of connections the socket reports closed as lost; whether there were any."""
        closed = False
        while self._monitor.poll(0, zmq.POLLIN):
            event = parse_monitor_message(self._monitor.recv_multipart())
            closed = True
            self._lose_fd(int(event["value"]), "the connection closed")
        return closed

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
        self.dropped += 1
        if self.dropped <= REFUSALS_LOGGED:
            log.info("%s: dropped %s %s", peer.label, what, why)

    def _refuse_frame(self, why: str) -> None:
        self.refused += 1
        if self.refused <= REFUSALS_LOGGED:
            log.warning("%s", why)
        elif self.refused == REFUSALS_LOGGED + 1:
            log.warning("refusing more frames from unknown senders; counting them in Hub.refused")

    def _accept(self, parts: list[bytes], fd: int = -1) -> Incoming | None:
        identity = parts[0]
        peer = self._peers_by_identity.get(identity)
        if len(parts) != 2:
            error = ProtocolError(f"expected one frame per message, got {len(parts) - 1}")
            if peer is None:
                self._refuse_frame(f"unknown sender: {error}")
                return None
            return Incoming(peer, None, error)
        frame = parts[1]
        try:
            message = decode(frame, self._limits)
        except ProtocolError as exc:
            if peer is None:
                self._refuse_frame(f"unknown sender sent a malformed frame: {exc}")
                return None
            log.debug("← %s malformed: %s", peer.label, exc)
            return Incoming(peer, None, exc)
        if peer is None:
            if isinstance(message, Hello):
                self._handshake(identity, message, fd)
            else:
                self._refuse_frame(f"refused {type(message).__name__} from a sender that has not said hello")
            return None
        if isinstance(message, Hello):
            self._drop(peer, "a second hello", "(already connected)")
            return None
        log.debug("← %s %r", peer.label, message)
        return Incoming(peer, message)

    def _handshake(self, identity: bytes, hello: Hello, fd: int) -> None:
        peer = self._peers_by_token.get(hello.token)
        if peer is None:
            self._refuse(identity, f"unknown token from bot {hello.name!r}")
        elif peer.identity is not None:
            self._refuse(identity, f"token of {peer.label} is already connected")
        elif hello.protocol < PROTOCOL_VERSION:
            # ``hello.protocol`` is the newest version the bot speaks; a newer bot is answered
            # with the version this referee speaks, and must speak that.
            self._refuse(
                identity,
                f"protocol version {hello.protocol} is not supported; this referee speaks {PROTOCOL_VERSION}",
            )
        else:
            peer.identity = identity
            peer.name, peer.version = hello.name, hello.version
            peer.connected_at = time.monotonic()
            self._peers_by_identity[identity] = peer
            if fd >= 0:
                peer.fd = fd
                self._peers_by_fd[fd] = peer
            self._raw_send(identity, Welcome(PROTOCOL_VERSION, self._server))
            log.info("%s connected as %s %s", peer.label, hello.name, hello.version)

    def _refuse(self, identity: bytes, reason: str) -> None:
        log.warning("refused a hello: %s", reason)
        self._raw_send(identity, Error(reason))

    def _raw_send(self, identity: bytes, message: Message) -> None:
        try:
            self._socket.send_multipart([identity, encode(message)], flags=zmq.NOBLOCK)
        except zmq.ZMQError as exc:
            log.warning("could not answer a hello: %s", exc)
