"""The bubblewrap command that runs one bot in its jail.

The bot gets new user, PID, mount, IPC, UTS and cgroup namespaces, and a new network namespace
unless its manifest keeps the network; a fresh ``/proc`` showing its own processes only; a minimal
``/dev``; the system runtime (``/usr`` and the ``/bin``/``/lib`` links, a few files of ``/etc``),
the Python runtime that runs the arena (its installation, virtual environment and the ``arena_bot``,
``protocols``, ``engine`` and ``bots`` packages bots may import) read-only; one private tmpfs of
``disk_bytes`` at ``/tmp`` as its home and scratch space (the only place it can write); and its hub
socket's folder, read-only. Its working folder is at the same path as outside, but private: an empty read-only
tmpfs into which only its own files (:mod:`arena.own_files`) are bound, read-only, each alone, so
nothing else of the folder it lives in (a tournament's config, the results database, other bots) is
there. It cannot gain privileges (``--cap-drop ALL``; bubblewrap sets ``no_new_privs``), cannot
make further user namespaces, has no controlling terminal to type into (the launcher gives it up,
see :func:`arena.launch.leave_terminal`) and dies with the launcher's bubblewrap process.

Folders of the runtime, the bot and its socket may sit where the bot's identity cannot look (such
as under ``/root``). With ``staged``, the referee's launcher reaches them before it gives up root: a
bind source written ``@PATH`` stands for ``PATH`` bound at a neutral path by the launcher (see
:func:`arena.launch.stage_sources`).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import arena_bot
import bots
import engine
import protocols

#: The bot's user and group id inside its namespace (outside it is its own identity).
INSIDE_ID = 1000
#: Its home, scratch space and working folder when it has no folder of its own.
HOME = "/tmp"
#: System folders bound read-only (or recreated as the same symbolic links).
SYSTEM = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
#: Files and folders of ``/etc`` a program may need; the rest of ``/etc`` is not there.
ETC = ("/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d", "/etc/alternatives",
       "/etc/localtime", "/etc/ssl", "/etc/ca-certificates", "/etc/nsswitch.conf", "/etc/mime.types")
#: What a bot with network also gets of ``/etc``.
ETC_NETWORK = ("/etc/resolv.conf", "/etc/hosts", "/etc/gai.conf", "/etc/services", "/etc/protocols")
#: Marks a bind source the launcher opens before switching identity.
PLACEHOLDER = "@"
#: Where the jail mounts its own ``/proc`` and ``/dev``.
KERNEL = ("/proc", "/dev")
#: The size of the empty tmpfs a bot's working folder is made of (it only holds mount points).
FOLDER_BYTES = 1 << 20


@dataclass(frozen=True, slots=True)
class Jail:
    """What one bot's jail holds besides the system runtime.

    ``folder``: its working folder, made private (see the module's docstring), or ``None`` to work
    in its tmpfs; ``files``: its own files and folders (:func:`arena.own_files.own_files`, less
    what :func:`bound_files` leaves out), each bound alone at its own path; ``socket_dir``: the folder of its hub socket; ``network``: keep
    the machine's network; ``disk_bytes``: the tmpfs size; ``staged``: sources are staged by the
    launcher (the referee is root).
    """

    folder: Path | None
    files: tuple[Path, ...]
    socket_dir: Path | None
    network: bool
    disk_bytes: int
    staged: bool


@cache
def runtime_folders() -> tuple[Path, ...]:
    """Folders of the Python runtime a bot may use: the installation, the virtual environment,
    and the ``arena_bot``, ``protocols``, ``engine`` and ``bots`` packages (the SDK, the wire, the
    game engines and the built-in bots, all public). Resolved once per process."""
    folders = {Path(sys.base_prefix).resolve(), Path(sys.prefix).resolve()}
    packages = (arena_bot, protocols, engine, bots)
    folders |= {Path(str(package.__file__)).parent.resolve() for package in packages}
    return tuple(sorted(folders))


def bot_path() -> str:
    """``PATH`` inside a jail: the arena's interpreter first, then the system's programs."""
    return f"{Path(sys.executable).parent}:/usr/local/bin:/usr/bin:/bin"


def bound_files(files: Sequence[Path]) -> tuple[Path, ...]:
    """``files`` but those the jail shows anyway (inside the runtime or the system folders)."""
    shown = [*runtime_folders(), *(Path(f) for f in SYSTEM)]
    return tuple(f for f in files if not any(f.is_relative_to(s) for s in shown))


def private_folder(folder: Path | None) -> bool:
    """Whether ``folder`` can be made an empty tmpfs: not the root, nor a folder holding the
    system, the bot's home or the kernel's file systems (those stay as the jail makes them), nor a
    folder of the runtime (shown whole anyway)."""
    if folder is None:
        return False
    if any(folder.is_relative_to(runtime) for runtime in runtime_folders()):
        return False
    return not any(Path(kept).is_relative_to(folder) for kept in (*SYSTEM, HOME, *KERNEL, "/etc"))


def _bind(jail: Jail, source: Path) -> list[str]:
    """Bind ``source`` read-only at the same path inside, staged by the launcher when ``staged``."""
    return ["--ro-bind", (PLACEHOLDER if jail.staged else "") + str(source), str(source)]


def jail_command(bwrap: str, jail: Jail, command: Sequence[str]) -> list[str]:
    """``bwrap`` and its arguments to run ``command`` in ``jail``; the environment is the one the
    launcher is started with (the caller gives it the bot's minimal environment)."""
    args = [bwrap, "--unshare-user", "--unshare-pid", "--unshare-ipc", "--unshare-uts",
            "--unshare-cgroup-try", "--disable-userns", "--uid", str(INSIDE_ID), "--gid", str(INSIDE_ID),
            "--hostname", "arena-bot", "--die-with-parent", "--cap-drop", "ALL"]
    if not jail.network:
        args.append("--unshare-net")
    for path in SYSTEM:
        if os.path.islink(path):
            args += ["--symlink", os.readlink(path), path]
        elif os.path.isdir(path):
            args += ["--ro-bind", path, path]
    for path in ETC + (ETC_NETWORK if jail.network else ()):
        args += ["--ro-bind-try", path, path]
    # The tmpfs first, as binds may land inside it.
    args += ["--size", str(jail.disk_bytes), "--perms", "0700", "--tmpfs", HOME]
    # Then the working folder's tmpfs, the binds landing in it, and only then is it made read-only.
    private = private_folder(jail.folder)
    if private:
        args += ["--size", str(FOLDER_BYTES), "--perms", "0755", "--tmpfs", str(jail.folder)]
    for file in jail.files:
        args += _bind(jail, file)
    for folder in runtime_folders():
        args += _bind(jail, folder)
    if jail.socket_dir is not None:
        args += _bind(jail, jail.socket_dir)
    if private:
        args += ["--remount-ro", str(jail.folder)]
    args += ["--proc", "/proc", "--dev", "/dev", "--remount-ro", "/dev", "--remount-ro", "/"]
    args += ["--chdir", str(jail.folder) if jail.folder is not None else HOME, "--", *command]
    return args
