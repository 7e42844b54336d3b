"""A bot's own files: what its command names and what its manifest lists, wherever they are.

These, and nothing else of the bot's folder, are what a sandboxed bot sees (bound read-only alone,
see :mod:`arena.sandbox.jail`) and what a tournament fingerprints. A command names a file by an
argument that is an existing file, absolute or relative to the bot's working folder
(``python3 mybot.py``, ``./mybot``, ``python3 ../bots/mine.py``), and a package by
``-m package.module``: the package's folder (or ``module.py``) in the working folder. A manifest
adds its ``files`` (files or folders inside its working folder). A folder the command merely
names (``python3 bot.py --data .``) is not one of them: a bot that needs a folder lists it.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import NamedTuple

from arena.manifest import BotSpec


class CommandName(NamedTuple):
    """One argument of a bot's command that may name its code: a module (after ``-m``) or,
    otherwise, possibly a file."""

    arg: str
    module: bool


def command_names(command: Sequence[str]) -> Iterator[CommandName]:
    """Every argument of ``command``, its program first, in order, each marked as the module of a
    ``-m`` or not: the one reading of a command line both the sandbox's view (:func:`own_files`)
    and the tournament's fingerprint (:func:`arena.tournament.botfiles.bot_files`) resolve."""
    for i, arg in enumerate(command):
        yield CommandName(arg, i > 0 and command[i - 1] == "-m")


def own_files(spec: BotSpec) -> tuple[Path, ...]:
    """The absolute paths, as the bot names them (``..`` folded, links kept), of the files and
    folders ``spec`` may see, in the order named, without repeats."""
    found: dict[Path, None] = {}
    for arg, module in command_names(spec.command):
        if module:
            package = _module_source(arg, spec.cwd)
            if package is not None:
                found[package] = None
            continue
        path = _absolute(arg, spec.cwd)
        if path is not None and path.is_file():
            found[path] = None
    found.update(dict.fromkeys(spec.files))
    return tuple(found)


def files_within(paths: tuple[Path, ...]) -> list[Path]:
    """``paths`` with every folder replaced by the files it holds (at any depth), sorted."""
    files: set[Path] = set()
    for path in paths:
        if path.is_dir():
            files.update(p for p in path.rglob("*") if p.is_file())
        elif path.is_file():
            files.add(path)
    return sorted(files)


def _absolute(arg: str, cwd: Path | None) -> Path | None:
    """``arg`` as an absolute path with ``..`` folded, or ``None`` if it is relative and there
    is no working folder to resolve it against (or it is empty)."""
    if not arg:
        return None
    if os.path.isabs(arg):
        return Path(os.path.normpath(arg))
    return None if cwd is None else Path(os.path.normpath(cwd / arg))


def _module_source(module: str, cwd: Path | None) -> Path | None:
    """What ``-m module`` runs from the working folder: its top package's folder, or the
    ``module.py`` file; ``None`` when neither is there (a module of the runtime, say)."""
    if cwd is None or not module:
        return None
    top = module.split(".")[0]
    if (cwd / top).is_dir():
        return cwd / top
    if "." not in module and (cwd / f"{top}.py").is_file():
        return cwd / f"{top}.py"
    return None
