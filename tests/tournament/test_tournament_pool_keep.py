"""A worker's bot pool keeps the idle processes of the generations a job says to keep."""

from __future__ import annotations

from pathlib import Path

from arena.handle import BotHandle
from arena.manifest import resolve_bot
from arena.tournament.pool import BotPool
from protocols.transport import Hub


def test_the_pool_keeps_the_most_recent_generations_and_closes_the_others(tmp_path: Path) -> None:
    spec = resolve_bot("random")
    with Hub() as hub, BotPool(hub, tmp_path) as pool:
        first: dict[int, BotHandle] = {}
        for generation in (0, 1, 2):  # keep 3: every generation's process stays
            (handle,) = pool.seat([spec], generation, keep=3)
            assert handle.alive(), handle.failure
            first[generation] = handle
            pool.give_back(handle, generation)
        for generation in (0, 1, 2, 0):
            (handle,) = pool.seat([spec], generation, keep=3)
            assert handle is first[generation], "the idle process of its generation, reused"
            pool.give_back(handle, generation)
        assert pool.launched == 3
        (handle,) = pool.seat([spec], 1, keep=1)  # keep 1: the others are closed
        assert handle is first[1]
        pool.give_back(handle, 1)
        assert not first[0].alive() and not first[2].alive()
        (again,) = pool.seat([spec], 0, keep=1)
        assert again is not first[0] and again.alive() and pool.launched == 4
        pool.give_back(again, 0)
        assert not first[1].alive()
