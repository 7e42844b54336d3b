"""The referee's CURVE keys for remote seats: made fresh, kept beside the database, never published.

The public key goes into every connection file; the secret key stays in a file readable by its
owner alone (mode 0600). Public keys are drawn until they hold no character a shell would treat
specially, so that ``env $(cat alice.env) ./mybot`` works as written.
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


def keys_path(database: Path) -> Path:
    """Where a tournament database's keys are kept: beside it, ``<database>.keys``."""
    return database.with_name(database.name + ".keys")


def load_or_create(path: Path) -> CurveKeys:
    """The key pair kept in ``path``, made (mode 0600) if the file does not exist.

    Raises :class:`RemoteError` if it cannot be read or written, is not a key pair, or can be
    read by anyone but its owner.
    """
    try:
        text = path.read_text(encoding="ascii")
    except FileNotFoundError:
        keys = new_keys()
        write_private(path, f"public={keys.public.decode()}\nsecret={keys.secret.decode()}\n")
        return keys
    except (OSError, UnicodeDecodeError) as exc:
        raise RemoteError(f"cannot read the keys {path}: {exc}") from None
    if path.stat().st_mode & 0o077:
        raise RemoteError(f"{path} holds a secret key but others may read it: chmod 600 {path}")
    values = dict(line.split("=", 1) for line in text.splitlines() if "=" in line)
    public, secret = values.get("public", ""), values.get("secret", "")
    if len(public) != 40 or len(secret) != 40:
        raise RemoteError(f"{path} does not hold a CURVE key pair")
    return CurveKeys(public.encode(), secret.encode())


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
