"""Fixtures shared by every test folder, and the test tiers (docs/contributing.md).

Every test is in the default tier or in exactly one of ``slow``, ``sandbox`` and ``browser``; the
default run (``pytest``) leaves the three out and CI runs each as its own step (``pytest -m
sandbox``). A test is put in a tier by a mark on it or its module (``pytestmark``), or by its
folder: every test under a folder of :data:`FOLDER_TIERS` carries that folder's tier unless it is
marked with another. A test marked with two tiers is refused at collection.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import settings
from sandboxed import require_sandbox

from protocols.transport import Hub

# Property tests are judged by what they find, never by how fast an example runs: Hypothesis's
# default deadline (200 ms an example) fails a sound test on a loaded machine.
settings.register_profile("arena", deadline=None)
settings.load_profile("arena")

#: The marks that take a test out of the default run, each run by its own CI step.
TIERS = ("slow", "sandbox", "browser")
#: Folders (under ``tests/``) whose every test belongs to one tier.
FOLDER_TIERS = {"hostile": "sandbox", "sandbox": "sandbox", "browser": "browser"}
#: Seconds a slow test may run before it counts as hung (the default cap is ``timeout`` in
#: ``pyproject.toml``): they play whole tournaments, up to about 300 s on a busy machine, and their
#: own waits catch a stall sooner. A test's own ``timeout`` mark stands.
SLOW_TIMEOUT = 1200


def folder_tier(path: Path) -> str | None:
    """The tier of the test folder ``path`` lies in, ``None`` for a folder of the default tier."""
    root = Path(__file__).parent
    if not path.is_relative_to(root):  # a game package's own tests, collected in the same run
        return None
    parts = path.relative_to(root).parts
    return FOLDER_TIERS.get(parts[0]) if len(parts) > 1 else None


@pytest.hookimpl(tryfirst=True)  # before ``-m`` deselects by the marks added here
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark each test of a tier folder with the folder's tier; refuse a test with two tiers; give a
    slow test without a ``timeout`` mark of its own :data:`SLOW_TIMEOUT`."""
    for item in items:
        tiers = sorted({mark.name for mark in item.iter_markers() if mark.name in TIERS})
        if len(tiers) > 1:
            raise pytest.UsageError(f"{item.nodeid}: in two test tiers ({', '.join(tiers)}); mark it with one")
        tier = folder_tier(item.path)
        if not tiers and tier is not None:
            item.add_marker(tier)
        if item.get_closest_marker("slow") is not None and item.get_closest_marker("timeout") is None:
            item.add_marker(pytest.mark.timeout(SLOW_TIMEOUT))


@pytest.fixture(scope="module")
def hub() -> Iterator[Hub]:
    """One referee hub for a test module."""
    with Hub() as shared:
        yield shared


@pytest.fixture()
def working_sandbox() -> None:
    """For a default-tier test that starts untrusted bots: skip it (or, under ``CI=true``, fail it)
    where they cannot be sandboxed. Request it with ``@pytest.mark.usefixtures("working_sandbox")``."""
    require_sandbox()
