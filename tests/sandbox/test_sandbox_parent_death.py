"""A jailed bot dies with the bubblewrap process that started it: killed outright (SIGKILL, so it
cannot pass anything on), bubblewrap leaves nothing of the bot running, even a bot that ignores
every signal it can."""

from __future__ import annotations

import os
import signal
import sys
import time
from pathlib import Path

import pytest
from polling import wait_until
from process_census import processes_marked

from arena.manifest import BotSpec
from arena.process import BotProcess

pytestmark = pytest.mark.sandbox

#: A bot that ignores the signals it may ignore, says it is ready, and waits.
STUBBORN = r"""
import signal, time
for sig in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT, signal.SIGPIPE):
    signal.signal(sig, signal.SIG_IGN)
print("ready", flush=True)
time.sleep(600)
"""


def test_killing_bubblewrap_kills_the_bot_inside(tmp_path: Path) -> None:
    marker = f"orphan-{os.getpid()}-{time.monotonic_ns()}"
    spec = BotSpec("stubborn", (sys.executable, "-c", STUBBORN), env={"ARENA_TEST_MARK": marker})
    log = tmp_path / "stubborn.log"
    process = BotProcess(spec, {}, log, isolate_network=True)
    with process:
        assert process.pid is not None
        assert wait_until(lambda: "ready" in log.read_text(), 30), process.log_tail()
        jailed = [p for p in processes_marked("ARENA_TEST_MARK", marker) if p != process.pid]
        assert jailed, "the bot and bubblewrap's init run beside the outer bubblewrap"
        os.kill(process.pid, signal.SIGKILL)
        assert wait_until(lambda: processes_marked("ARENA_TEST_MARK", marker) == [], 10), \
            "the bot outlived bubblewrap"
