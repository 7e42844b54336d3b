"""A descriptor flood at the remote endpoint during a real match: thousands of TCP connections that
never finish the handshake (idle, half a greeting, garbage) while the remote seat is reconnecting.

The referee is ``arena play --listen`` in a process of its own whose descriptor limit (soft and
hard) is :data:`LIMIT`, so that without a guard the flood takes every descriptor it has: its
remote seat could then not reconnect within the rejoin grace and would be forfeited. The match
must end normally, with its record, and no fault for the remote seat.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

import pytest

from arena.record import MatchRecord

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
FLAKY = ROOT / "tests" / "remote" / "botprograms" / "flaky.py"
FLOOD = Path(__file__).parent / "connection_flood.py"
#: The referee's descriptor limit, soft and hard.
LIMIT = 256
#: Connections in the flood: several times what the referee could hold without its guard.
FLOOD_SIZE = 4 * LIMIT


def _limited() -> None:
    resource.setrlimit(resource.RLIMIT_NOFILE, (LIMIT, LIMIT))


def _wait_for(path: Path, within: float) -> None:
    deadline = time.monotonic() + within
    while not path.exists():
        assert time.monotonic() < deadline, f"{path} did not appear"
        time.sleep(0.02)


def _line(process: subprocess.Popen[str]) -> str:
    assert process.stdout is not None
    return process.stdout.readline().strip()


@pytest.mark.parametrize("sources", [0, 64], ids=["one-address", "64-addresses"])
def test_a_connection_flood_mid_match_costs_the_remote_seat_nothing(tmp_path: Path, sources: int) -> None:
    record = tmp_path / "match.json"
    referee = subprocess.Popen(
        [sys.executable, "-c", "from arena.cli.app import main; main()", "play", "wongar",
         "--listen", "tcp://127.0.0.1:*", "-b", "remote:alice", "-b", "random", "-b", "random",
         "--connect-dir", str(tmp_path), "--wait", "60", "--seed", "3", "--tc", "30s",
         "--record", str(record)],
        cwd=ROOT, preexec_fn=_limited, text=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    started: list[subprocess.Popen[str]] = []
    try:
        connection = tmp_path / "alice.env"
        _wait_for(connection, 60)
        settings = dict(line.split("=", 1) for line in connection.read_text().split())
        gate = tmp_path / "gate"
        # Alice plays two decisions, says "deciding" at her third, waits for the gate, then
        # drops her connection and reconnects while the flood holds its connections.
        alice = subprocess.Popen([sys.executable, str(FLAKY), "gate", "2", str(gate)], cwd=ROOT,
                                 env={**os.environ, **settings}, text=True, stdout=subprocess.PIPE)
        started.append(alice)
        assert _line(alice) == "start"
        assert _line(alice) == "deciding"
        flood = subprocess.Popen(
            [sys.executable, str(FLOOD), settings["ARENA_ENDPOINT"].removeprefix("tcp://"),
             str(FLOOD_SIZE), str(sources)],
            text=True, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        started.append(flood)
        flooding = _line(flood).split()
        assert flooding[0] == "flooding" and int(flooding[1]) > LIMIT, flooding
        gate.touch()
        out, err = referee.communicate(timeout=120)
        assert referee.returncode == 0, err[-2000:]
        try:
            alice_status: int | None = alice.wait(30)  # sent bye at the end
        except subprocess.TimeoutExpired:
            alice_status = None
    finally:
        for process in [referee, *started]:
            if process.poll() is None:
                process.kill()
            process.communicate()
    played = MatchRecord.from_wire(json.loads(record.read_text()))
    assert played.bots[0] == "alice"
    assert played.faults == () and played.forfeited == ()
    assert sum(1 for d in played.decisions if d.seat == 0 and not d.fallback) > 3
    assert alice_status == 0
    assert "shed a connection" in err  # the guard did the work
