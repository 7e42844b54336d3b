"""The launcher every local bot starts through: set its limits in a fresh process, then ``exec`` it.

Limits are set here, in a single-threaded interpreter of its own, rather than in a ``preexec_fn``:
the referee runs threads (one log copier per bot, and a Dask worker's pool), and running Python
code between ``fork`` and ``exec`` of a threaded process can deadlock on a lock another thread held.
Setting them from outside after the start (``prlimit`` on the child's pid) would race the bot, which
could fork or allocate before they land.

Run as a script (``python -I -S launch.py SETTINGS COMMAND...``, see :mod:`arena.process`), it
imports almost nothing so that it starts in a few milliseconds. ``SETTINGS`` is the text of
:func:`encode_settings`, e.g. ``as=4294967296,cpu=3600,nofile=256,net=1,parent=4242``. Both the
soft and the hard limit are lowered, so an unprivileged bot cannot raise them again. With a
``parent``, the bot is killed when the thread that started it ends (Linux ``PR_SET_PDEATHSIG``), so
a referee killed outright cannot leave its bots running; the launcher exits at once if that parent
is already gone. A failure to execute the bot is reported on stderr with exit status 127;
``--probe`` exits 0 if a network namespace can be made here, else 1 saying why.

For a sandboxed bot (see :mod:`arena.sandbox`), ``COMMAND`` is its bubblewrap command and the
settings also say which control groups to join (``cg=``, the ``cgroup.procs`` files), and, when the
referee is root, the identity to switch to (``uid=BASE``: the bot runs as ``BASE + pid``) and the
folder of the bot's own hub socket (``sock=``). In that order the launcher joins the groups (as
root, so that the bot can never leave them), stages the bind sources of :mod:`arena.sandbox.jail`
that only root can reach (:func:`stage_sources`), hands the socket folder to the identity, drops every group and switches
ids (which also
drops every capability), sets ``no_new_privs``, and only then asks for the parent-death signal (a
change of identity clears it).
"""

from __future__ import annotations

import os
import resource
import sys

#: ``unshare(2)`` flag for a new network namespace (from <sched.h>).
CLONE_NEWNET = 0x40000000
#: Exit status when the bot's program cannot be executed (as a shell reports it).
EXEC_FAILED = 127
#: ``prctl(2)`` option: the signal this process gets when its parent thread ends.
PR_SET_PDEATHSIG = 1
#: ``SIGKILL`` on Linux, written out: importing :mod:`signal` (and its enums) would add about 4 ms
#: to the start of every bot.
SIGKILL = 9
#: ``prctl(2)`` option: no ``exec`` may grant privileges from now on.
PR_SET_NO_NEW_PRIVS = 38
#: Bubblewrap options whose next argument may be a source for the launcher to stage.
BIND_OPTIONS = ("--ro-bind", "--bind")
#: Where staged bind sources appear, in the launcher's private mount namespace.
STAGE = "/tmp"
#: ``unshare(2)`` flag for a new mount namespace, and ``mount(2)`` flags (from <sys/mount.h>).
CLONE_NEWNS = 0x00020000
MS_NOSUID, MS_NODEV, MS_BIND, MS_REC, MS_PRIVATE = 0x2, 0x4, 0x1000, 0x4000, 0x40000
#: Seconds between SIGXCPU at the CPU limit and SIGKILL, for a bot that catches SIGXCPU.
CPU_KILL_AFTER = 2
#: The path to run this file as a script.
SCRIPT = os.path.abspath(__file__)

#: Setting names: address space (bytes), CPU seconds, open files, processes.
LIMITS = {
    "as": resource.RLIMIT_AS,
    "cpu": resource.RLIMIT_CPU,
    "nofile": resource.RLIMIT_NOFILE,
    "nproc": resource.RLIMIT_NPROC,
}


class Settings:
    """What the launcher does before ``exec``: ``limits`` by the names of :data:`LIMITS`, whether
    to leave the network, the pid whose end kills the bot, the ``cgroup.procs`` files to join, the
    base of the identity to switch to (``None``: keep this one), the folder of its hub socket, and
    whether to give up the controlling terminal.

    A plain class: :mod:`dataclasses` alone would double the launcher's start time.
    """

    __slots__ = ("limits", "no_network", "parent", "cgroups", "uid_base", "socket", "no_tty")

    def __init__(self, limits: dict[str, int] | None = None, no_network: bool = False,
                 parent: int | None = None, cgroups: tuple[str, ...] = (),
                 uid_base: int | None = None, socket: str | None = None, no_tty: bool = False) -> None:
        self.limits = {} if limits is None else limits
        self.no_network = no_network
        self.parent = parent
        self.cgroups = cgroups
        self.uid_base = uid_base
        self.socket = socket
        self.no_tty = no_tty

    def _fields(self) -> tuple[object, ...]:
        return (self.limits, self.no_network, self.parent, self.cgroups, self.uid_base, self.socket,
                self.no_tty)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Settings) and self._fields() == other._fields()

    def __repr__(self) -> str:
        return f"Settings{self._fields()!r}"


