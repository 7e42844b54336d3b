"""The sandbox suite runs only where the sandbox works (and always under CI)."""

from __future__ import annotations

import pytest
from sandboxed import require_sandbox


@pytest.fixture(autouse=True)
def working_sandbox() -> None:
    """Skip (or, under CI, fail) each test when untrusted bots cannot be sandboxed here."""
    require_sandbox()
