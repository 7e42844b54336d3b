"""A small Wongar league of seeded random bots for tournament tests, and ways to inspect its runs."""

from __future__ import annotations

import os
import pty
import subprocess
import sys
from pathlib import Path

from process_census import processes_marked

from arena.store.db import Store


def run_arena(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """Run the ``arena`` command line in a fresh interpreter."""
    code = "from arena.cli.app import main; main()"
    return subprocess.run(
        [sys.executable, "-c", code, *args], cwd=cwd, capture_output=True, text=True, timeout=600
    )


#: The ``arena`` command line in a fresh interpreter, as an argument list.
ARENA = [sys.executable, "-c", "from arena.cli.app import main; main()"]

#: A bot that connects and then dies at its first decision (run as a trusted command bot).
CRASHER = """import os, sys
from bots import random as base
from protocols.sdk import run

def choose(observation, legal, clock):
    os._exit(1)

raise SystemExit(run(choose, name="crasher", version="1"))
"""


def on_terminal(args: list[str], cwd: Path, columns: int = 120) -> tuple[int, str]:
    """Run the ``arena`` command line with a terminal (a pty) as stdin, stdout and stderr, ``columns``
    wide; its exit status and everything the terminal received, read until the command closes it."""
    main, child = pty.openpty()
    command = subprocess.Popen([*ARENA, *args], cwd=cwd, stdin=child, stdout=child, stderr=child,
                               env={**os.environ, "COLUMNS": str(columns), "TERM": "xterm"})
    os.close(child)
    shown = b""
    try:
        while True:
            try:
                chunk = os.read(main, 65536)
            except OSError:  # the terminal closed: the command is done
                break
            if not chunk:
                break
            shown += chunk
    finally:
        os.close(main)
        command.wait(timeout=60)
    return command.returncode, shown.decode(errors="replace")


#: The random bot, pausing before each decision (see paced_bot.py): a command line.
PACED = f"{sys.executable} {Path(__file__).with_name('paced_bot.py')}"


def league_toml(
    marker: str,
    bots: int = 4,
    table_size: int = 3,
    concurrency: int = 2,
    pause: float = 0.0,
    gate: Path | None = None,
    hello_gate: Path | None = None,
) -> str:
    """A round-robin of ``bots`` seeded random bots; ``marker`` tags their processes' environment.
    With a ``pause`` (seconds), a ``gate`` or a ``hello_gate`` they are :data:`PACED` bots (the same
    choices), each decision that much slower, held while the file ``gate`` exists, and each start
    held before its hello while the file ``hello_gate`` exists."""
    paced = bool(pause or gate or hello_gate)
    held = f', ARENA_TEST_HELLO_GATE = "{hello_gate}"' if hello_gate else ""
    lines = [
        'name = "league"',
        'game = "wongar"',
        f"table_size = {table_size}",
        "deals = 1",
        'time_control = "2s/20s"',
        "seed = 2026",
        f"concurrency = {concurrency}",
    ]
    for i in range(bots):
        lines += [
            "[[bots]]",
            f'name = "r{i}"',
            f'bot = "{PACED}"\ntrusted = true' if paced else 'bot = "random"',
            f'env = {{ ARENA_SEED = "{i}", ARENA_TEST_MARKER = "{marker}", '
            f'ARENA_TEST_PAUSE = "{pause}", ARENA_TEST_GATE = "{gate or ""}"{held} }}',
        ]
    return "\n".join(lines) + "\n"


def processes_with(marker: str) -> list[int]:
    """Live processes whose environment carries ``marker``."""
    return processes_marked("ARENA_TEST_MARKER", marker)


def results(path: Path) -> dict[str, tuple[object, ...]]:
    """Every stored game of a database as comparable data (everything but timings)."""
    with Store(path) as store:
        return {
            g.placement.game_id: (
                g.placement,
                g.record.seed,
                g.record.bots,
                tuple((d.seat, d.action, d.fallback) for d in g.record.decisions),
                g.record.faults,
                g.record.scores,
                g.record.ranks,
            )
            for g in store.games()
        }
