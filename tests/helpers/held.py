"""A sandboxed bot a test can hold (``held_bot.py``), to stop a referee while it provably waits for
a seat: the bot prints ``held`` in its log and stops itself at its first decision of a match while
the empty folder ``ctl/hold`` beside it exists (:func:`hold`)."""

from __future__ import annotations

import os
import shutil
import signal
import sys
import time
from pathlib import Path

HELD_BOT = Path(__file__).with_name("held_bot.py")


def held_bot(folder: Path) -> Path:
    """The held bot's manifest in ``folder`` (made with its script and its bound ``ctl`` folder)."""
    (folder / "ctl").mkdir(parents=True)
    shutil.copy(HELD_BOT, folder / "held_bot.py")
    manifest = folder / "bot.toml"
    manifest.write_text(
        f'name = "held"\ncommand = ["{sys.executable}", "held_bot.py"]\nfiles = ["ctl"]\n'
    )
    return manifest


def hold(folder: Path, held: bool) -> None:
    """Make the held bot in ``folder`` hold (or no longer) at its next first decision of a match."""
    path = folder / "ctl" / "hold"
    if held:
        path.mkdir()
    else:
        path.rmdir()


def held_count(logs: Path) -> int:
    """How many bot logs in ``logs`` say their bot is held (a log per bot process)."""
    return sum("held" in log.read_text(errors="replace").split() for log in logs.glob("*.log"))


def stop_for(pid: int, seconds: float) -> None:
    """Stop process ``pid`` (SIGSTOP) for ``seconds``, then let it go on: a host holding up its
    referee, as a starved machine does. Nothing runs in it meanwhile, so the duration is exact."""
    os.kill(pid, signal.SIGSTOP)
    try:
        time.sleep(seconds)
    finally:
        os.kill(pid, signal.SIGCONT)
