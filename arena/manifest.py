"""Which bot to run: built-in names, command lines, and bot manifests (TOML).

A manifest describes one bot::

    name = "mybot"
    version = "2.1"
    command = ["python3", "mybot.py", "--depth", "3"]   # or one string, split like a shell
    cwd = "."                                           # relative to the manifest's folder
    files = ["book.bin", "weights/"]                    # more files or folders it may read
    network = false                                     # true: keep the machine's network
    nodes = 2000                                        # optional node budget, as ARENA_NODES
    trusted = false                                     # true: may run outside the sandbox
    [env]
    MYBOT_THREADS = "1"
    [limits]                                            # all optional
    memory_mb = 2048     # address space
    cpu_seconds = 600    # CPU time over the whole process life
    open_files = 256
    processes = 64       # per user, as RLIMIT_NPROC counts; in the sandbox, all its processes
    disk_mb = 64         # in the sandbox: its private tmpfs (/tmp, its home)
    log_kb = 1024        # cap of the captured stdout/stderr

A bot without a working directory (a built-in bot, or a :class:`BotSpec` made without ``cwd``) runs
in a fresh private directory; a bot given as a command line runs where the arena was started, since
its paths are relative to it. In the sandbox it sees of that folder only its own files: those its
command names, and the manifest's ``files`` (paths inside its working folder; see
:mod:`arena.own_files`). What these limits do and do not isolate: ``docs/isolation.md``.
"""

from __future__ import annotations

import os
import shlex
import shutil
import sys
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import bots
from arena.errors import ArenaError
from protocols.messages import ENV_NODES

#: Processes and threads a sandboxed bot may have at once when its manifest sets no ``processes``.
SANDBOX_PROCESSES = 256


class ManifestError(ArenaError):
    """A bot that cannot be resolved: unknown name, missing command, bad manifest."""


@dataclass(frozen=True, slots=True)
class ResourceLimits:
    """Per-process limits, enforced by the operating system; ``None`` leaves the inherited limit.

    ``memory_mb``: address space (MiB); ``cpu_seconds``: CPU time over the process's whole life
    (thinking between turns included); ``open_files``: descriptors; ``processes``: RLIMIT_NPROC,
    which counts every process of the user, not of the bot, so it is off by default (a sandboxed
    bot has an identity of its own, and its control group allows ``processes`` processes and
    threads, :data:`SANDBOX_PROCESSES` when unset); ``disk_mb``: the sandbox's private tmpfs;
    ``log_bytes``: cap of the captured stdout and stderr. In the sandbox, ``memory_mb`` also limits
    the resident memory of all the bot's processes together.
    """

    memory_mb: int | None = 4096
    cpu_seconds: int | None = 3600
    open_files: int | None = 256
    processes: int | None = None
    log_bytes: int = 1 << 20
    disk_mb: int = 64


@dataclass(frozen=True, slots=True)
class BotSpec:
    """How to start one bot: its name, command line, working directory (``None``: a fresh private
    one), extra environment, limits, whether a local bot keeps the network (``network``), and
    whether it may run outside the sandbox (``trusted``: built-in bots and the organiser's own).
    ``files``: absolute paths of more files and folders (inside ``cwd``) the bot may read, besides
    those its command names. ``log_dir``: where its output is captured (``None``: wherever its
    launcher keeps logs)."""

    name: str
    command: tuple[str, ...]
    cwd: Path | None = None
    env: Mapping[str, str] = field(default_factory=dict)
    version: str = ""
    limits: ResourceLimits = ResourceLimits()
    network: bool = False
    trusted: bool = False
    files: tuple[Path, ...] = ()
    log_dir: Path | None = None


def builtin_bots() -> list[str]:
    """Names of the built-in bots (modules ``bots/<name>.py`` not starting with ``_``)."""
    folder = Path(bots.__file__).parent
    return sorted(p.stem for p in folder.glob("*.py") if not p.stem.startswith("_"))


def resolve_bot(text: str) -> BotSpec:
    """A built-in bot name, a path to a manifest ``.toml``, or a command line, as a :class:`BotSpec`.

    Raises :class:`ManifestError` when the name, file or command cannot be found.
    """
    text = text.strip()
    if not text:
        raise ManifestError("empty bot: give a built-in name, a command or a manifest file")
    if text in builtin_bots():
        return BotSpec(text, (sys.executable, "-m", f"bots.{text}"), version="builtin", trusted=True)
    if text.endswith(".toml"):
        return load_manifest(Path(text))
    try:
        command = tuple(shlex.split(text))
    except ValueError as exc:
        raise ManifestError(f"cannot split bot command {text!r}: {exc}") from None
    _check_executable(command[0], None, text)
    return BotSpec(_name_of(command), command, Path.cwd())


