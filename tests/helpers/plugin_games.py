"""Installed games for tests: the kit's scaffolded game, and distributions declaring entry points.

A distribution here is what an installer leaves on ``sys.path``: a ``NAME-VERSION.dist-info`` folder
with ``METADATA`` and ``entry_points.txt``, which ``importlib.metadata`` (and so the registry) reads
like any other. A child process sees them through ``PYTHONPATH`` (:func:`plugin_env`).
"""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType

from arena.gamekit.scaffold import scaffold
from engine.registry import ENTRY_POINT_GROUP


def write_distribution(site: Path, name: str, points: Mapping[str, str], version: str = "0.1.0") -> None:
    """Declare the distribution ``name`` in ``site`` with ``points`` (entry name -> ``module:attr``)."""
    info = site / f"{name.replace('-', '_')}-{version}.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n", encoding="utf-8")
    lines = "".join(f"{entry} = {target}\n" for entry, target in points.items())
    (info / "entry_points.txt").write_text(f"[{ENTRY_POINT_GROUP}]\n{lines}", encoding="utf-8")


def install_kit_game(site: Path, name: str) -> Path:
    """Scaffold the kit's game ``name`` under ``site`` and declare it as the distribution
    ``arena-game-NAME``; returns the folder to put on ``sys.path`` (the package's project folder)."""
    project = scaffold(name, site)
    write_distribution(site, f"arena-game-{name.replace('_', '-')}", {name: f"{name}:GAME"})
    return project


def plugin_env(*paths: Path) -> dict[str, str]:
    """The environment of a child ``arena`` that sees the distributions and modules in ``paths``."""
    env = dict(os.environ, COLUMNS="200")
    env["PYTHONPATH"] = os.pathsep.join(str(p) for p in paths)
    return env


def arena_command() -> str:
    """The ``arena`` console script of this environment."""
    return str(Path(sys.executable).with_name("arena"))


@contextmanager
def imported_kit_game(name: str, folder: Path) -> Iterator[ModuleType]:
    """The kit's game scaffolded as ``name`` in ``folder`` and its ``NAME.game`` module imported (not
    registered: a game the bots' heuristics and the registry do not know); forgotten on exit."""
    project = scaffold(name, folder)
    sys.path.insert(0, str(project))
    try:
        yield importlib.import_module(f"{name}.game")
    finally:
        sys.path.remove(str(project))
        for module in [m for m in sys.modules if m == name or m.startswith(f"{name}.")]:
            del sys.modules[module]
