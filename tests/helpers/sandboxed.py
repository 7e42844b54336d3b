"""Whether the sandbox of untrusted bots works here, for suites that need it."""

from __future__ import annotations

import os

import pytest

from arena.sandbox.selftest import sandbox_problem


def require_sandbox() -> None:
    """Skip the calling test when untrusted bots cannot be sandboxed here; under ``CI=true`` that
    is a failure instead (CI installs bubblewrap)."""
    problem = sandbox_problem()
    if problem is None:
        return
    if os.environ.get("CI") == "true":
        pytest.fail(f"CI needs the sandbox: {problem}")
    pytest.skip(f"no sandbox here: {problem}")
