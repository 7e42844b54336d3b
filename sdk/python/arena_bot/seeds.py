"""Seeds derived from seeds: independent, reproducible random streams by purpose."""

from __future__ import annotations


def derive_seed(seed: int, *labels: str | int) -> int:
    """A 64-bit seed derived from ``seed`` and ``labels``: independent streams per deck or purpose."""
    import hashlib  # here, not above: loading it costs a bot that never derives a seed a few ms at start

    text = ":".join([str(seed), *map(str, labels)]).encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big")
