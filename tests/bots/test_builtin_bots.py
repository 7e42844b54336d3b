"""The built-in bots as real processes: whole matches of every setup of every game without a fault.

Here each search runs a fixed node budget under a clock no such search comes near, so a busy
machine changes nothing; how they keep to a tight clock is tested in ``test_builtin_bots_cpu_clock``
(sandboxed, on the CPU clock, in the ``sandbox`` tier).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

import pytest
from game_setups import every_setup

from arena.clock import TimeControl
from arena.handle import BotHandle, close_all
from arena.manifest import resolve_bot
from arena.record import MatchRecord
from arena.referee import play_match
from engine.core import Game, MatchConfig
from protocols.messages import ENV_NODES
from protocols.transport import Hub

#: Node budgets small enough for a quick match: every search is still run, without its depth.
BUDGETS = {"ismcts": 4, "greedy": 1}
#: A clock no node-budgeted search comes near: only the budget decides how much a bot thinks.
SLACK = TimeControl.parse("5s")
#: Seat order of the mixed tables: the first ``players`` of these play.
TABLE = ("ismcts", "greedy", "random", "ismcts", "greedy", "random")
SEED = 4100


def _setups() -> list[object]:
    """Every setup; beyond each variant's fewest players, in the ``slow`` tier."""
    seen: set[tuple[str, str]] = set()
    params: list[object] = []
    for setup in every_setup():
        variant = (setup.game.key, setup.config.variant)
        marks = [pytest.mark.slow] if variant in seen else []
        seen.add(variant)
        params.append(pytest.param((setup.game, setup.config), id=setup.id, marks=marks))
    return params


@pytest.fixture(scope="module")
def seats(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, list[BotHandle]]]:
    """Long-lived bot processes on one hub: each name as many times as a table seats it."""
    logs = tmp_path_factory.mktemp("bot-logs")
    with Hub() as hub:
        names = sorted(set(TABLE))
        specs = [replace(resolve_bot(name), env={ENV_NODES: str(BUDGETS[name])} if name in BUDGETS else {})
                 for name in names for _ in range(TABLE.count(name) + (name == "random"))]
        handles = BotHandle.launch_all(specs, hub, logs)
        try:
            by_name: dict[str, list[BotHandle]] = {name: [] for name in names}
            for handle in handles:
                assert handle.alive(), f"{handle.spec.name} did not start: {handle.failure}"
                by_name[handle.spec.name].append(handle)
            yield by_name
        finally:
            close_all(handles)


def _table(seats: dict[str, list[BotHandle]], names: list[str]) -> list[BotHandle]:
    taken = {name: 0 for name in seats}
    table = []
    for name in names:
        table.append(seats[name][taken[name]])
        taken[name] += 1
    return table


def _assert_clean(record: MatchRecord) -> None:
    assert record.faults == (), record.faults
    assert record.forfeited == ()
    assert not any(d.fallback for d in record.decisions)


@pytest.mark.parametrize("setup", _setups())
def test_every_builtin_finishes_a_match_of_every_setup(
    setup: tuple[Game, MatchConfig], seats: dict[str, list[BotHandle]]
) -> None:
    """Every variant and player count: no timeout, crash or bad reply; ISMCTS reports its search."""
    game, config = setup
    names = list(TABLE[: config.players])
    record = play_match(game, config, SEED, _table(seats, names), SLACK)
    _assert_clean(record)
    assert len(record.ranks) == config.players
    searched = [d.info for d in record.decisions if names[d.seat] == "ismcts" and d.info]
    assert searched and all("nodes" in info and "value" in info for info in searched)
    assert any(info["nodes"] == BUDGETS["ismcts"] for info in searched)
