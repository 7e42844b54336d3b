"""A tournament's remote hosting: where remote entrants connect and how long their games wait."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from arena.remote import RemoteError
from arena.remote.connection import check_listen
from protocols.guard import ConnectionCaps

#: Seconds a game waits for a remote entrant that is not connected before it is postponed.
POSTPONE_AFTER = 600


@dataclass(frozen=True, slots=True)
class RemoteSettings:
    """``listen``: the ``tcp://`` endpoint the runner binds for remote entrants; ``address``: what
    connection files say instead (``HOST`` or ``HOST:PORT``), if the bound one is not reachable as
    such; ``postpone_after``: seconds a game waits for an entrant before it is postponed;
    ``caps``: the connections the endpoint allows (``connections_per_address``, ``connections``,
    ``hello_within``; docs/remote.md)."""

    listen: str
    address: str | None = None
    postpone_after: int = POSTPONE_AFTER
    caps: ConnectionCaps = ConnectionCaps()

    def __post_init__(self) -> None:
        check_listen(self.listen)
        if self.listen.endswith(":*"):
            raise RemoteError(f"{self.listen}: a tournament listens on a fixed port, which "
                              "entrants' connection files name")

    def to_plain(self) -> dict[str, Any]:
        """The config keys these settings come from."""
        plain: dict[str, Any] = {"listen": self.listen}
        if self.address is not None:
            plain["address"] = self.address
        if self.postpone_after != POSTPONE_AFTER:
            plain["postpone_after"] = self.postpone_after
        default = ConnectionCaps()
        if self.caps.per_address != default.per_address:
            plain["connections_per_address"] = self.caps.per_address
        if self.caps.connections != default.connections:
            plain["connections"] = self.caps.connections
        if self.caps.hello_within != default.hello_within:
            plain["hello_within"] = int(self.caps.hello_within)
        return plain
