"""Pinning match slots to processors: which processors slots get, and that a pinned tournament's
bots really run on their worker's processor alone (reported by the bots themselves)."""

from __future__ import annotations

import os
import sys
from collections import defaultdict
from pathlib import Path

from arena.store.db import Store
from arena.tournament.config import parse_config
from arena.tournament.cpus import slot_cpus, usable_cpus
from arena.tournament.executors import LocalExecutor
from arena.tournament.runner import run_tournament

AFFINITY_BOT = Path(__file__).with_name("affinity_bot.py")


def test_slots_get_distinct_processors_only_when_there_are_enough() -> None:
    cpus = usable_cpus()
    assert cpus == tuple(sorted(os.sched_getaffinity(0)))
    assert slot_cpus(len(cpus), True) == list(cpus)
    assert slot_cpus(1, True) == [cpus[0]]
    assert slot_cpus(len(cpus) + 1, True) == [None] * (len(cpus) + 1)
    assert slot_cpus(len(cpus), False) == [None] * len(cpus)


def _cpus_seen(tmp_path: Path, pin_cpus: bool) -> dict[int, set[tuple[int, ...]]]:
    """Play a small tournament at concurrency 2; each bot process → the processor sets it saw."""
    bots = [{"name": f"a{i}", "bot": f"{sys.executable} {AFFINITY_BOT}"} for i in range(4)]
    config = parse_config(
        {"name": "pinning", "game": "wongar", "table_size": 3, "deals": 1, "seed": 5,
         "time_control": "1s", "concurrency": 2, "pin_cpus": pin_cpus, "bots": bots},
        source="test", base=tmp_path,
    )
    with Store(tmp_path / "pinning.db") as store:
        summary = run_tournament(config, store, LocalExecutor(2, pin_cpus=config.pin_cpus))
        games = store.games("pinning")
    assert summary.played == summary.total == 12
    seen: dict[int, set[tuple[int, ...]]] = defaultdict(set)
    for game in games:
        for decision in game.record.decisions:
            assert isinstance(decision.info, dict) and not decision.fallback
            cpus, pid = decision.info["cpus"], decision.info["pid"]
            assert isinstance(cpus, list) and isinstance(pid, int)
            seen[pid].add(tuple(c for c in cpus if isinstance(c, int)))
    return seen


def test_a_pinned_tournament_runs_each_slot_on_a_processor_of_its_own(tmp_path: Path) -> None:
    seen = _cpus_seen(tmp_path, pin_cpus=True)
    expected = slot_cpus(2, True)
    if None in expected:  # a one-processor machine: pinning two slots is declined
        assert {s for sets in seen.values() for s in sets} == {usable_cpus()}
        return
    # Every bot process ran on one processor for all its life, and both slots' processors served.
    assert all(len(sets) == 1 and len(next(iter(sets))) == 1 for sets in seen.values())
    assert {cpu for sets in seen.values() for (cpu,) in sets} == set(expected)


def test_an_unpinned_tournament_leaves_the_bots_every_processor(tmp_path: Path) -> None:
    seen = _cpus_seen(tmp_path, pin_cpus=False)
    assert {s for sets in seen.values() for s in sets} == {usable_cpus()}
