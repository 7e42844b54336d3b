"""A sandboxed bot a test can hold (``held_bot.py``), to stop a referee while it provably waits for
a seat: the bot prints ``held`` and the time in its log and stops itself at its first decision of a
match while the empty folder ``ctl/hold`` beside it exists (:func:`hold`); :func:`hold_up` then
stops the referee long enough to be a host fault, however late the test got there."""

from __future__ import annotations

import os
import shutil
import signal
import sys
import time
from pathlib import Path

from arena.clock import DEFAULT_WALL_CAP, SeatClock, TimeControl

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


def held_worker(scratch: Path, held: int = 1) -> Path | None:
    """The scratch folder (it holds the bot logs) of the arena worker under ``scratch`` once
    ``held`` of its bot processes are held."""
    for folder in scratch.glob("arena-worker-*"):
        if held_count(folder) >= held:
            return folder
    return None


def worker_pid(folder: Path) -> int:
    """The pid of the arena worker whose scratch folder is ``folder``."""
    return int(folder.name.split("-")[2])


#: Added to every hold-up: the referee's own slack (it forgives 50 ms a wake).
MARGIN = 1.0


def held_since(logs: Path) -> float:
    """When (``time.monotonic``) the bot held last in ``logs`` was held."""
    words = [log.read_text(errors="replace").split() for log in logs.glob("*.log")]
    return max(float(w[i + 1]) for w in words for i, word in enumerate(w[:-1]) if word == "held")


def first_decision_cap(time_control: str, wall_cap: float = DEFAULT_WALL_CAP) -> float:
    """Seconds of elapsed time the referee waits for a seat's first decision under the CPU clock:
    the seat's limit by ``time_control`` (allowance and grace) times ``wall_cap``."""
    return SeatClock(TimeControl.parse(time_control)).limit * wall_cap


def hold_up(pid: int, logs: Path, cap: float) -> None:
    """Stop ``pid``, the referee waiting for the bot held last in ``logs``, for as long as makes the
    wait a host fault (held up for at least half of it) whenever it starts before the decision's
    elapsed-time ``cap`` ends: the whole cap beyond the time the bot has been held. The referee's
    wait began when it sent the ``act``, a while before the bot held (on a busy machine seconds
    may pass before it runs), and the test's own delay in getting here adds to it; a hold-up of
    the cap on top of both outweighs them whatever they were. What cannot be outweighed is the
    referee reaching the cap before the stop, so a test's cap is many seconds: room for the bot's
    hold and the test's look at it, delayed together."""
    since = time.monotonic() - held_since(logs)
    assert since < cap, f"the test got to the referee {since:.1f} s after the hold, past the {cap} s cap"
    stop_for(pid, cap + since + MARGIN)


def stop_for(pid: int, seconds: float) -> None:
    """Stop process ``pid`` (SIGSTOP) for ``seconds``, then let it go on: a host holding up its
    referee, as a starved machine does. Nothing runs in it meanwhile, so the duration is exact."""
    os.kill(pid, signal.SIGSTOP)
    try:
        time.sleep(seconds)
    finally:
        os.kill(pid, signal.SIGCONT)
