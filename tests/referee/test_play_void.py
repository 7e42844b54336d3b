"""``arena play`` whose referee the host holds up: the process is stopped (SIGSTOP) while it waits
for a sandboxed bot under the CPU clock, longer than half the decision's elapsed-time cap. The
match is void: no result, no bot's loss, the reason said, exit status 3."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from held import first_decision_cap, held_bot, held_count, hold, hold_up
from polling import wait_until
from sandboxed import require_sandbox

from arena.cli.play import VOID_EXIT
from arena.record import MatchRecord

pytestmark = pytest.mark.sandbox

ARENA = [sys.executable, "-c", "from arena.cli.app import main; main()"]
#: A second of processor time and its grace, capped at the default 10 times that: 10.5 s of elapsed
#: time, which the test has to see the held bot and stop the referee (:func:`held.hold_up`).
TIME_CONTROL = "1s"
CAP = first_decision_cap(TIME_CONTROL)


@pytest.fixture(autouse=True)
def working_sandbox() -> None:
    require_sandbox()


def test_a_match_the_host_held_up_is_void_and_exits_3(tmp_path: Path) -> None:
    manifest = held_bot(tmp_path / "held")
    hold(tmp_path / "held", True)
    logs, record = tmp_path / "logs", tmp_path / "match.json"
    logs.mkdir()
    random = f"{sys.executable} -m bots.random"
    play = subprocess.Popen(
        [*ARENA, "play", "waroong", "-b", str(manifest), "-b", random, "-b", random,
         "--tc", TIME_CONTROL, "--clock", "cpu", "--seed", "5", "--logs", str(logs), "--record", str(record)],
        cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    try:
        if not wait_until(lambda: held_count(logs) or play.poll() is not None, timeout=120) \
                or play.poll() is not None:
            pytest.fail(f"the bot was not held: {play.communicate(timeout=60)}")
        hold_up(play.pid, logs, CAP)  # the host fault, while the referee waits for the held bot
        out, err = play.communicate(timeout=120)
    finally:
        play.kill()
        play.wait()
    assert play.returncode == VOID_EXIT == 3, err
    said = " ".join(err.split())
    # (after, perhaps, the warning that the held bot, still stopped, had to be killed)
    assert ("the match is void: the host, not a bot, was at fault (the referee itself was held up "
            "for ") in said, said
    assert said.endswith("it has no result and no bot lost it. Play it again on a less busy machine")
    assert "place" not in out  # no result table
    void = MatchRecord.from_wire(json.loads(record.read_text()))
    assert void.void is not None and void.void in said
    assert void.faults == () and void.forfeited == () and void.ranks == (1, 1, 1)
