"""Sandbox escapes in a real tournament (local worker processes, a SQLite store): bots that look
for rivals' tokens, read and rewrite the results database, stop the runner, and leave a daemon
behind play every game without a fault; every escape they report is blocked, the honest bot's
results stand, the database stays the organiser's alone, and no process outlives the run."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

from hostile_helpers import check_match
from polling import wait_until
from process_census import processes_marked

from arena.store.db import Store
from arena.tournament.config import parse_config
from arena.tournament.executors import LocalExecutor
from arena.tournament.runner import run_tournament
from engine.registry import get_game

ESCAPE_BOT = Path(__file__).with_name("escape_bot.py")
ATTACKS = ("tokens", "database", "stop", "daemon")


def test_a_tournament_of_escaping_bots_is_played_and_stored_untouched(tmp_path: Path) -> None:
    database = tmp_path / "league.db"
    marker = f"escape-tournament-{os.getpid()}-{time.monotonic_ns()}"
    env = {"ATTACK_REFEREE": str(os.getpid()), "ATTACK_RIVAL": str(os.getppid()),
           "ATTACK_DB": str(database), "ATTACK_PORT": "9", "ATTACK_RIVAL_FILE": str(database),
           "ATTACK_MARKER": marker}
    bots: list[dict[str, object]] = [{"name": "honest", "bot": "random"}]
    bots += [{"name": attack, "bot": f"{sys.executable} {ESCAPE_BOT} {attack}", "env": env}
             for attack in ATTACKS]
    config = parse_config(
        {"name": "escapes", "game": "wongar", "table_size": 3, "deals": 1, "seed": 5,
         "time_control": "1s~1s", "concurrency": 2, "bots": bots},
        source="test", base=tmp_path,
    )
    with Store(database) as store:
        summary = run_tournament(config, store, LocalExecutor(2, pin_cpus=True))
        games = store.games("escapes")
        stored = {g.placement.game_id: g.record.scores for g in games}
    assert (summary.total, summary.played, summary.failed) == (30, 30, 0)
    assert database.stat().st_mode & 0o777 == 0o600
    game = get_game("wongar")
    reports: dict[str, list[str]] = {attack: [] for attack in ATTACKS}
    for stored_game in games:
        record = stored_game.record
        check_match(game, record, [s for s, name in enumerate(record.bots) if name != "honest"], ())
        for decision in record.decisions:
            if decision.info is not None and "outcome" in decision.info:
                outcome = decision.info["outcome"]
                assert isinstance(outcome, list)
                reports[record.bots[decision.seat]] += [str(line) for line in outcome]
    # Every process of every attacker tried once (a process plays several games of a generation).
    assert all(reports.values()), reports
    for attack in ("tokens", "database", "stop"):
        assert all(line.startswith("blocked") for line in reports[attack]), reports[attack]
    assert all(line.startswith("started") for line in reports["daemon"])
    # The store was not rewritten behind the runner's back.
    with Store(database) as store:
        assert {g.placement.game_id: g.record.scores for g in store.games("escapes")} == stored
    assert wait_until(lambda: processes_marked("ATTACK_DAEMON", marker) == [], 10), \
        "a daemon outlived the tournament"
