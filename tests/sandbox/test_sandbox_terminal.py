"""A sandboxed bot started from a terminal session cannot open that terminal (so it cannot type
into the organiser's shell with TIOCSTI); a trusted bot, for contrast, can."""

from __future__ import annotations

import os
import pty
import sys
import time
from pathlib import Path

TRY_TTY = r"""
import os
try:
    os.close(os.open("/dev/tty", os.O_RDWR))
    print("opened", flush=True)
except OSError as exc:
    print("refused:", exc.strerror, flush=True)
"""

# Runs in a new session whose controlling terminal is a pty: starts the bot, waits, copies its log.
STARTER = r"""
import sys
from pathlib import Path
from arena.manifest import BotSpec
from arena.process import BotProcess
log = Path(sys.argv[1])
spec = BotSpec("tty", (sys.executable, "-c", sys.argv[2]), trusted=sys.argv[3] == "trusted")
with BotProcess(spec, {}, log, isolate_network=True) as bot:
    bot.wait(30)
"""


def opens_terminal(tmp_path: Path, trust: str) -> str:
    """What the bot got when it opened /dev/tty, started from a process with a terminal."""
    log = tmp_path / f"{trust}.log"
    pid, fd = pty.fork()
    if pid == 0:  # the child: a session leader with the pty as its controlling terminal
        os.chdir(Path(__file__).parents[2])
        os.execv(sys.executable, [sys.executable, "-c", STARTER, str(log), TRY_TTY, trust])
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            os.read(fd, 1024)  # drain the terminal
        except OSError:
            break
    os.waitpid(pid, 0)
    os.close(fd)
    return log.read_text().strip().splitlines()[-1]


def test_a_sandboxed_bot_has_no_controlling_terminal(tmp_path: Path) -> None:
    assert opens_terminal(tmp_path, "trusted") == "opened"
    assert opens_terminal(tmp_path, "untrusted").startswith("refused:")
