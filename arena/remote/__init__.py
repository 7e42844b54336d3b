"""Remote entrants: bots that run on their author's machine and connect to the referee over tcp.

:mod:`~arena.remote.keys` makes and keeps the referee's CURVE keys; :mod:`~arena.remote.connection`
writes and checks connection files (what an entrant needs to connect); :mod:`~arena.remote.seats`
hosts remote seats on a hub and waits for them; :mod:`~arena.remote.match` plays a one-off match
with remote seats (``arena play --listen``). How it all looks to an organiser and to an entrant:
``docs/remote.md``.
"""

from arena.errors import ArenaError


class RemoteError(ArenaError):
    """A remote seat that cannot be hosted as asked: a bad name or endpoint, unreadable keys."""
