"""Deal secrets: what makes a deal impossible for a bot to compute.

A deal's *seed* (from ``--seed``, or a tournament's schedule) is a public, often guessable number.
When any seat may be an adversary, the seed handed to the engine is instead a keyed hash of it,
:meth:`DealSecret.engine_seed`, under a secret of :data:`SECRET_BYTES` random bytes. Everything a
bot is sent (its cards, ``start.seed``) then follows from the engine seed, so without the secret no
guess of the deal's seed tells a bot anything. The same secret and seed always give the same
engine seed, so an organiser who keeps the secret reproduces every game.

The secret's :meth:`DealSecret.commitment` (a hash of it) is published before play; revealing the
secret afterwards lets anyone check that the deals were not chosen: the commitment matches, and
every engine seed follows from the secret and the schedule's seeds.

A secret is written as hex text (one line). A file holding one must be readable by its owner
alone: :func:`read_secret_file` refuses one that others may read.
"""

from __future__ import annotations

import hashlib
import os
import secrets
from dataclasses import dataclass, replace
from pathlib import Path

from arena.errors import ArenaError
from arena.record import MatchRecord
from engine.core import Wire

#: Bytes of a drawn secret (256 bits).
SECRET_BYTES = 32
#: The fewest bytes a supplied secret may have (128 bits).
MIN_SECRET_BYTES = 16
#: blake2b personalisations, so that the commitment and the engine seeds are unrelated hashes.
_DEAL = b"arena-deal"
_COMMIT = b"arena-commit"


class DealSecretError(ArenaError):
    """A deal secret that cannot be read or used: missing, malformed, exposed, or not the one
    committed to."""


@dataclass(frozen=True, slots=True)
class DealSecret:
    """A deal secret: ``key``, at least :data:`MIN_SECRET_BYTES` bytes (a blake2b key, at most 64)."""

    key: bytes

    def __post_init__(self) -> None:
        if not MIN_SECRET_BYTES <= len(self.key) <= 64:
            raise DealSecretError(
                f"a deal secret has {MIN_SECRET_BYTES} to 64 bytes ({2 * MIN_SECRET_BYTES} to 128 "
                f"hex digits), not {len(self.key)}"
            )

    def __repr__(self) -> str:
        return "DealSecret(…)"  # never in a log or a traceback

    @classmethod
    def draw(cls) -> DealSecret:
        """A fresh secret of :data:`SECRET_BYTES` random bytes (from ``secrets``)."""
        return cls(secrets.token_bytes(SECRET_BYTES))

    @classmethod
    def from_hex(cls, text: str, source: str = "deal secret") -> DealSecret:
        """The secret written as ``text`` (hex digits, surrounding space ignored)."""
        try:
            key = bytes.fromhex(text.strip())
        except ValueError:
            raise DealSecretError(f"{source}: not a deal secret (expected hex digits)") from None
        try:
            return cls(key)
        except DealSecretError as exc:
            raise DealSecretError(f"{source}: {exc}") from None

    def hex(self) -> str:
        """The secret as hex text (what :meth:`from_hex` reads)."""
        return self.key.hex()

    def commitment(self) -> str:
        """The published hash of the secret (64 hex digits): it names the secret without telling it."""
        return hashlib.blake2b(self.key, digest_size=32, person=_COMMIT).hexdigest()

    def engine_seed(self, deal_seed: int) -> int:
        """The seed the engine deals from for the deal whose seed is ``deal_seed``: a 64-bit keyed
        hash (blake2b, keyed with the secret), which nobody without the secret can compute."""
        digest = hashlib.blake2b(str(deal_seed).encode(), digest_size=8, key=self.key, person=_DEAL)
        return int.from_bytes(digest.digest(), "big")


def engine_seed(secret: DealSecret | None, deal_seed: int) -> int:
    """The engine seed of a deal: keyed with ``secret``, or the deal's seed itself without one
    (public deals, for tables of trusted bots only)."""
    return deal_seed if secret is None else secret.engine_seed(deal_seed)


def check_commitment(secret: DealSecret, commitment: str, source: str) -> None:
    """Raise :class:`DealSecretError` unless ``secret`` is the one ``commitment`` names."""
    if secret.commitment() != commitment:
        raise DealSecretError(
            f"{source}: this deal secret is not the one committed to ({commitment[:16]}…)"
        )


def read_private_text(path: Path, holds: str) -> str | None:
    """The text of the owner-only file ``path`` (``None`` if there is none). Raises
    :class:`DealSecretError` if others may read it (it ``holds`` secrets) or it cannot be read."""
    try:
        if path.stat().st_mode & 0o077:
            raise DealSecretError(f"{path} holds {holds} but others may read it: chmod 600 {path}")
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as exc:
        raise DealSecretError(f"cannot read {path}: {exc}") from None


def read_secret_file(path: Path) -> DealSecret:
    """The secret in the file ``path`` (hex text, mode 0600), as :func:`write_secret_file` writes it."""
    text = read_private_text(path, "a deal secret")
    if text is None:
        raise DealSecretError(f"{path}: no such deal secret file")
    return DealSecret.from_hex(text, source=str(path))


def write_secret_file(path: Path, secret: DealSecret) -> None:
    """Write ``secret`` to a new file ``path``, readable by its owner alone; an existing file is
    never overwritten (:class:`DealSecretError`)."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        raise DealSecretError(f"{path} already exists: a deal secret is never overwritten") from None
    except OSError as exc:
        raise DealSecretError(f"cannot write {path}: {exc.strerror}") from None
    try:
        os.write(fd, (secret.hex() + "\n").encode())
    finally:
        os.close(fd)


@dataclass(frozen=True, slots=True)
class Dealing:
    """How the deals of one run of matches (``arena play``) are made: keyed with ``secret``, or
    public without one. ``reveal``: the secret was drawn for this run alone, so the records the
    organiser keeps may carry it (a supplied one may deal other runs: only its commitment goes)."""

    secret: DealSecret | None = None
    reveal: bool = False

    def engine_seed(self, deal_seed: int) -> int:
        """The engine seed of the deal whose seed is ``deal_seed``."""
        return engine_seed(self.secret, deal_seed)

    def annotate(self, record: MatchRecord, deal_seed: int) -> MatchRecord:
        """``record`` with ``detail["deal"]``: the deal's seed, the commitment and (if ``reveal``)
        the secret, what checks that its engine seed was not chosen; unchanged for public deals."""
        if self.secret is None:
            return record
        deal: dict[str, Wire] = {"seed": deal_seed, "commitment": self.secret.commitment()}
        if self.reveal:
            deal["secret"] = self.secret.hex()
        return replace(record, detail={**record.detail, "deal": deal})
