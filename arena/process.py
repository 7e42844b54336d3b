"""A bot's operating-system process: started in its own process group under resource limits, with a
minimal environment, its output captured to a capped log, and always reaped.

An untrusted bot (any but a built-in or ``trusted`` one) runs in its sandbox (:mod:`arena.sandbox`):
bubblewrap's namespaces, an identity of its own when the referee is root, and control groups of its
own that :meth:`BotProcess.freeze`, :meth:`BotProcess.thaw`, :meth:`BotProcess.pin` and
:meth:`BotProcess.cpu_used` work on and that are killed whole at the end. A trusted bot runs in a
private working directory and (where the machine allows) without network, and in control groups
of its own too where this process may make them, without limits: for its CPU time, its freezing
between turns, its equal CPU weight and its processors, not to confine it. A bot without control
groups says why in :attr:`BotProcess.group_problem`.

Either way the bot's environment is ``PATH``, ``HOME`` and ``TMPDIR`` (its private folder), ``LANG``,
its manifest's ``env`` and the ``ARENA_*`` variables, never the referee's. The limits are applied by
:mod:`arena.launch`, which then ``exec``s the bot (see there for why not a ``preexec_fn``). :meth:`BotProcess.close` escalates: it waits a moment for the process to leave on its
own (after the caller's ``bye``), then sends SIGTERM to the whole process group, then SIGKILL, and
reaps. It is idempotent, and the process is a context manager, so no bot outlives its owner.
"""

from __future__ import annotations

import logging
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import IO

from arena.errors import ArenaError
from arena.filenames import file_part
from arena.launch import SCRIPT, Settings, encode_settings
from arena.manifest import SANDBOX_PROCESSES, BotSpec, ResourceLimits
from arena.sandbox import SandboxError
from arena.sandbox.cgroups import BotGroup, GroupLimits
from arena.sandbox.identity import identity_base
from arena.own_files import own_files
from arena.sandbox.jail import HOME, Jail, bot_path, bound_files, jail_command
from arena.sandbox.probe import INSTALL_HINT, bwrap_path

log = logging.getLogger(__name__)

_POLL = 0.005


def exit_text(status: int) -> str:
    """How a program ended, in words: ``exited with status N``, or for a negative status (killed
    by a signal) the signal's name, and for ``SIGXCPU`` that it used up its CPU-time limit."""
    if status >= 0:
        return f"exited with status {status}"
    try:
        name = signal.Signals(-status).name
    except ValueError:
        return f"was killed by signal {-status}"
    if name == "SIGXCPU":
        return "was killed by SIGXCPU: it used up its CPU-time limit (cpu_seconds)"
    return f"was killed by {name}"


class BotStartError(ArenaError):
    """A bot that could not be started or did not complete its handshake."""


def rlimits(limits: ResourceLimits) -> dict[str, int]:
    """``limits`` as the launcher's resource limits (:data:`arena.launch.LIMITS`)."""
    settings: dict[str, int] = {}
    if limits.memory_mb is not None:
        settings["as"] = limits.memory_mb << 20
    if limits.cpu_seconds is not None:
        settings["cpu"] = limits.cpu_seconds
    if limits.open_files is not None:
        settings["nofile"] = limits.open_files
    if limits.processes is not None:
        settings["nproc"] = limits.processes
    return settings


def launcher_command(command: Sequence[str], settings: Settings) -> list[str]:
    """The command line that runs ``command`` through :mod:`arena.launch` with ``settings``."""
    return [sys.executable, "-I", "-S", SCRIPT, encode_settings(settings), *command]


def bot_environment(spec: BotSpec, home: str, path: str, arena: Mapping[str, str]) -> dict[str, str]:
    """A bot's whole environment: ``PATH``, ``HOME`` and ``TMPDIR`` (``home``), ``LANG``, its
    manifest's ``env``, then the ``ARENA_*`` variables ``arena``."""
    base = {"PATH": path, "HOME": home, "TMPDIR": home, "LANG": os.environ.get("LANG", "C.UTF-8")}
    return {**base, **spec.env, **arena}


def sandbox_limits(limits: ResourceLimits) -> GroupLimits:
    """The control-group limits of a sandboxed bot: its processes, its memory for all of them, and
    the processors the starting thread may use now (a match slot's pinning)."""
    memory = None if limits.memory_mb is None else limits.memory_mb << 20
    pids = SANDBOX_PROCESSES if limits.processes is None else limits.processes
    return GroupLimits(pids, memory, frozenset(os.sched_getaffinity(0)))


