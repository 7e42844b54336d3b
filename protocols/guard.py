"""The connection guard of a hub's ``tcp://`` endpoints: caps on connections nobody vouches for.

libzmq accepts every TCP connection itself, each costing the referee a descriptor until it closes,
and without a guard a connection that never finishes its handshake (idle, half a greeting,
garbage) holds its descriptor for libzmq's handshake interval. A :class:`ConnectionGuard` learns
each accepted connection from the socket's monitor (its descriptor) and the peer's address from
the descriptor itself, and *sheds* connections that have not said ``hello`` with a valid token
(are not *admitted*) by shutting them down, which makes libzmq close them at once:

* one that has not been admitted within :attr:`ConnectionCaps.hello_within` seconds of being
  accepted (or of losing its admission, when a new connection with its token replaced it);
* beyond :attr:`ConnectionCaps.per_address` such connections from one address (an IPv6 address
  counts by its /64 prefix), the oldest of that address;
* beyond the budget of connections in all (:attr:`ConnectionCaps.connections`, but never more than
  the soft descriptor limit less :attr:`ConnectionCaps.reserve`), the oldest of the address
  holding the most.

Admitted connections are never shed, so a flood can delay a bot's connection (while its own
address is flooded) but never cut one that plays. The guard does no work per frame, only per
connection. :func:`raise_open_files_limit` raises the process's soft descriptor limit to the hard
one; a hub calls it before it listens on ``tcp://``.
"""

from __future__ import annotations

import functools
import ipaddress
import logging
import resource
import socket
from collections import OrderedDict
from dataclasses import dataclass, field

log = logging.getLogger(__name__)

#: Sheds logged one by one; beyond, they are only counted.
SHEDS_LOGGED = 10


