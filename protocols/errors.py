"""The root of every error the protocol layer raises (the SDK's), and the referee's own."""

from __future__ import annotations

from arena_bot.errors import ProtocolError

__all__ = ["PeerGone", "ProtocolError"]


class PeerGone(ProtocolError):
    """The peer's connection vanished: a send could not be routed to it."""
