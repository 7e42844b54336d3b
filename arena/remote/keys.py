"""The referee's CURVE keys for remote seats, and files only their owner may read.

The public key goes into every connection file; a tournament's secret key stays in a file beside
its database readable by its owner alone (mode 0600, :mod:`arena.remote.book`). Public keys are
drawn until they hold no character a shell would treat specially, so that
``env $(cat alice.env) ./mybot`` works as written.
"""

from __future__ import annotations

import os
from pathlib import Path

from arena.remote import RemoteError
from protocols.errors import ProtocolError
from protocols.transport import CurveKeys

#: Characters of a Z85 public key that any shell passes through unquoted and unchanged.
SHELL_SAFE = frozenset(b"0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=/@%^")
#: Key pairs drawn at most while looking for a shell-safe public key (one in ~3000 is).
DRAWS = 100_000


def new_keys() -> CurveKeys:
    """A fresh key pair whose public key is shell-safe; :class:`RemoteError` without CURVE."""
    try:
        for _ in range(DRAWS):
            keys = CurveKeys.generate()
            if set(keys.public) <= SHELL_SAFE:
                return keys
    except ProtocolError as exc:
        raise RemoteError(f"remote seats need encryption: {exc}") from None
    raise RemoteError("could not draw a shell-safe CURVE key")


def write_private(path: Path, text: str) -> None:
    """Write ``text`` to ``path``, readable and writable by its owner alone (mode 0600)."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        try:
            os.fchmod(fd, 0o600)
            os.write(fd, text.encode())
        finally:
            os.close(fd)
    except OSError as exc:
        raise RemoteError(f"cannot write {path}: {exc.strerror}") from None


def replace_private(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` whole, readable by its owner alone: a new file renamed over it,
    so a reader sees the old text or the new, never part of one."""
    fresh = path.with_name(f"{path.name}.{os.getpid()}.new")
    write_private(fresh, text)
    try:
        os.replace(fresh, path)
    except OSError as exc:
        fresh.unlink(missing_ok=True)
        raise RemoteError(f"cannot write {path}: {exc.strerror}") from None
