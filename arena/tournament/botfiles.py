"""A fingerprint of the code a bot runs, so stored results say exactly which build played."""

from __future__ import annotations

import hashlib
import importlib.util
from collections.abc import Iterator
from pathlib import Path

from arena.manifest import BotSpec


def bot_files(spec: BotSpec) -> list[Path]:
    """The files a bot's command names: its program and script files, and the source of a
    ``-m module`` (the whole package folder when the module is a package)."""
    cwd = spec.cwd or Path.cwd()
    found: list[Path] = []
    command = list(spec.command)
    for i, arg in enumerate(command):
        if i > 0 and command[i - 1] == "-m":
            found.extend(_module_files(arg))
            continue
        path = Path(arg) if Path(arg).is_absolute() else cwd / arg
        if "/" in arg and path.is_file():
            found.append(path)
    return sorted(set(found))


def _module_files(module: str) -> Iterator[Path]:
    try:
        spec = importlib.util.find_spec(module)
    except (ImportError, ValueError):
        return
    if spec is None or spec.origin is None:
        return
    origin = Path(spec.origin)
    if spec.submodule_search_locations:
        yield from sorted(origin.parent.rglob("*.py"))
    elif origin.is_file():
        yield origin


def files_hash(spec: BotSpec) -> str:
    """A hex digest over the command line, version and the contents of :func:`bot_files`."""
    digest = hashlib.blake2b(digest_size=12)
    digest.update("\0".join([spec.version, *spec.command]).encode())
    for path in bot_files(spec):
        digest.update(b"\0" + path.name.encode() + b"\0")
        try:
            digest.update(path.read_bytes())
        except OSError:
            digest.update(b"<unreadable>")
    return digest.hexdigest()
