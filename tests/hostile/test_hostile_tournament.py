"""Hostile bots in a short tournament through the real runner (local worker processes, a SQLite
store): every game is played and stored, each fault is charged to the hostile bot with its reason,
honest seats are never touched, crashed bots are restarted, and no process is left behind."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

from hostile_helpers import MISBEHAVE, check_match
from process_census import processes_marked

from arena.record import FaultKind
from arena.store.db import Store
from arena.tournament.config import parse_config
from arena.tournament.executors import LocalExecutor
from arena.tournament.runner import run_tournament
from engine.registry import get_game

# The fault that ends each hostile bot's game (three strikes of timeouts for "hang"). On a loaded
# machine a reply of "crash" or "huge" before the attack may come late: a timeout before the crash.
# Timed on the wall clock, so that "hang" times out after its 1.1 s limit (the CPU clock would wait
# ten times as long for a bot that uses no CPU): a second of grace keeps a busy machine's stalls
# from making the honest bot late.
EXPECTED = {"crash": FaultKind.CRASH, "hang": FaultKind.TIMEOUT, "huge": FaultKind.CRASH}


def marked_processes(marker: str) -> list[int]:
    """Live processes whose environment carries ``marker``."""
    return processes_marked("ARENA_HOSTILE_MARKER", marker)


def test_a_tournament_with_hostile_bots_completes_and_charges_every_fault(tmp_path: Path) -> None:
    marker = f"hostile-{os.getpid()}"
    env = {"ARENA_HOSTILE_MARKER": marker}
    commands = {"honest": "random"} | {mode: f"{sys.executable} {MISBEHAVE} {mode}" for mode in EXPECTED}
    bots: list[dict[str, object]] = [{"name": n, "bot": c, "env": env} for n, c in commands.items()]
    config = parse_config(
        {"name": "hostile", "game": "wongar", "table_size": 3, "deals": 1, "seed": 3,
         "time_control": "100ms~1s", "clock": "wall", "concurrency": 2, "bots": bots},
        source="test", base=tmp_path,
    )
    with Store(tmp_path / "hostile.db") as store:
        summary = run_tournament(config, store, LocalExecutor(2, pin_cpus=True))
        games = store.games("hostile")
    assert (summary.total, summary.played, summary.failed) == (12, 12, 0)
    game = get_game("wongar")
    for stored in games:
        record = stored.record
        hostile = [s for s, name in enumerate(record.bots) if name in EXPECTED]
        check_match(game, record, hostile, [f.kind for f in record.faults])
        for seat in hostile:
            kinds = [f.kind for f in record.faults if f.seat == seat]
            assert kinds[-1] is EXPECTED[record.bots[seat]], (record.bots, record.faults)
            assert set(kinds[:-1]) <= {FaultKind.TIMEOUT}, (record.bots, record.faults)
        # Every hostile bot misbehaves in every game it plays: each is faulted and forfeited.
        assert sorted({f.seat for f in record.faults}) == hostile == list(record.forfeited)
    # A bot that crashed is never seated again: each game of "crash" had a fresh process.
    crash_processes = [g.processes[g.record.bots.index("crash")] for g in games if "crash" in g.record.bots]
    assert len(crash_processes) == 9 and len(set(crash_processes)) == 9
    deadline = time.monotonic() + 20
    while marked_processes(marker) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert marked_processes(marker) == []
