"""The root of every error the protocol layer raises."""

from __future__ import annotations


class ProtocolError(Exception):
    """Bytes or a message that break the protocol; the message says what and where."""