@cache
def network_isolation_problem() -> str | None:
    """Why this machine cannot give bots a private network namespace, or ``None`` if it can.

    Probed once per process by running the launcher in a child (never in this process); a
    problem is logged as a warning once.
    """
    try:
        probe = subprocess.run([sys.executable, "-I", "-S", SCRIPT, "--probe"],
                               capture_output=True, text=True, timeout=30, check=False)
        problem = None if probe.returncode == 0 else (probe.stderr.strip() or f"probe exit {probe.returncode}")
    except (OSError, subprocess.SubprocessError) as exc:
        problem = f"probe failed: {exc}"
    if problem is not None:
        log.warning("bots keep the network: this machine cannot isolate it (%s)", problem)
    return problem


_warned: set[str] = set()


def _bot_group(name: str, limits: ResourceLimits) -> BotGroup | SandboxError:
    """New control groups for a sandboxed bot. As root, a failure is a :class:`BotStartError`;
    as an ordinary user, who may not be allowed any, the error (logged once)."""
    try:
        return BotGroup.create(sandbox_limits(limits))
    except SandboxError as exc:
        if os.geteuid() == 0:
            raise BotStartError(f"cannot sandbox bot {name!r}: {exc}") from None
        if str(exc) not in _warned:
            _warned.add(str(exc))
            log.warning("sandboxed bots run without control groups: %s (see arena doctor)", exc)
        return exc


def _trusted_group(name: str) -> BotGroup | SandboxError:
    """New control groups for a trusted bot (no process or memory limit), or the error where this
    machine or user cannot make them: a trusted bot then runs without."""
    try:
        return BotGroup.create(GroupLimits(None, None, frozenset(os.sched_getaffinity(0))))
    except SandboxError as exc:
        log.debug("trusted bot %r runs without control groups: %s", name, exc)
        return exc


def _find_program(program: str, cwd: Path, path: str | None) -> str | None:
    """Why ``program`` cannot be executed from ``cwd`` with ``PATH`` = ``path``, or ``None``."""
    if os.sep in program:
        target = Path(program) if os.path.isabs(program) else cwd / program
        if not target.is_file():
            return "no such file"
        return None if os.access(target, os.X_OK) else "not executable"
    return None if shutil.which(program, path=path) is not None else "not found on PATH"


def _check_readable(name: str, files: Sequence[Path]) -> None:
    """As root: raise :class:`BotStartError` with the fix if one of a bot's own ``files`` (or
    folders) is not readable by others, as the bot's own identity is."""
    for path in files:
        wanted = 0o005 if path.is_dir() else 0o004
        if path.stat().st_mode & wanted != wanted:
            raise BotStartError(f"cannot sandbox bot {name!r}: its file {path} is not readable by "
                                f"its own identity; make it so with: chmod -R o+rX {path}")


