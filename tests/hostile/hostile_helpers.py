"""Helpers for the hostile-bot suite: the misbehaving bot of the referee tests, process groups, RSS,
and the checks every hostile match must pass."""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

from arena.manifest import BotSpec, ResourceLimits
from arena.record import FaultKind, MatchRecord
from arena.referee import final_ranks
from engine.core import Game, replay

MISBEHAVE = Path(__file__).parents[1] / "referee" / "botprograms" / "misbehave.py"


def _referee_helpers() -> ModuleType:
    """The referee tests' helper module, loaded from its file (its folder is not on the path)."""
    path = Path(__file__).parents[1] / "referee" / "referee_helpers.py"
    spec = importlib.util.spec_from_file_location("referee_helpers_for_hostile", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def live_group_members(pgid: int) -> list[int]:
    """Pids of live (non-zombie) processes in group ``pgid``."""
    members: list[int] = _referee_helpers().live_group_members(pgid)
    return members


def hostile(mode: str, limits: ResourceLimits = ResourceLimits()) -> BotSpec:
    """The misbehaving bot in ``mode``, under ``limits``."""
    return BotSpec(f"hostile-{mode}", (sys.executable, str(MISBEHAVE), mode), limits=limits)


def rss_bytes() -> int:
    """Resident memory of this process, from /proc (bytes)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise AssertionError("no VmRSS in /proc/self/status")


def check_match(
    game: Game, record: MatchRecord, hostile_seats: Sequence[int], kinds: Sequence[FaultKind]
) -> None:
    """What every match with hostile seats must show: it replays to the recorded result from the
    recorded decisions, places follow the game's result with forfeited seats last, only hostile
    seats have faults (of the expected kinds, in order) or fallback decisions."""
    state = replay(game, record.config, record.seed, [(d.seat, d.action) for d in record.decisions])
    assert state.is_over()
    result = state.result()
    assert result.scores == record.scores
    assert record.ranks == final_ranks(result.ranks, record.forfeited)
    assert set(record.forfeited) <= set(hostile_seats)
    assert [f.kind for f in record.faults] == list(kinds), record.faults
    assert all(f.seat in hostile_seats for f in record.faults)
    assert not any(d.fallback for d in record.decisions if d.seat not in hostile_seats)