def encode_settings(settings: Settings) -> str:
    """The launcher's first argument; ``ValueError`` for an unknown limit or a path holding ``,``."""
    unknown = sorted(set(settings.limits) - set(LIMITS))
    if unknown:
        raise ValueError(f"unknown limit {unknown[0]!r}")
    parts = [f"{name}={value}" for name, value in sorted(settings.limits.items())]
    parts.append(f"net={0 if settings.no_network else 1}")
    if settings.parent is not None:
        parts.append(f"parent={settings.parent}")
    parts += [f"cg={path}" for path in settings.cgroups]
    if settings.uid_base is not None:
        parts.append(f"uid={settings.uid_base}")
    if settings.socket is not None:
        parts.append(f"sock={settings.socket}")
    if settings.no_tty:
        parts.append("tty=0")
    if any("," in part for part in parts):
        raise ValueError(f"a path in the launcher's settings holds a comma: {parts}")
    return ",".join(parts)


def parse_settings(text: str) -> Settings:
    """The :class:`Settings` of :func:`encode_settings`'s text; ``ValueError`` if malformed."""
    limits: dict[str, int] = {}
    found: dict[str, str] = {}
    cgroups: list[str] = []
    for part in text.split(","):
        name, _, value = part.partition("=")
        if name in LIMITS:
            limits[name] = int(value)
        elif name == "cg":
            cgroups.append(value)
        elif name in ("net", "parent", "uid", "sock", "tty"):
            found[name] = value
        else:
            raise ValueError(f"unknown setting {part!r}")
    return Settings(
        limits,
        found.get("net") == "0",
        int(found["parent"]) if "parent" in found else None,
        tuple(cgroups),
        int(found["uid"]) if "uid" in found else None,
        found.get("sock"),
        found.get("tty") == "0",
    )


def unshare_network() -> str | None:
    """Move this process into a new, empty network namespace; ``None`` on success, else why not."""
    import ctypes  # only when asked: it costs more to import than the rest of this script

    libc = ctypes.CDLL(None, use_errno=True)
    if libc.unshare(CLONE_NEWNET) != 0:
        return os.strerror(ctypes.get_errno())
    return None


def _apply_limit(which: int, value: int, hard_extra: int) -> None:
    _, hard = resource.getrlimit(which)
    soft = value if hard == resource.RLIM_INFINITY else min(value, hard)
    ceiling = soft + hard_extra
    if hard != resource.RLIM_INFINITY:
        ceiling = min(ceiling, hard)
    resource.setrlimit(which, (soft, ceiling))


_libc: list[object] = []


def _load_libc() -> object:
    """The C library through :mod:`ctypes`, loaded once (before the launcher gives up root: the
    interpreter's files may not be readable afterwards)."""
    if not _libc:
        import ctypes  # only when needed: it costs more to import than the rest of this script

        _libc.append(ctypes.CDLL(None, use_errno=True))
    return _libc[0]


def _prctl(option: int, value: int) -> bool:
    try:
        libc = _load_libc()
        return bool(libc.prctl(option, value, 0, 0, 0) == 0)  # type: ignore[attr-defined]
    except (OSError, AttributeError):
        return False


def signal_on_parent_death(signum: int) -> bool:
    """Ask Linux to send ``signum`` to this process when the thread that started it ends;
    ``False`` where the system cannot (no ``prctl``)."""
    return _prctl(PR_SET_PDEATHSIG, signum)


def die_with(parent: int) -> bool:
    """Be killed when the thread that started this process ends; ``False`` if ``parent`` has
    already gone (the launcher then exits). Where ``prctl`` is missing, only the check is made."""
    signal_on_parent_death(SIGKILL)
    return os.getppid() == parent


def _check(result: int, what: str) -> None:
    if result != 0:
        import ctypes

        raise OSError(ctypes.get_errno(), f"{what}: {os.strerror(ctypes.get_errno())}")


