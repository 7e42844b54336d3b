"""A one-off match with remote seats (``arena play --listen``): connection files, a countdown, play.

The hub listens on the organiser's ``tcp://`` endpoint with CURVE and fresh keys; each remote seat
gets a fresh token and a connection file. Local bots are started once every remote seat has said
hello, so their start-up deadline does not run while people get ready.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Sequence
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path

from arena import __version__
from arena.clock import ClockRule, TimeControl
from arena.handle import BotHandle, close_all
from arena.manifest import BotSpec
from arena.record import MatchRecord
from arena.referee import REJOIN_GRACE, DecisionObserver, FaultPolicy, play_match
from arena.remote import RemoteError
from arena.remote.connection import advertised, check_listen, write_connection_file
from arena.remote.keys import new_keys
from arena.remote.seats import Countdown, wait_for
from engine.core import Game, MatchConfig
from protocols.codec import DEFAULT_LIMITS, Limits
from protocols.errors import ProtocolError
from protocols.transport import Hub


@dataclass(frozen=True, slots=True)
class Seat:
    """One seat of the match: a local bot to start, or (``remote``) an entrant who connects."""

    spec: BotSpec
    remote: bool = False


@dataclass(frozen=True, slots=True)
class Hosting:
    """Where remote seats connect: the ``listen`` endpoint, the ``address`` written in connection
    files (``None``: the bound one), the folder they go to, and the seconds to wait for them."""

    listen: str
    connect_dir: Path
    wait: float
    address: str | None = None
    rejoin_grace: float = REJOIN_GRACE


Announce = Callable[[dict[str, Path], str], None]


def host_match(
    game: Game,
    config: MatchConfig,
    seed: int,
    seats: Sequence[Seat],
    control: TimeControl,
    policy: FaultPolicy,
    hosting: Hosting,
    *,
    announce: Announce | None = None,
    countdown: Countdown | None = None,
    on_decision: DecisionObserver | None = None,
    log_dir: Path | None = None,
    limits: Limits = DEFAULT_LIMITS,
    clock: ClockRule = ClockRule(),
) -> MatchRecord:
    """Write a connection file per remote seat, wait for every remote bot (``announce`` is told
    the files and the endpoint; ``countdown`` ticks), start the local bots, play, close all.

    Raises :class:`RemoteError` if a remote bot is not connected within ``hosting.wait`` seconds
    (nothing is played) or the endpoint cannot be bound. The connection files are removed at the end.
    """
    check_listen(hosting.listen)
    names = [s.spec.name for s in seats if s.remote]
    if len(set(names)) != len(names):
        raise RemoteError("each remote seat needs a name of its own")
    keys = new_keys()
    with ExitStack() as stack:
        try:
            hub = stack.enter_context(Hub(curve=keys, listen=hosting.listen, limits=limits,
                                          server=f"arena {__version__}"))
        except ProtocolError as exc:
            raise RemoteError(str(exc)) from None
        assert hub.listening is not None
        endpoint = advertised(hub.listening, hosting.address)
        if log_dir is None:
            log_dir = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="arena-logs-")))
        handles: dict[int, BotHandle] = {}
        stack.callback(lambda: close_all(list(handles.values())))
        files: dict[str, Path] = {}
        stack.callback(_remove, files)
        for index, seat in enumerate(seats):
            if seat.remote:
                handles[index] = BotHandle.remote(seat.spec, hub)
                files[seat.spec.name] = write_connection_file(
                    hosting.connect_dir, seat.spec.name, endpoint, handles[index].peer.token,
                    keys.public.decode())
        if announce is not None:
            announce(files, endpoint)
        missing = wait_for(hub, [h.peer for h in handles.values()], hosting.wait, countdown)
        if missing:
            raise RemoteError(
                f"{', '.join(p.label for p in missing)} did not connect within {hosting.wait:g} s; "
                "nothing was played"
            )
        local = [i for i, seat in enumerate(seats) if not seat.remote]
        started = BotHandle.launch_all([seats[i].spec for i in local], hub, log_dir)
        handles.update(zip(local, started))
        record = play_match(game, config, seed, [handles[i] for i in range(len(seats))], control,
                            policy, on_decision=on_decision, clock=clock,
                            rejoin_grace=hosting.rejoin_grace)
    return record


def _remove(files: dict[str, Path]) -> None:
    """Remove the connection files (their tokens are good for this match only)."""
    for path in files.values():
        path.unlink(missing_ok=True)
