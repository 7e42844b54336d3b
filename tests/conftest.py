"""Fixtures shared by every test folder."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from protocols.transport import Hub


@pytest.fixture(scope="module")
def hub() -> Iterator[Hub]:
    """One referee hub for a test module."""
    with Hub() as shared:
        yield shared