class BotProcess:
    """One running bot program. Start with :meth:`start` (or ``with``); :meth:`close` always reaps."""

    def __init__(
        self,
        spec: BotSpec,
        env: Mapping[str, str],
        log_path: Path,
        *,
        isolate_network: bool = False,
        socket_dir: str | None = None,
    ) -> None:
        """``env``: the ``ARENA_*`` variables; ``isolate_network``: run the bot without network
        (only for bots that reach the referee over ``ipc://``, which works in an empty network
        namespace); ``socket_dir``: the folder of the bot's own ``ipc://`` socket, bound into its
        sandbox."""
        self.spec = spec
        self.log_path = log_path
        self.isolate_network = isolate_network and not spec.network
        self.sandboxed = not spec.trusted
        self.group: BotGroup | None = None
        #: Why the started bot has no control groups (``None`` while it has them, or before start).
        self.group_problem: str | None = None
        self._arena_env = dict(env)
        self._socket_dir = socket_dir
        self._popen: subprocess.Popen[bytes] | None = None
        self._private_dir: Path | None = None
        self._copier: threading.Thread | None = None
        self._closed = False

    def __enter__(self) -> BotProcess:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def pid(self) -> int | None:
        """The process id (also its process group id) once started."""
        return None if self._popen is None else self._popen.pid

    def start(self) -> None:
        """Start the program; raises :class:`BotStartError` if it cannot be executed."""
        if self._popen is not None:
            raise RuntimeError("a BotProcess starts once")
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        program = self.spec.command[0]
        if self.sandboxed:
            cwd = self.spec.cwd or Path("/")
            env = bot_environment(self.spec, HOME, bot_path(), self._arena_env)
        else:
            self._private_dir = Path(tempfile.mkdtemp(prefix=f"arena-bot-{file_part(self.spec.name, 20)}-"))
            cwd = self.spec.cwd or self._private_dir
            env = bot_environment(self.spec, str(self._private_dir),
                                  os.environ.get("PATH", os.defpath), self._arena_env)
        problem = _find_program(program, self.spec.cwd or Path(HOME), env.get("PATH"))
        if problem is not None:
            self._remove_private_dir()
            raise BotStartError(f"cannot start bot {self.spec.name!r} ({program}): {problem}")
        if self.sandboxed:
            command = self._sandboxed_command()
        else:
            self._take_group(_trusted_group(self.spec.name))
            command = launcher_command(self.spec.command, Settings(
                rlimits(self.spec.limits), self.isolate_network and network_isolation_problem() is None,
                os.getpid(), () if self.group is None else tuple(str(f) for f in self.group.join_files),
            ))
        try:
            self._popen = subprocess.Popen(
                command,
                cwd=cwd,
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                # Its own process group, but not its own session: a new session would also get
                # its own scheduler autogroup on Linux, which slows every wake-up of the bot.
                process_group=0,
            )
        except (OSError, subprocess.SubprocessError) as exc:
            self._remove_private_dir()
            self._remove_group()
            raise BotStartError(f"cannot start bot {self.spec.name!r} ({program}): {exc}") from None
        assert self._popen.stdout is not None
        self._copier = threading.Thread(
            target=_copy_capped,
            args=(self._popen.stdout, self.log_path.open("wb"), self.spec.limits.log_bytes),
            name=f"log-{self.spec.name}",
            daemon=True,
        )
        self._copier.start()
        log.debug("started %s as pid %d", self.spec.name, self._popen.pid)

    def _sandboxed_command(self) -> list[str]:
        """The launcher command that runs the bot in its jail, its control groups made."""
        bwrap = bwrap_path()
        if bwrap is None:
            raise BotStartError(f"cannot sandbox bot {self.spec.name!r}: bubblewrap is missing; {INSTALL_HINT}")
        limits = self.spec.limits
        base = identity_base()
        files = bound_files(own_files(self.spec))
        if base is not None:
            _check_readable(self.spec.name, files)
        self._take_group(_bot_group(self.spec.name, limits))
        socket_dir = None if self._socket_dir is None else Path(self._socket_dir)
        jail = Jail(self.spec.cwd, files, socket_dir, not self.isolate_network, limits.disk_mb << 20,
                    staged=base is not None)
        settings = Settings(
            rlimits(limits), False, os.getpid(),
            tuple(str(f) for f in self.group.join_files) if self.group is not None else (),
            base, self._socket_dir if base is not None else None, no_tty=True,
        )
        return launcher_command(jail_command(bwrap, jail, self.spec.command), settings)

    def _take_group(self, made: BotGroup | SandboxError) -> None:
        """Keep the control groups made for the bot, or why there are none."""
        self.group, self.group_problem = (None, str(made)) if isinstance(made, SandboxError) else (made, None)

    def freeze(self) -> None:
        """Stop every process of the bot until :meth:`thaw` (without waiting for the kernel to
        finish), sandboxed or trusted; nothing for a bot without control groups."""
        if self.group is not None and not self._closed:
            self.group.freeze()

    def thaw(self) -> None:
        """Let a frozen bot run again."""
        if self.group is not None and not self._closed:
            self.group.thaw()

    def pin(self, cpus: frozenset[int]) -> None:
        """Let a bot with control groups run on ``cpus`` only (see :meth:`BotGroup.pin`); a bot
        whose group cannot take them (it is gone) is left as it is, with a warning."""
        if self.group is not None and not self._closed:
            try:
                self.group.pin(cpus)
            except SandboxError as exc:
                log.warning("%s keeps its processors: %s", self.spec.name, exc)

    def cpu_used(self) -> float | None:
        """Seconds of CPU used so far by every process of the bot; ``None`` without control
        groups."""
        if self.group is None or self._closed:
            return None
        return self.group.cpu_used()

    def exit_status(self) -> int | None:
        """The exit status if the program has ended (negative: killed by that signal), else ``None``.

        Does not reap, so the process group stays addressable until :meth:`close`.
        """
        if self._popen is None:
            return None
        if self._popen.returncode is not None:
            return self._popen.returncode
        try:
            info = os.waitid(os.P_PID, self._popen.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
        except ChildProcessError:
            return self._popen.wait()
        if info is None:
            return None
        if info.si_code != os.CLD_EXITED:
            return -info.si_status
        # Bubblewrap exits with 128 + the signal that killed the bot.
        return -(info.si_status - 128) if self.sandboxed and info.si_status > 128 else info.si_status

    def alive(self) -> bool:
        """Whether the program was started and has not ended."""
        return self._popen is not None and self.exit_status() is None

    def wait(self, timeout: float) -> bool:
        """Wait up to ``timeout`` seconds for the program to end on its own; whether it has."""
        deadline = time.monotonic() + timeout
        while self.exit_status() is None:
            if time.monotonic() >= deadline:
                return False
            time.sleep(_POLL)
        return True

    def close(self, grace: float = 1.0, term_grace: float = 1.0) -> int | None:
        """End the program and every process of its group; the leader's exit status. Idempotent.

        Waits ``grace`` seconds for a voluntary exit, then SIGTERM to the group, ``term_grace``
        seconds, then SIGKILL. Leftover members of the group are killed even after a clean exit.
        """
        close_processes([self], grace, term_grace)
        return None if self._popen is None else self._popen.returncode

    def _claim_close(self) -> bool:
        """Mark closed; whether there is a started, not yet closed program to end."""
        claimed = self._popen is not None and not self._closed
        self._closed = True
        return claimed

    def _reap(self) -> None:
        assert self._popen is not None
        status = self._popen.wait()
        if self._copier is not None:
            self._copier.join(timeout=2.0)
        self._remove_private_dir()
        self._remove_group()
        log.debug("%s (pid %d) exited with %d", self.spec.name, self._popen.pid, status)

    def _remove_group(self) -> None:
        if self.group is not None:
            self.group.remove()
            self.group = None

    def _remove_private_dir(self) -> None:
        if self._private_dir is not None:
            shutil.rmtree(self._private_dir, ignore_errors=True)
            self._private_dir = None

    def log_tail(self, lines: int = 5) -> str:
        """The last ``lines`` lines of the captured output, for error messages."""
        try:
            text = self.log_path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return ""
        return "\n".join(text.rstrip().splitlines()[-lines:])

    def _signal_group(self, sig: signal.Signals) -> None:
        """Send ``sig`` to the process group; for a sandboxed bot (whose processes may have left
        the group), to the processes of its control group but bubblewrap's, which would end them
        all at once. SIGKILL also kills a bot's control group whole."""
        assert self._popen is not None
        if self.group is not None and self.sandboxed and sig != signal.SIGKILL:
            self.group.signal_all(sig, spare=self._popen.pid)
            return
        try:
            os.killpg(self._popen.pid, sig)
        except (ProcessLookupError, PermissionError):
            pass
        if self.group is not None:
            self.group.kill()


def _copy_capped(source: IO[bytes], sink: IO[bytes], cap: int) -> None:
    """Copy ``source`` to ``sink`` until EOF, keeping at most ``cap`` bytes and draining the rest."""
    written = 0
    with source, sink:
        while chunk := os.read(source.fileno(), 65536):
            if written < cap:
                kept = chunk[: cap - written]
                sink.write(kept)
                written += len(kept)
                if written >= cap:
                    sink.write(f"\n[log truncated at {cap} bytes]\n".encode())
                sink.flush()


def close_processes(processes: Sequence[BotProcess], grace: float = 1.0, term_grace: float = 1.0) -> None:
    """Close several programs at once: the waits overlap, so the whole takes at most
    ``grace + term_grace`` seconds whatever the number. See :meth:`BotProcess.close`."""
    closing = [p for p in processes if p._claim_close()]
    for process in closing:
        if process.group is not None:
            process.group.thaw()  # a frozen bot could neither read its bye nor handle SIGTERM
    try:
        if not _wait_all(closing, grace):
            for process in closing:
                if process.exit_status() is None:
                    process._signal_group(signal.SIGTERM)
            if not _wait_all(closing, term_grace):
                log.warning("a bot ignored SIGTERM; killing its process group")
        for process in closing:
            process._signal_group(signal.SIGKILL)
    finally:
        for process in closing:
            process._reap()


def _wait_all(processes: Sequence[BotProcess], timeout: float) -> bool:
    """Wait up to ``timeout`` seconds for every program to end; whether they all have."""
    deadline = time.monotonic() + timeout
    while any(p.exit_status() is None for p in processes):
        if time.monotonic() >= deadline:
            return False
        time.sleep(_POLL)
    return True
