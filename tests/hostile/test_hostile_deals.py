"""Guessable deals: sandboxed bots that try to compute the deal (and so every rival's hidden
cards) from an organiser's small seed, by inverting ``start.seed`` or by dealing candidate seeds
until one shows them their own hand, in a real ``arena play`` and a real tournament. Keyed with a
deal secret, the deals defeat both; each attack reports in its decisions' ``info``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hostile_helpers import check_match

from arena.record import MatchRecord
from arena.store.db import Store
from arena.tournament.config import parse_config
from arena.tournament.executors import LocalExecutor
from arena.tournament.runner import run_tournament
from engine.registry import get_game

pytestmark = pytest.mark.sandbox

CRACKER = Path(__file__).with_name("deal_cracker.py")
ARENA = [sys.executable, "-c", "from arena.cli.app import main; main()"]
ATTACKS = ("invert", "deal")


def verdicts(record: MatchRecord, seat: int) -> list[dict[str, Any]]:
    """What the cracker in ``seat`` reported at each of its decisions."""
    found = [d.info for d in record.decisions if d.seat == seat and not d.fallback]
    assert found and all(isinstance(v, dict) for v in found), record.faults
    return [dict(v) for v in found if isinstance(v, dict)]


def cracked(reports: dict[str, list[dict[str, Any]]]) -> dict[str, list[int]]:
    """The engine seeds each attack found, by attack."""
    return {attack: [v["seed"] for v in reported if v["cracked"]] for attack, reported in reports.items()}


def test_arena_play_with_a_small_seed_deals_nothing_a_bot_can_compute(tmp_path: Path) -> None:
    tmp_path.chmod(0o755)  # the bots' folder: sandboxed bots must read it
    record_file = tmp_path / "match.json"
    done = subprocess.run(
        [*ARENA, "play", "wongar", "--seed", "7", "--tc", "10s", "--record", str(record_file),
         *[arg for attack in ATTACKS for arg in ("-b", f"{sys.executable} {CRACKER} {attack}")],
         "-b", "random"],
        cwd=tmp_path, capture_output=True, text=True, timeout=300,
    )
    assert done.returncode == 0, done.stderr
    record = MatchRecord.from_wire(json.loads(record_file.read_text()))
    check_match(get_game("wongar"), record, [0, 1], ())
    reports = {attack: verdicts(record, seat) for seat, attack in enumerate(ATTACKS)}
    assert {a: {v["attack"] for v in r} for a, r in reports.items()} == {a: {a} for a in ATTACKS}
    assert cracked(reports) == {attack: [] for attack in ATTACKS}
    assert all(r[0]["tried"] > 60 for r in reports.values())  # each ran through its guesses


def test_a_tournament_with_a_small_master_seed_deals_nothing_a_bot_can_compute(
    tmp_path: Path,
) -> None:
    tmp_path.chmod(0o755)
    field = ["invert", "deal", "honest-1", "honest-2"]
    env = {"CRACK_FIELD": ",".join(field), "CRACK_TABLE_SIZE": "3", "CRACK_DEALS": "1"}
    bots: list[dict[str, object]] = [
        {"name": attack, "bot": f"{sys.executable} {CRACKER} {attack}", "env": env}
        for attack in ATTACKS
    ]
    bots += [{"name": name, "bot": "random"} for name in field[2:]]
    config = parse_config(
        {"name": "cracks", "game": "wongar", "table_size": 3, "deals": 1, "seed": 6,
         "time_control": "10s", "concurrency": 2, "bots": bots},
        source="test", base=tmp_path,
    )
    with Store(tmp_path / "league.db") as store:
        summary = run_tournament(config, store, LocalExecutor(2, pin_cpus=True))
        games = store.games("cracks")
    assert (summary.total, summary.played, summary.failed) == (12, 12, 0)
    reports: dict[str, list[dict[str, Any]]] = {attack: [] for attack in ATTACKS}
    for stored in games:
        record = stored.record
        attackers = [s for s, name in enumerate(record.bots) if name in ATTACKS]
        check_match(get_game("wongar"), record, attackers, ())
        for seat in attackers:
            reports[record.bots[seat]] += verdicts(record, seat)
    assert all(reports.values())
    assert cracked(reports) == {attack: [] for attack in ATTACKS}
