"""Pinning match slots to processors: which processors slots get, and that a pinned tournament's
bots start where they may and then run on their worker's processor alone (reported by the bots)."""

from __future__ import annotations

import sys
from collections import defaultdict
from pathlib import Path

import pytest

from arena.store.db import Store
from arena.tournament.config import parse_config
from arena.tournament.cpus import Pinning, slot_pinnings, usable_cpus
from arena.tournament.executors import LocalExecutor
from arena.tournament.runner import run_tournament

AFFINITY_BOT = Path(__file__).with_name("affinity_bot.py")
#: Per bot process: the (processors now, processors at start) pairs its decisions reported.
Seen = dict[int, set[tuple[tuple[int, ...], tuple[int, ...]]]]


def test_slots_get_distinct_processors_only_when_there_are_enough() -> None:
    cpus = usable_cpus()
    assert slot_pinnings(len(cpus), True) == [Pinning(c, frozenset({c})) for c in cpus]
    # Bots of a lone slot start on every processor; they then run on the slot's.
    assert slot_pinnings(1, True) == [Pinning(cpus[0], frozenset(cpus))]
    assert slot_pinnings(len(cpus) + 1, True) == [None] * (len(cpus) + 1)
    assert slot_pinnings(len(cpus), False) == [None] * len(cpus)


def _cpus_seen(tmp_path: Path, concurrency: int, pin_cpus: bool) -> Seen:
    """Play a small tournament; what each bot process reported."""
    bots = [{"name": f"a{i}", "bot": f"{sys.executable} {AFFINITY_BOT}", "trusted": True}
            for i in range(4)]
    config = parse_config(
        {"name": "pinning", "game": "wongar", "table_size": 3, "deals": 1, "seed": 5,
         "time_control": "1s", "concurrency": concurrency, "pin_cpus": pin_cpus, "bots": bots},
        source="test", base=tmp_path,
    )
    with Store(tmp_path / "pinning.db") as store:
        executor = LocalExecutor(concurrency, pin_cpus=config.pin_cpus)
        summary = run_tournament(config, store, executor)
        games = store.games("pinning")
    assert summary.played == summary.total == 12
    seen: Seen = defaultdict(set)
    for game in games:
        for decision in game.record.decisions:
            assert isinstance(decision.info, dict) and not decision.fallback
            now, started, pid = (decision.info[k] for k in ("cpus", "started_on", "pid"))
            assert isinstance(now, list) and isinstance(started, list) and isinstance(pid, int)
            seen[pid].add((tuple(c for c in now if isinstance(c, int)),
                           tuple(c for c in started if isinstance(c, int))))
    return seen


@pytest.mark.slow
@pytest.mark.parametrize("concurrency", [1, 2])
def test_a_pinned_tournament_runs_each_slot_on_a_processor_of_its_own(
    tmp_path: Path, concurrency: int
) -> None:
    seen = _cpus_seen(tmp_path, concurrency, pin_cpus=True)
    pinnings = {p.cpu: p for p in slot_pinnings(concurrency, True) if p is not None}
    if not pinnings:  # fewer processors than slots: pinning is declined
        assert {pair for pairs in seen.values() for pair in pairs} == {(usable_cpus(), usable_cpus())}
        return
    for pairs in seen.values():
        # One processor for the bot's whole match life, and it started where its worker lets bots.
        assert len(pairs) == 1
        ((now, started),) = pairs
        assert len(now) == 1 and started == tuple(sorted(pinnings[now[0]].start_on))
    assert {now for pairs in seen.values() for now, _ in pairs} == {(c,) for c in pinnings}


@pytest.mark.slow
def test_an_unpinned_tournament_leaves_the_bots_every_processor(tmp_path: Path) -> None:
    seen = _cpus_seen(tmp_path, 2, pin_cpus=False)
    assert {pair for pairs in seen.values() for pair in pairs} == {(usable_cpus(), usable_cpus())}
