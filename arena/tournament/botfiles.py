"""A fingerprint of the code a bot runs, so stored results say exactly which build played."""

from __future__ import annotations

import hashlib
import importlib.util
import shlex
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path

from arena.manifest import BotSpec
from arena.own_files import command_names, files_within, own_files


def bot_files(spec: BotSpec) -> list[Path]:
    """The files a bot's command names: its program and script files, and the source of a
    ``-m module`` (every ``.py`` file of its package when it is one of a package)."""
    cwd = spec.cwd or Path.cwd()
    found: list[Path] = []
    for arg, module in command_names(spec.command):
        if module:
            found.extend(_module_files(arg, spec.cwd))
            continue
        path = Path(arg) if Path(arg).is_absolute() else cwd / arg
        if "/" in arg and path.is_file():
            found.append(path)
    return sorted(set(found))


def _module_files(module: str, cwd: Path | None) -> Iterator[Path]:
    """The source of ``python -m module`` run in ``cwd``. Python looks there first, so a module
    found there is the bot's own: its file, or every ``.py`` file of its top-level package (any of
    them may be imported). Otherwise (a built-in bot, which runs in an empty folder) the module is
    looked up on this process's path: its file, or its package's folder."""
    parts = module.split(".")
    if cwd is not None and all(part.isidentifier() for part in parts):
        target = cwd.joinpath(*parts)
        if target.with_suffix(".py").is_file() or (target / "__main__.py").is_file():
            top = cwd / parts[0]
            yield from sorted(top.rglob("*.py")) if top.is_dir() else [top.with_suffix(".py")]
            return
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


def file_digests(spec: BotSpec, extra: Sequence[Path] = ()) -> dict[str, str]:
    """Each file of the bot (:func:`bot_files`, every argument naming a file in its folder, every
    file of its own the sandbox shows it (:func:`arena.own_files.own_files`, folders by the files
    they hold), and ``extra``, such as its manifest) by name, with a digest of its contents, plus its
    ``command`` and ``version``: what :func:`changes` compares. Files in the bot's folder are named
    relative to it, so a moved folder is the same bot."""
    found: dict[str, str] = {"command": shlex.join(spec.command), "version": spec.version}
    folder = spec.cwd or Path.cwd()
    named = [folder / arg for arg in spec.command[1:] if arg and (folder / arg).is_file()]
    listed = {*bot_files(spec), *named, *extra}
    seen = {path.resolve() for path in listed}
    listed.update(path for path in files_within(own_files(spec)) if path.resolve() not in seen)
    for path in sorted(listed):
        try:
            digest = hashlib.blake2b(path.read_bytes(), digest_size=12).hexdigest()
        except OSError:
            digest = "unreadable"
        found[_file_name(path, spec.cwd)] = digest
    return found


def _file_name(path: Path, folder: Path | None) -> str:
    if folder is not None and path.is_relative_to(folder):
        return str(path.relative_to(folder))
    return str(path)


def build_hash(files: Mapping[str, str]) -> str:
    """A hex digest of :func:`file_digests`."""
    text = "\0".join(f"{name}\0{digest}" for name, digest in sorted(files.items()))
    return hashlib.blake2b(text.encode(), digest_size=12).hexdigest()


def changes(before: Mapping[str, str], now: Mapping[str, str]) -> list[str]:
    """What differs between two :func:`file_digests`, e.g. ``bot.py changed``, ``lib.py added``."""
    found: list[str] = []
    for name in ("command", "version"):
        if before.get(name) != now.get(name):
            found.append(f"{name} {before.get(name)!r} is now {now.get(name)!r}")
    for name in sorted((set(before) | set(now)) - {"command", "version"}):
        if name not in now:
            found.append(f"{name} removed")
        elif name not in before:
            found.append(f"{name} added")
        elif before[name] != now[name]:
            found.append(f"{name} changed")
    return found
