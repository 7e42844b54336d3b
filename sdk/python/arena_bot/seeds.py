"""Seeds derived from seeds: independent, reproducible random streams by purpose."""

from __future__ import annotations

import hashlib


def derive_seed(seed: int, *labels: str | int) -> int:
    """A 64-bit seed derived from ``seed`` and ``labels``: independent streams per deck or purpose."""
    text = ":".join([str(seed), *map(str, labels)]).encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big")
