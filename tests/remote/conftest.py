"""Fixtures of the remote-seat tests: fresh keys, a hub listening on tcp with CURVE."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from arena.remote.keys import new_keys
from protocols.transport import CurveKeys, Hub


@pytest.fixture()
def keys() -> CurveKeys:
    return new_keys()


@pytest.fixture()
def remote_hub(keys: CurveKeys) -> Iterator[Hub]:
    """A hub with private ipc endpoints for local bots, listening on a free tcp port with CURVE."""
    with Hub(curve=keys, listen="tcp://127.0.0.1:*") as hub:
        yield hub