def _name_of(command: tuple[str, ...]) -> str:
    """A short name for a command line: its script's stem (``python3 mybot.py``), else the program's."""
    if len(command) > 1 and (Path(command[1]).suffix or os.sep in command[1]):
        return Path(command[1]).stem
    return Path(command[0]).name


def load_manifest(path: Path) -> BotSpec:
    """Read a bot manifest; raises :class:`ManifestError` naming the file and the problem."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ManifestError(f"bot manifest {path} does not exist") from None
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ManifestError(f"cannot read bot manifest {path}: {exc}") from None
    try:
        return _spec_from(data, path.parent)
    except (KeyError, TypeError, ValueError) as exc:
        raise ManifestError(f"bot manifest {path}: {exc}") from None


def _spec_from(data: dict[str, Any], base: Path) -> BotSpec:
    unknown = sorted(set(data) - {"name", "version", "command", "cwd", "env", "limits", "network", "nodes",
                                  "trusted", "files"})
    if unknown:
        raise ValueError(f"unknown key {unknown[0]!r}")
    name = data["name"]
    if not isinstance(name, str) or not name:
        raise ValueError("'name' must be a non-empty string")
    raw = data["command"]
    if isinstance(raw, str):
        command = tuple(shlex.split(raw))
    elif isinstance(raw, list) and raw and all(isinstance(a, str) for a in raw):
        command = tuple(raw)
    else:
        raise ValueError("'command' must be a string or a non-empty list of strings")
    if not command:
        raise ValueError("'command' is empty")
    cwd = (base / str(data.get("cwd", "."))).resolve()
    if not cwd.is_dir():
        raise ValueError(f"working directory {cwd} does not exist")
    env = data.get("env", {})
    if not isinstance(env, dict) or not all(isinstance(v, str) for v in env.values()):
        raise ValueError("'env' must be a table of strings")
    network = data.get("network", False)
    if not isinstance(network, bool):
        raise ValueError("'network' must be true or false")
    trusted = data.get("trusted", False)
    if not isinstance(trusted, bool):
        raise ValueError("'trusted' must be true or false")
    if "nodes" in data:
        env = {**env, ENV_NODES: str(node_count(data["nodes"]))}
    _check_executable(command[0], cwd, name)
    return BotSpec(name, command, cwd, dict(env), str(data.get("version", "")),
                   _limits(data.get("limits", {})), network, trusted, _files(data.get("files", []), cwd))


def _files(raw: object, cwd: Path) -> tuple[Path, ...]:
    """A manifest's ``files``: existing files or folders strictly inside ``cwd``, named relative
    to it; absolute, with ``..`` folded."""
    if not isinstance(raw, list) or not all(isinstance(f, str) and f for f in raw):
        raise ValueError("'files' must be a list of paths relative to the bot's folder")
    files = []
    for name in raw:
        path = Path(os.path.normpath(cwd / name))
        if os.path.isabs(name) or path == cwd or not path.is_relative_to(cwd):
            raise ValueError(f"'files' entry {name!r} must name a file or folder inside the bot's "
                             f"folder {cwd}")
        if not path.exists():
            raise ValueError(f"'files' entry {name!r}: {path} does not exist")
        files.append(path)
    return tuple(files)


def node_count(value: object) -> int:
    """A node budget (``nodes``): a positive whole number; ``ValueError`` naming the key otherwise."""
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise ValueError(f"'nodes' must be a positive whole number, not {value!r}")
    return value


def _limits(raw: object) -> ResourceLimits:
    if not isinstance(raw, dict):
        raise ValueError("'limits' must be a table")
    known = {"memory_mb", "cpu_seconds", "open_files", "processes", "log_kb", "disk_mb"}
    unknown = sorted(set(raw) - known)
    if unknown:
        raise ValueError(f"unknown limit {unknown[0]!r}; limits: {', '.join(sorted(known))}")
    for key, value in raw.items():
        if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
            raise ValueError(f"limit {key!r} must be a positive whole number")
    default = ResourceLimits()
    return ResourceLimits(
        memory_mb=raw.get("memory_mb", default.memory_mb),
        cpu_seconds=raw.get("cpu_seconds", default.cpu_seconds),
        open_files=raw.get("open_files", default.open_files),
        processes=raw.get("processes", default.processes),
        log_bytes=raw["log_kb"] * 1024 if "log_kb" in raw else default.log_bytes,
        disk_mb=raw.get("disk_mb", default.disk_mb),
    )


def _check_executable(program: str, cwd: Path | None, what: str) -> None:
    if os.sep in program:
        path = Path(program) if cwd is None else cwd / program
        if not (path.is_file() and os.access(path, os.X_OK)):
            raise ManifestError(f"bot command {program!r} for {what!r} is not an executable file")
    elif shutil.which(program) is None:
        raise ManifestError(
            f"bot command {program!r} not found on PATH; built-in bots: {', '.join(builtin_bots())}"
        )