def stage_sources(command: list[str]) -> list[str]:
    """As root: ``command`` with every ``@PATH`` bind source replaced by a path under
    :data:`STAGE` where ``PATH`` is bound, in a private mount namespace of this process.

    Bubblewrap resolves bind sources as the bot's identity, which cannot reach folders such as
    ``/root`` (where the Python runtime may live) or a private test folder. A fresh tmpfs over
    :data:`STAGE`, seen by this process alone, holds each source's bind at a neutral path; the host's
    mounts are untouched. Sources are opened (in the new namespace, as a bind needs) before the tmpfs
covers anything.
    """
    slots = []
    for i in range(1, len(command)):
        if command[i] == "--":
            break
        if command[i - 1] in BIND_OPTIONS and command[i].startswith("@"):
            slots.append(i)
    if not slots:
        return command
    staged = list(command)
    libc = _load_libc()
    _check(libc.unshare(CLONE_NEWNS), "unshare(CLONE_NEWNS)")  # type: ignore[attr-defined]
    _check(libc.mount(b"none", b"/", None, MS_REC | MS_PRIVATE, None), "private mounts")  # type: ignore[attr-defined]
    fds = [os.open(command[i][1:], os.O_PATH | os.O_CLOEXEC) for i in slots]
    _check(libc.mount(b"arena-stage", STAGE.encode(), b"tmpfs", MS_NOSUID | MS_NODEV,  # type: ignore[attr-defined]
                      b"mode=0755"), "staging tmpfs")
    for n, (i, fd) in enumerate(zip(slots, fds)):
        source, target = f"/proc/self/fd/{fd}", f"{STAGE}/{n}"
        if os.path.isdir(source):
            os.mkdir(target)
        else:
            os.close(os.open(target, os.O_CREAT | os.O_WRONLY, 0o644))
        _check(libc.mount(source.encode(), target.encode(), None, MS_BIND | MS_REC, None),  # type: ignore[attr-defined]
               f"bind {command[i][1:]}")
        os.close(fd)
        staged[i] = target
    return staged


def leave_terminal() -> None:
    """Give up the controlling terminal, if any, so that nothing started from here can open
    ``/dev/tty`` and type into the organiser's shell (``TIOCSTI``). Cheaper for the bot than a
    session of its own, which would also put it in a scheduler autogroup of its own and slow each
    of its wake-ups."""
    try:
        fd = os.open("/dev/tty", os.O_RDWR | os.O_NOCTTY)
    except OSError:
        return  # no controlling terminal
    import fcntl
    import termios

    try:
        fcntl.ioctl(fd, termios.TIOCNOTTY)
    finally:
        os.close(fd)


def hand_over(socket_dir: str, uid: int) -> None:
    """As root: give ``socket_dir`` (the bot's own hub socket folder) and what it holds to ``uid``."""
    os.chown(socket_dir, uid, uid)
    for name in os.listdir(socket_dir):
        os.chown(os.path.join(socket_dir, name), uid, uid)


def become(uid: int) -> None:
    """As root: switch to user and group ``uid`` with no supplementary groups, which drops every
    capability."""
    os.setgroups([])
    os.setresgid(uid, uid, uid)
    os.setresuid(uid, uid, uid)


def apply(settings: Settings, command: list[str]) -> list[str]:
    """Set up this process as ``settings`` say (see the module's docstring) and return the command
    to ``exec``; raises ``ProcessLookupError`` if the parent is gone, ``OSError`` on failure."""
    for name, value in settings.limits.items():
        _apply_limit(LIMITS[name], value, CPU_KILL_AFTER if name == "cpu" else 0)
    for procs in settings.cgroups:
        with open(procs, "w") as file:
            file.write(str(os.getpid()))
    if settings.no_tty:
        leave_terminal()
    if settings.uid_base is not None:
        uid = settings.uid_base + os.getpid()
        if settings.socket is not None:
            hand_over(settings.socket, uid)  # before staging covers the folder it is in
        command = stage_sources(command)
        become(uid)
    if settings.cgroups and not _prctl(PR_SET_NO_NEW_PRIVS, 1):
        raise OSError("cannot set no_new_privs")
    if settings.parent is not None and not die_with(settings.parent):
        raise ProcessLookupError(f"the referee (pid {settings.parent}) is gone")
    if settings.no_network:
        problem = unshare_network()
        if problem is not None:
            sys.stderr.write(f"arena-launch: running without network isolation: {problem}\n")
            sys.stderr.flush()
    return command


def main(argv: list[str]) -> int:
    """Apply the settings in ``argv[0]`` and ``exec`` ``argv[1:]``; returns only on failure."""
    if argv == ["--probe"]:
        problem = unshare_network()
        if problem is not None:
            sys.stderr.write(f"unshare(CLONE_NEWNET) failed: {problem}\n")
        return 0 if problem is None else 1
    if len(argv) < 2:
        sys.stderr.write("usage: launch.py SETTINGS COMMAND [ARG...]\n")
        return 2
    try:
        command = apply(parse_settings(argv[0]), argv[1:])
    except (ValueError, OSError) as exc:
        sys.stderr.write(f"arena-launch: cannot apply {argv[0]!r}: {exc}\n")
        return EXEC_FAILED
    try:
        os.execvp(command[0], command)
    except OSError as exc:
        sys.stderr.write(f"arena-launch: cannot execute {command[0]!r}: {exc.strerror}\n")
    return EXEC_FAILED


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
