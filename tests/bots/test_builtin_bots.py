"""The built-in bots as real processes: whole matches of every game without a fault, and a ladder."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from game_setups import every_setup

from arena.clock import TimeControl
from arena.handle import BotHandle, close_all
from arena.manifest import resolve_bot
from arena.record import MatchRecord
from arena.referee import play_match
from engine.core import Game, MatchConfig
from engine.registry import games
from protocols.transport import Hub

#: The smallest per-move limit the bots promise to keep. The bots budget against the move limit
#: alone, on the clock they are charged by (here elapsed time), and no longer think less when the
#: machine is busy; the referee's grace (50 ms by default) is widened here only to absorb the
#: scheduling stalls of a shared, busy test machine (several times its processors in runnable
#: work), which no bot can prevent.
FAST = TimeControl.parse("50ms~400ms")
#: Seat order of the mixed tables: the first ``players`` of these play.
TABLE = ("ismcts", "greedy", "random", "ismcts", "greedy")
SETUPS = [(setup.game, setup.config) for setup in every_setup()]
SEEDS = (4100, 4101)


@pytest.fixture(scope="module")
def seats(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, list[BotHandle]]]:
    """Long-lived bot processes on one hub: each name as many times as a table seats it."""
    logs = tmp_path_factory.mktemp("bot-logs")
    with Hub() as hub:
        names = sorted(set(TABLE))
        specs = [resolve_bot(name) for name in names for _ in range(TABLE.count(name) + (name == "random"))]
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


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("setup", SETUPS, ids=[setup.id for setup in every_setup()])
def test_every_builtin_finishes_matches_inside_a_50ms_clock(
    setup: tuple[Game, MatchConfig], seed: int, seats: dict[str, list[BotHandle]]
) -> None:
    """Every variant and player count: no timeout, crash or bad reply; ISMCTS reports its search."""
    game, config = setup
    names = list(TABLE[: config.players])
    record = play_match(game, config, seed, _table(seats, names), FAST)
    _assert_clean(record)
    assert len(record.ranks) == config.players
    searched = [d.info for d in record.decisions if names[d.seat] == "ismcts" and d.info]
    assert searched and all("nodes" in info and "value" in info for info in searched)
    assert any(isinstance(info["nodes"], int) and info["nodes"] > 0 for info in searched)


@pytest.mark.parametrize("game", list(games().values()), ids=lambda g: g.key)
def test_greedy_beats_random_over_a_rotation(game: Game, seats: dict[str, list[BotHandle]]) -> None:
    """Greedy against two random bots, in each seat once: its mean rank is clearly the better."""
    config = game.configure(3)
    ranks: dict[str, list[int]] = {"greedy": [], "random": []}
    for rotation in range(3):
        names = [("greedy", "random", "random")[(s + rotation) % 3] for s in range(3)]
        record = play_match(game, config, 7300 + rotation, _table(seats, names), FAST)
        _assert_clean(record)
        for seat, name in enumerate(names):
            ranks[name].append(record.ranks[seat])
    greedy = sum(ranks["greedy"]) / len(ranks["greedy"])
    rand = sum(ranks["random"]) / len(ranks["random"])
    assert greedy + 0.5 < rand, ranks
