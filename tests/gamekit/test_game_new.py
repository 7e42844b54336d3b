"""A new author's path, for real: ``arena game new``, ``pip install -e`` into a fresh virtual
environment that sees this Arena (as a venv made with ``--system-site-packages`` sees a system-wide
Arena), then ``arena game check``, the generated tests, and ``arena play`` of the new game.

``pip install -e`` builds in isolation, so it fetches setuptools from the package index (as it
would for the author). Each step's time is printed (``pytest -s`` shows it).
"""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
import time
from pathlib import Path

import pytest
from plugin_games import arena_command

from arena.gamekit.checks import CHECKS

pytestmark = pytest.mark.slow

ARENA = "from arena.cli.app import main; main()"


def run(args: list[str], cwd: Path, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    return subprocess.run(args, capture_output=True, text=True, cwd=cwd, env=env, timeout=timeout)


def test_a_new_game_installs_checks_and_plays(tmp_path: Path) -> None:
    steps: list[tuple[str, float]] = []
    project = tmp_path / "tile_trick"

    def step(name: str, args: list[str]) -> subprocess.CompletedProcess[str]:
        """Run one command in the project's folder (where the author works), timed."""
        started = time.perf_counter()
        done = run(args, project if project.is_dir() else tmp_path)
        steps.append((name, time.perf_counter() - started))
        assert done.returncode == 0, f"{name}: {done.stdout}\n{done.stderr}"
        return done

    step("arena game new", [arena_command(), "game", "new", "tile_trick", "--dir", str(tmp_path)])
    venv = tmp_path / "venv"
    step("python -m venv", [sys.executable, "-m", "venv", str(venv)])
    python = str(venv / "bin" / "python")
    site = run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], tmp_path).stdout.strip()
    arena_site = sysconfig.get_paths()["purelib"]
    Path(site, "arena-beside.pth").write_text(f"import site; site.addsitedir({arena_site!r})\n", encoding="utf-8")

    step("pip install -e", [python, "-m", "pip", "install", "--quiet", "-e", str(project)])
    listed = step("arena games", [python, "-c", ARENA, "games", "--json"])
    assert '"key": "tile_trick@1"' in listed.stdout
    checked = step("arena game check", [python, "-c", ARENA, "game", "check", "tile_trick"])
    assert checked.stdout.count("passed") == len(CHECKS)
    tests = step("pytest tests", [python, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--rootdir", str(project),
                                  str(project / "tests")])
    assert "7 passed" in tests.stdout
    played = step("arena play", [python, "-c", ARENA, "play", "tile_trick",
                                 "--bot", "random", "--bot", "random", "--bot", "random", "--seed", "5"])
    assert "tile_trick@1" in played.stdout and "12 decisions" in played.stdout

    print("\n".join(f"{name:<18} {seconds:6.1f} s" for name, seconds in steps))
    print(f"{'total':<18} {sum(s for _, s in steps):6.1f} s")
