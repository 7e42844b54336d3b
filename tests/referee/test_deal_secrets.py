"""Deal secrets (arena.deals): known answers of the keyed engine seeds and the commitment, secret
files (owner-only, never overwritten), and what a record of a keyed deal keeps."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from arena.deals import (
    DealSecret,
    DealSecretError,
    Dealing,
    check_commitment,
    engine_seed,
    read_secret_file,
    write_secret_file,
)
from arena.record import MatchRecord

KEY = bytes(range(32))


def test_engine_seeds_and_the_commitment_have_known_answers() -> None:
    secret = DealSecret(KEY)
    assert secret.engine_seed(7) == 14393300470049027477
    assert secret.engine_seed(0) == 13256772516843395392
    assert secret.engine_seed(2**64 - 1) == 3436349670984060092
    assert secret.commitment() == "2fa968efc22ca5c52f45a75a81a9755912348ac46b68f0850cea46b4fb01abe2"
    # What a verifier recomputes with nothing but hashlib: a personalised blake2b of the secret.
    assert secret.commitment() == hashlib.blake2b(KEY, digest_size=32, person=b"arena-commit").hexdigest()


def test_without_a_secret_the_engine_seed_is_the_deal_seed_and_with_one_it_depends_on_it() -> None:
    assert engine_seed(None, 7) == 7
    one, other = DealSecret(KEY), DealSecret(bytes(31) + b"\x01")
    assert engine_seed(one, 7) == one.engine_seed(7)
    assert len({one.engine_seed(7), other.engine_seed(7), one.engine_seed(8)}) == 3
    assert one.commitment() != other.commitment()


def test_drawn_secrets_are_256_random_bits_never_shown_by_repr() -> None:
    drawn = {DealSecret.draw() for _ in range(50)}
    assert len(drawn) == 50 and all(len(s.key) == 32 for s in drawn)
    secret = DealSecret(KEY)
    assert KEY.hex() not in repr(secret) and secret.hex() == KEY.hex()


@pytest.mark.parametrize(("text", "problem"), [
    ("zz" * 16, "expected hex digits"),
    ("ab" * 15, "16 to 64 bytes"),
    ("ab" * 65, "16 to 64 bytes"),
    ("", "16 to 64 bytes"),
])
def test_a_secret_that_is_not_one_is_refused(text: str, problem: str) -> None:
    with pytest.raises(DealSecretError, match=problem):
        DealSecret.from_hex(text, source="given")


def test_a_secret_file_is_written_owner_only_read_back_and_never_overwritten(tmp_path: Path) -> None:
    path = tmp_path / "deal.secret"
    secret = DealSecret.draw()
    write_secret_file(path, secret)
    assert path.stat().st_mode & 0o777 == 0o600
    assert read_secret_file(path) == secret
    with pytest.raises(DealSecretError, match="never overwritten"):
        write_secret_file(path, DealSecret.draw())
    assert read_secret_file(path) == secret


def test_a_secret_file_others_may_read_or_a_missing_one_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "deal.secret"
    with pytest.raises(DealSecretError, match="no such deal secret file"):
        read_secret_file(path)
    path.write_text(KEY.hex() + "\n")
    path.chmod(0o644)
    with pytest.raises(DealSecretError, match=f"others may read it: chmod 600 {path}"):
        read_secret_file(path)
    path.chmod(0o600)
    assert read_secret_file(path) == DealSecret(KEY)


def test_a_secret_that_is_not_the_committed_one_is_refused() -> None:
    secret = DealSecret(KEY)
    check_commitment(secret, secret.commitment(), "here")
    with pytest.raises(DealSecretError, match="not the one committed to"):
        check_commitment(DealSecret.draw(), secret.commitment(), "here")


def _record(seed: int) -> MatchRecord:
    return MatchRecord("wongar", 2, "basic", {}, seed, ("a", "b", "c"), (), (), (0, 0, 0),
                       (1, 1, 1), detail={"match": "m"})


def test_a_record_of_a_keyed_deal_keeps_what_checks_it() -> None:
    secret = DealSecret(KEY)
    fresh = Dealing(secret, reveal=True)
    record = fresh.annotate(_record(fresh.engine_seed(7)), 7)
    assert record.detail == {"match": "m", "deal": {"seed": 7, "commitment": secret.commitment(),
                                                    "secret": KEY.hex()}}
    assert MatchRecord.from_wire(record.to_wire()) == record
    supplied = Dealing(secret).annotate(_record(secret.engine_seed(7)), 7)
    assert supplied.detail["deal"] == {"seed": 7, "commitment": secret.commitment()}
    public = Dealing()
    assert public.engine_seed(7) == 7 and public.annotate(_record(7), 7) == _record(7)
