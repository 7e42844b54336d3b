"""File names for what a bot or a game is called: safe on every file system and in a URL."""

from __future__ import annotations

import hashlib
import re

_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


def file_stem(name: str) -> str:
    """A stem for ``name`` made of letters, digits, ``.``, ``_`` and ``-`` only. Names that had to
    change get a short hash of the original, so two names never share a stem."""
    stem = _UNSAFE.sub("-", name).strip(".-")[:60]
    if stem == name and stem:
        return stem
    digest = hashlib.blake2b(name.encode(), digest_size=4).hexdigest()
    return f"{stem or 'bot'}-{digest}"
