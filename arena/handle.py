"""A bot the referee can seat: a peer on a hub, and the local process behind it if there is one.

:meth:`BotHandle.launch` starts a local bot and waits for its handshake; :meth:`BotHandle.remote`
only announces a token for a bot that will connect from elsewhere. A handle can tell whether its
bot is still usable (:meth:`BotHandle.alive`), restart it (:meth:`BotHandle.restart`) and close it
(``bye``, then the process escalation of :class:`BotProcess`).

A local bot with control groups of its own (sandboxed or trusted, built-ins included) is frozen
once it has greeted: the referee thaws it (:meth:`BotHandle.thaw`) when it asks it to act and
freezes it (:meth:`BotHandle.freeze`) when its reply is in, so it runs on its own clock only;
:meth:`BotHandle.cpu_used` is the CPU time all its processes have used, so it may be held to the
CPU clock (:attr:`BotHandle.cpu_clock_problem` says why a bot may not). For remote bots, and bots
without control groups, these do nothing (``cpu_used`` is ``None``).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from arena.filenames import file_part
from arena.manifest import BotSpec
from arena.process import BotProcess, BotStartError, close_processes, exit_text
from protocols.errors import PeerGone
from protocols.messages import ENV_ENDPOINT, ENV_SERVER_KEY, ENV_TOKEN, Bye
from protocols.transport import Hub, Peer

log = logging.getLogger(__name__)

#: Seconds a started bot has to connect and say hello.
HANDSHAKE_TIMEOUT = 10.0
#: How a start failure says the bot's program ended before its hello.
EXITED_EARLY = "before saying hello"


@dataclass(eq=False)
class BotHandle:
    """One bot as the referee sees it. ``process`` is ``None`` for a remote bot."""

    spec: BotSpec
    hub: Hub
    peer: Peer
    process: BotProcess | None = None
    log_dir: Path | None = None
    failure: str | None = None
    starts: int = 1

    @property
    def name(self) -> str:
        """The bot's name, as recorded in match records."""
        return self.spec.name

    @classmethod
    def launch(
        cls, spec: BotSpec, hub: Hub, log_dir: Path, handshake_timeout: float = HANDSHAKE_TIMEOUT
    ) -> BotHandle:
        """Start ``spec`` as a local process and wait for its handshake.

        Raises :class:`BotStartError` (with the end of the bot's log) if it fails to start or greet.
        """
        handle = cls(spec, hub, hub.expect(spec.name), log_dir=log_dir)
        handle._spawn()
        handle._admit()
        handle._await_hello(time.monotonic() + handshake_timeout)
        return handle

    @classmethod
    def launch_all(
        cls,
        specs: list[BotSpec],
        hub: Hub,
        log_dir: Path,
        handshake_timeout: float = HANDSHAKE_TIMEOUT,
    ) -> list[BotHandle]:
        """Start every bot at once and wait for their handshakes; never raises for a bad bot.

        A bot that fails gets a handle with ``failure`` set; it is never :meth:`alive`.
        """
        handles: list[BotHandle] = []
        for spec in specs:
            handle = cls(spec, hub, hub.expect(spec.name), log_dir=log_dir)
            try:
                handle._spawn()
            except BotStartError as exc:
                hub.forget(handle.peer)
                handle.failure = str(exc)
            handles.append(handle)
        for handle in handles:  # every bot already starting: the first admission's wait overlaps all
            handle._admit()
        deadline = time.monotonic() + handshake_timeout
        for handle in handles:
            if handle.failure is None:
                try:
                    handle._await_hello(deadline)
                except BotStartError as exc:
                    handle.failure = str(exc)
        return handles

    @classmethod
    def remote(cls, spec: BotSpec, hub: Hub, token: str | None = None) -> BotHandle:
        """Announce a bot that connects by itself with the handle's ``peer.token``: to the hub's
        ``tcp://`` endpoint where it listens on one (a remote peer, which may reconnect; see
        :class:`~protocols.transport.Hub`), else to ``peer.endpoint``."""
        return cls(spec, hub, hub.expect(spec.name, token, remote=hub.listening is not None))

    def alive(self) -> bool:
        """Whether the bot is connected and (for a local bot) its process is running."""
        if not self.peer.connected:
            return False
        return self.process is None or self.process.alive()

    def thaw(self) -> None:
        """Let a frozen bot run (it is about to be asked to act)."""
        if self.process is not None:
            self.process.thaw()

    def freeze(self) -> None:
        """Stop the bot until :meth:`thaw` (without waiting for every process to stop)."""
        if self.process is not None:
            self.process.freeze()

    def pin(self, cpus: frozenset[int]) -> None:
        """Keep a local bot with control groups on ``cpus`` (nothing for the others)."""
        if self.process is not None:
            self.process.pin(cpus)

    def ping(self, timeout: float) -> float | None:
        """Round-trip seconds of a ``ping`` (the bot thawed meanwhile), ``None`` without a
        ``pong`` in ``timeout`` seconds."""
        self.thaw()
        try:
            return self.hub.ping(self.peer, timeout)
        finally:
            self.freeze()

    def cpu_used(self) -> float | None:
        """Seconds of CPU used so far by all the bot's processes, or ``None`` where not measured
        (remote bots, or bots without control groups)."""
        return None if self.process is None else self.process.cpu_used()

    @property
    def cpu_clock_problem(self) -> str | None:
        """Why the bot cannot be held to the CPU clock, or ``None`` if it can: a local bot whose
        control groups measure its CPU time and freeze it between turns."""
        if self.peer.remote:
            return f"{self.name!r} is a remote seat, timed on the wall clock"
        if self.process is None:
            return f"{self.name!r} is not a process started here, so its CPU time is not measured"
        if self.cpu_used() is None:
            why = self.process.group_problem or "its process has ended"
            return (f"{self.name!r} has no control group to measure its CPU time ({why}; run as "
                    f"root or with a delegated cgroup: see arena doctor)")
        return None

    def restart(self, handshake_timeout: float = HANDSHAKE_TIMEOUT) -> None:
        """Close a local bot and start it afresh (a new token); raises :class:`BotStartError`."""
        if self.log_dir is None:
            raise BotStartError(f"{self.name} is a remote bot and cannot be restarted here")
        self.close()
        self.peer = self.hub.expect(self.spec.name)
        self.failure = None
        self.starts += 1
        self._spawn()
        self._admit()
        self._await_hello(time.monotonic() + handshake_timeout)

    def say_bye(self, reason: str = "closing") -> None:
        """Thaw the bot, send ``bye`` if it is connected, and stop listening to it."""
        self.thaw()
        if self.peer.connected:
            try:
                self.hub.send(self.peer, Bye(reason))
            except PeerGone:
                pass
        self.hub.forget(self.peer)

    def close(self, grace: float = 1.0) -> int | None:
        """Say ``bye``, end the process (escalating), forget the peer. Idempotent.

        Returns the process's exit status, or ``None`` for a remote bot.
        """
        self.say_bye()
        return None if self.process is None else self.process.close(grace)

    def _spawn(self) -> None:
        assert self.log_dir is not None
        env = {ENV_ENDPOINT: self.peer.endpoint, ENV_TOKEN: self.peer.token}
        server_key = self.hub.server_key(self.peer)
        if server_key is not None:
            env[ENV_SERVER_KEY] = server_key.decode()
        folder = self.spec.log_dir or self.log_dir
        log_path = folder / f"{file_part(self.spec.name)}-{self.peer.token[:8]}.log"
        # An ipc:// endpoint is a file path, reachable from an empty network namespace.
        local = self.hub.endpoint.startswith("ipc://")
        self.process = BotProcess(self.spec, env, log_path, isolate_network=local,
                                  socket_dir=self.hub.private_folder(self.peer))
        self.process.start()

    def _admit(self) -> None:
        """Move a started sandboxed bot's launcher into its control groups from here, while the
        launcher is still starting up (see :meth:`~arena.sandbox.cgroups.BotGroup.admit`)."""
        process = self.process
        if process is not None and process.group is not None and process.pid is not None:
            process.group.admit(process.pid)

    def _await_hello(self, deadline: float) -> None:
        assert self.process is not None
        while not self.peer.connected:
            status = self.process.exit_status()
            if status is not None or time.monotonic() >= deadline:
                self.process.close(grace=0)
                self.hub.forget(self.peer)
                why = (
                    f"{exit_text(status)} {EXITED_EARLY}"
                    if status is not None
                    else "did not say hello in time"
                )
                tail = self.process.log_tail()
                raise BotStartError(
                    f"bot {self.name!r} {why}" + (f"; its output ends:\n{tail}" if tail else "")
                )
            self.hub.wait_connected([self.peer], 0.02)
        self.process.freeze()


def unaccounted(handles: Sequence[BotHandle]) -> str | None:
    """Why the CPU clock cannot time a table of ``handles`` (the first seat's reason), or ``None``
    if it can. Only seats usable at the start count: a local bot that is not running is forfeited
    at once, and a remote seat not yet connected is judged on elapsed time if it joins late."""
    for handle in handles:
        if handle.alive():
            problem = handle.cpu_clock_problem
            if problem is not None:
                return problem
    return None


def close_all(handles: list[BotHandle], grace: float = 1.0) -> None:
    """Say ``bye`` to every bot, then end all their processes together (the waits overlap)."""
    for handle in handles:
        handle.say_bye()
    close_processes([h.process for h in handles if h.process is not None], grace)