@dataclass(frozen=True, slots=True)
class ConnectionCaps:
    """What a hub's ``tcp://`` endpoints allow: ``per_address``: connections not yet admitted
    from one address (IPv6: one /64); ``connections``: connections in all, admitted ones
    included; ``hello_within``: seconds a connection has from being accepted to saying ``hello``
    with a valid token; ``reserve``: descriptors kept free below the soft limit for the referee's
    own files (bots' pipes and logs, records, the database), at most half the limit."""

    per_address: int = 16
    connections: int = 1024
    hello_within: float = 10.0
    reserve: int = 256

    def __post_init__(self) -> None:
        if self.per_address < 1 or self.connections < 1 or self.reserve < 0:
            raise ValueError("connection caps must be positive (the reserve at least 0)")
        if not self.hello_within > 0:
            raise ValueError("hello_within must be a positive number of seconds")

    def budget(self, soft_limit: int) -> int:
        """Connections allowed in all under a soft descriptor limit of ``soft_limit``."""
        return max(1, min(self.connections, soft_limit - min(self.reserve, soft_limit // 2)))


def raise_open_files_limit() -> int:
    """Raise this process's soft limit on open descriptors to its hard limit (where the system
    allows it); the soft limit from now on."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or soft == resource.RLIM_INFINITY or soft >= hard:
        return soft
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    except (ValueError, OSError) as exc:
        log.warning("cannot raise the open files limit from %d to %d: %s", soft, hard, exc)
        return soft
    log.debug("open files limit raised from %d to %d", soft, hard)
    return hard


@functools.lru_cache(maxsize=4096)
def address_key(host: str) -> str:
    """What the per-address cap counts ``host`` under: an IPv4 address (plain or mapped into
    IPv6) as itself, an IPv6 address by its /64 prefix."""
    address = ipaddress.ip_address(host.split("%", 1)[0])
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return str(address)


def _peer(fd: int, port: int) -> tuple[str, int] | None:
    """The peer address of ``fd`` if it is a TCP connection to local ``port``, else ``None``
    (closed, or since reused for something else). Borrows the descriptor, never closes it."""
    return _on_connection(fd, port, None)


def _shut_down(fd: int, port: int, peer: tuple[str, int]) -> None:
    """Shut ``fd`` down if it is still the connection from ``peer`` to ``port``."""
    _on_connection(fd, port, peer)


def _on_connection(fd: int, port: int, shut: tuple[str, int] | None) -> tuple[str, int] | None:
    """The peer address of ``fd`` if it is a TCP connection to local ``port`` (else ``None``);
    with ``shut``, the connection is also shut down if that is its peer. libzmq may close the
    descriptor at any moment, so every failure means it is gone."""
    try:
        # Family and type given, so that nothing is asked of the descriptor until needed: the
        # addresses come back in the form of the family they really have.
        conn = socket.socket(socket.AF_INET, socket.SOCK_STREAM, 0, fd)
    except OSError:
        return None
    try:
        local = conn.getsockname()
        if not isinstance(local, tuple) or local[1] != port:
            return None
        host, remote_port = conn.getpeername()[:2]
        peer = str(host), int(remote_port)
        if shut is not None and peer == shut:
            conn.shutdown(socket.SHUT_RDWR)
        return peer
    except OSError:
        return None
    finally:
        conn.detach()


@dataclass(slots=True)
class _Connection:
    fd: int
    port: int
    peer: tuple[str, int]
    key: str
    since: float
    admitted: bool = False


@dataclass
class ConnectionGuard:
    """Counts a socket's tcp connections and sheds those beyond the caps (see the module)."""

    caps: ConnectionCaps = field(default_factory=ConnectionCaps)
    #: The local ports of the endpoints guarded.
    ports: set[int] = field(default_factory=set)
    #: Connections in all, admitted ones included (:meth:`ConnectionCaps.budget`).
    budget: int = 0
    #: Connections accepted so far.
    accepted_count: int = 0
    #: Connections shed, by reason: ``late`` (no hello in time), ``address``, ``total``, ``refused``.
    shed: dict[str, int] = field(default_factory=lambda: dict.fromkeys(
        ("late", "address", "total", "refused"), 0))
    _live: dict[int, _Connection] = field(default_factory=dict)
    #: Connections not admitted, oldest first (by accept, or by losing their admission).
    _pending: OrderedDict[int, _Connection] = field(default_factory=OrderedDict)
    _per_key: dict[str, OrderedDict[int, None]] = field(default_factory=dict)
    #: The addresses by how many pending connections each holds, and the largest such number.
    _by_size: dict[int, dict[str, None]] = field(default_factory=dict)
    _top: int = 0
    _admitted: int = 0
    #: Descriptors admitted before their acceptance was reported.
    _early: set[int] = field(default_factory=set)

    def __post_init__(self) -> None:
        if self.budget <= 0:
            self.budget = self.caps.budget(resource.getrlimit(resource.RLIMIT_NOFILE)[0])

    @property
    def connections(self) -> int:
        """Connections counted now (admitted, and not admitted but not shed)."""
        return self._admitted + len(self._pending)

    @property
    def pending(self) -> int:
        """Connections not admitted and not shed."""
        return len(self._pending)

    def accepted(self, fd: int, port: int, now: float) -> None:
        """A connection was accepted on local ``port`` with descriptor ``fd``: count it, then
        shed what the caps no longer allow."""
        self.accepted_count += 1
        early = fd in self._early
        self.closed(fd)  # a descriptor reused before its close was reported
        self.ports.add(port)
        peer = _peer(fd, port)
        if peer is None:  # closed already
            return
        conn = _Connection(fd, port, peer, address_key(peer[0]), now)
        self._live[fd] = conn
        if early:
            conn.admitted = True
            self._admitted += 1
            return
        self._make_pending(conn)
        same = self._per_key[conn.key]
        if len(same) > self.caps.per_address:
            self._shed(self._pending[next(iter(same))], "address")
        while self.connections > self.budget and self._pending:
            self._shed(self._pending[next(iter(self._biggest()))], "total")

    def closed(self, fd: int) -> None:
        """The connection on ``fd`` closed: stop counting it."""
        self._early.discard(fd)
        conn = self._live.pop(fd, None)
        if conn is None:
            return
        if conn.admitted:
            self._admitted -= 1
        else:
            self._unpend(conn)

    def admit(self, fd: int) -> None:
        """The connection on ``fd`` said hello with a valid token: never shed it."""
        conn = self._live.get(fd)
        if conn is None:
            if any(_peer(fd, port) is not None for port in self.ports):
                self._early.add(fd)
        elif not conn.admitted:
            self._unpend(conn)
            conn.admitted = True
            self._admitted += 1

    def release(self, fd: int, now: float) -> None:
        """The connection on ``fd`` lost its admission (replaced, forgotten): it has
        :attr:`ConnectionCaps.hello_within` seconds from ``now`` to close."""
        conn = self._live.get(fd)
        if conn is not None and conn.admitted:
            conn.admitted = False
            self._admitted -= 1
            conn.since = now
            self._make_pending(conn)

    def refuse(self, fd: int) -> None:
        """Shed the connection on ``fd`` now, unless it is admitted (its sender was refused)."""
        conn = self._pending.get(fd)
        if conn is not None:
            self._shed(conn, "refused")

    def sweep(self, now: float) -> None:
        """Shed the connections not admitted within :attr:`ConnectionCaps.hello_within`."""
        limit = self.caps.hello_within
        while self._pending:
            conn = next(iter(self._pending.values()))
            if now - conn.since < limit:
                return
            self._shed(conn, "late")

    def due(self, now: float) -> float:
        """Seconds until :meth:`sweep` has something to shed (infinite if nothing waits)."""
        if not self._pending:
            return float("inf")
        return max(0.0, next(iter(self._pending.values())).since + self.caps.hello_within - now)

    def _make_pending(self, conn: _Connection) -> None:
        self._pending[conn.fd] = conn
        same = self._per_key.setdefault(conn.key, OrderedDict())
        same[conn.fd] = None
        self._resize(conn.key, len(same) - 1, len(same))

    def _unpend(self, conn: _Connection) -> None:
        if self._pending.pop(conn.fd, None) is None:
            return
        same = self._per_key[conn.key]
        del same[conn.fd]
        self._resize(conn.key, len(same) + 1, len(same))
        if not same:
            del self._per_key[conn.key]

    def _resize(self, key: str, old: int, new: int) -> None:
        """Refile ``key``, which held ``old`` pending connections and now holds ``new``."""
        if old:
            bucket = self._by_size[old]
            del bucket[key]
            if not bucket:
                del self._by_size[old]
        if new:
            self._by_size.setdefault(new, {})[key] = None
        self._top = max(self._top, new)
        while self._top and self._top not in self._by_size:
            self._top -= 1

    def _biggest(self) -> OrderedDict[int, None]:
        """The pending connections of the address holding the most (at most ``per_address``
        each, so a flood from few addresses is shed before a newcomer from another)."""
        return self._per_key[next(iter(self._by_size[self._top]))]

    def _shed(self, conn: _Connection, reason: str) -> None:
        """Shut ``conn`` down (libzmq then closes it and reports it closed) and stop counting it."""
        self._unpend(conn)
        self._live.pop(conn.fd, None)
        _shut_down(conn.fd, conn.port, conn.peer)
        self.shed[reason] += 1
        total = sum(self.shed.values())
        if total <= SHEDS_LOGGED:
            log.warning("shed a connection from %s (%s): %s", conn.peer[0], reason, _WHY[reason])
        elif total == SHEDS_LOGGED + 1:
            log.warning("shedding more connections; counting them in the hub's guard")


_WHY = {
    "late": "no hello with a valid token in time",
    "address": "too many connections from this address without a hello",
    "total": "too many connections in all",
    "refused": "refused frames from a sender that has not said hello",
}
