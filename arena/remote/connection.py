"""Connection files: the three settings a remote entrant's bot needs, one ``NAME=VALUE`` a line.

::

    ARENA_ENDPOINT=tcp://arena.example.org:7777
    ARENA_TOKEN=<32 hex digits>
    ARENA_SERVER_KEY=<the referee's public CURVE key, 40 characters>

The file is written with mode 0600 (the token is a password). A bot reads it with
``env $(cat alice.env) ./mybot``, or the Python SDK's ``--connect alice.env``.
"""

from __future__ import annotations

import os
import re
import socket
from pathlib import Path

from arena.remote import RemoteError
from arena.remote.keys import write_private
from protocols.messages import ENV_ENDPOINT, ENV_SERVER_KEY, ENV_TOKEN

_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")
_TCP = re.compile(r"tcp://(?P<host>\[[^\]]+\]|[^:/\s]+):(?P<port>\d{1,5}|\*)")
_WILDCARDS = {"*", "0.0.0.0", "[::]", "[::0]"}


def check_name(name: str) -> str:
    """``name`` if it can name a remote entrant (and its file): letters, digits, ``_.-``, at most
    64, not starting with a dot or dash; :class:`RemoteError` otherwise."""
    if not _NAME.fullmatch(name):
        raise RemoteError(
            f"remote bot name {name!r}: use letters, digits, '_', '.', '-' (at most 64, "
            "starting with a letter or digit)"
        )
    return name


def check_listen(endpoint: str) -> str:
    """``endpoint`` if it is ``tcp://HOST:PORT`` (``PORT`` may be ``*``: any free port)."""
    if not _TCP.fullmatch(endpoint):
        raise RemoteError(f"cannot listen on {endpoint!r}: expected tcp://HOST:PORT, e.g. tcp://0.0.0.0:7777")
    return endpoint


def advertised(bound: str, address: str | None = None) -> str:
    """The endpoint entrants connect to: ``address`` (``HOST`` or ``HOST:PORT``) where given, else
    the bound endpoint, with a wildcard host replaced by this machine's name."""
    match = _TCP.fullmatch(bound)
    if match is None:
        raise RemoteError(f"not a tcp endpoint: {bound}")
    host, port = match["host"], match["port"]
    if address:
        if address.startswith("tcp://"):
            address = address[len("tcp://"):]
        if re.fullmatch(r"\[[^\]]+\]:\d{1,5}|[^:\s\[\]]+:\d{1,5}", address):
            return f"tcp://{address}"
        if not re.fullmatch(r"[^:/\s]+|\[[^\]]+\]", address):
            raise RemoteError(f"--address {address!r}: expected HOST or HOST:PORT")
        return f"tcp://{address}:{port}"
    if host in _WILDCARDS:
        host = socket.getfqdn()
    return f"tcp://{host}:{port}"


def write_connection_file(folder: Path, name: str, endpoint: str, token: str, server_key: str) -> Path:
    """Write ``<folder>/<name>.env`` (mode 0600) and return its path; :class:`RemoteError` if it
    cannot be written."""
    path = folder / f"{check_name(name)}.env"
    if not folder.is_dir():
        raise RemoteError(f"{folder} is not a folder")
    lines = [f"{ENV_ENDPOINT}={endpoint}", f"{ENV_TOKEN}={token}"]
    if server_key:
        lines.append(f"{ENV_SERVER_KEY}={server_key}")
    write_private(path, "\n".join(lines) + "\n")
    return path


def how_to_start(path: Path) -> str:
    """What to tell an entrant: how a bot starts with the connection file ``path``."""
    relative = os.path.relpath(path)
    shown = str(path) if relative.startswith("..") else relative
    return (f"env $(cat {shown}) ./mybot   (any language)\n"
            f"python3 mybot.py --connect {shown}   (a bot written with the Python SDK)")
