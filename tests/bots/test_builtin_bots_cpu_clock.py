"""The built-in bots keep to tight clocks: sandboxed, so that the referee charges each decision by
the bot's own CPU time and the bot budgets on that clock, every built-in finishes matches of every
setup inside a 50 ms move, ismcts spends a fair share of a 20 ms move on several iterations, greedy
samples as many states as its clock allows, and greedy, so thinking, beats random.
What other processes on the machine do cannot change a bot's CPU time, so neither can a busy
machine change these results."""

from __future__ import annotations

import statistics
from collections.abc import Iterator
from dataclasses import replace

import pytest
from game_setups import every_setup
from sandboxed import require_sandbox

from arena.clock import ClockRule, TimeControl
from arena.handle import BotHandle, close_all
from arena.manifest import resolve_bot
from arena.record import MatchRecord
from arena.referee import play_match
from bots.greedy import MAX_SAMPLES
from bots.heuristics import knows
from engine.core import Game, MatchConfig
from engine.registry import games
from protocols.transport import Hub

pytestmark = pytest.mark.sandbox

#: Charged by CPU time (the sandbox measures it), so the bots budget by CPU time too. The cap in
#: elapsed time (10 times the allowance by default, against a bot that sleeps) is widened: these
#: bots never sleep, and a busy machine can stall one past a second.
CPU = ClockRule("cpu", wall_cap=200)
#: The smallest per-move limit the bots promise to keep.
FAST = TimeControl.parse("50ms")
#: 20 ms a move.
TIGHT = TimeControl.parse("20ms")
#: A move long enough for every state greedy samples at most.
ROOMY = TimeControl.parse("1s")
#: Ten times the tight move.
TENFOLD = TimeControl.parse("200ms")
#: Seat order of the mixed tables: the first ``players`` of these play.
TABLE = ("ismcts", "greedy", "random", "ismcts", "greedy", "random")
SETUPS = [(setup.game, setup.config) for setup in every_setup()]
SEEDS = (4100, 4101)


@pytest.fixture(scope="module")
def seats(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, list[BotHandle]]]:
    """Long-lived sandboxed bot processes on one hub: each name as many times as a table seats it."""
    require_sandbox()
    logs = tmp_path_factory.mktemp("bot-logs")
    with Hub() as hub:
        names = sorted(set(TABLE))
        specs = [replace(resolve_bot(name), trusted=False)
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


def _play(game: Game, config: MatchConfig, seed: int, seats: dict[str, list[BotHandle]],
          control: TimeControl, names: tuple[str, ...] = TABLE) -> MatchRecord:
    """One match of the first ``config.players`` of ``names`` on the CPU clock, without a fault."""
    taken = dict.fromkeys(seats, 0)
    table = []
    for name in names[: config.players]:
        table.append(seats[name][taken[name]])
        taken[name] += 1
    record = play_match(game, config, seed, table, control, clock=CPU)
    assert record.detail["clock"] == "cpu", record.detail
    assert record.faults == (), _around_faults(record)
    assert record.forfeited == ()
    assert not any(d.fallback for d in record.decisions)
    return record


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("setup", SETUPS, ids=[setup.id for setup in every_setup()])
def test_every_builtin_finishes_matches_inside_a_50ms_clock(
    setup: tuple[Game, MatchConfig], seed: int, seats: dict[str, list[BotHandle]]
) -> None:
    """Every variant and player count: no timeout, crash or bad reply; ISMCTS reports its search."""
    game, config = setup
    record = _play(game, config, seed, seats, FAST)
    assert len(record.ranks) == config.players
    searched = [d.info for d in record.decisions if TABLE[d.seat] == "ismcts" and d.info]
    assert searched and all("nodes" in info and "value" in info for info in searched)
    assert any(isinstance(info["nodes"], int) and info["nodes"] > 0 for info in searched)


@pytest.mark.parametrize("game", list(games().values()), ids=lambda g: g.key)
def test_ismcts_searches_by_its_clock(game: Game, seats: dict[str, list[BotHandle]]) -> None:
    """By its CPU clock ismcts searches as long as its move allows (by its own account): ten times
    the move buys it more iterations, whatever the processor's speed (how many fit in 20 ms is the
    processor's business: a Wongar whole-turn prior alone may take most of them), and in Wongar,
    turn by turn, it spends a fair share of a 20 ms move."""
    tight, roomy = (_reports(_play(game, game.configure(3), 5150, seats, control), TABLE, "ismcts")
                    for control in (TIGHT, TENFOLD))
    assert tight and roomy

    def median(reports: list[dict[str, object]], key: str) -> float:
        return statistics.median(float(str(r[key])) for r in reports)

    assert median(roomy, "nodes") > median(tight, "nodes") and median(roomy, "nodes") >= 2
    if game.key == "wongar":  # turn by turn: the whole move is the mover's (a draft divides it)
        assert median(tight, "spent_ms") >= 0.3 * 20


@pytest.mark.parametrize("game", list(games().values()), ids=lambda g: g.key)
def test_greedy_samples_as_many_states_as_its_clock_allows(
    game: Game, seats: dict[str, list[BotHandle]]
) -> None:
    """A 1 s move gives greedy every state it samples at most; a 20 ms move gives it no more (in
    Wongar, where one sample finishes a turn for every action, fewer): it samples by its clock."""
    table = ("greedy", "random", "greedy")
    tight, roomy = ([float(str(r["nodes"])) for r in _reports(
        _play(game, game.configure(3), 5150, seats, control, table), table, "greedy")]
        for control in (TIGHT, ROOMY))
    assert tight and roomy
    assert statistics.median(roomy) == MAX_SAMPLES
    assert statistics.mean(tight) <= statistics.mean(roomy)


def _around_faults(record: MatchRecord) -> str:
    """Each fault of ``record`` with its seat's decisions just before and at it: the CPU the
    referee charged and what the bot reported, to tell a bot's overrun from a charge it never saw."""
    lines = []
    for fault in record.faults:
        lines.append(repr(fault))
        lines += [f"  ply {ply}: cpu {d.cpu} elapsed {d.elapsed:.4f} info {d.info} fallback {d.fallback}"
                  for ply, d in enumerate(record.decisions)
                  if d.seat == fault.seat and fault.ply - 12 <= ply <= fault.ply]
    return "\n".join(lines)


def _reports(record: MatchRecord, names: tuple[str, ...], name: str) -> list[dict[str, object]]:
    """The ``info`` of every decision of ``record``, whose seats ``names`` name, by a seat of
    ``name`` that reports searched nodes."""
    return [dict(d.info) for d in record.decisions
            if names[d.seat] == name and d.info and "nodes" in d.info]


@pytest.mark.parametrize("game", [g for g in games().values() if knows(g.name)], ids=lambda g: g.key)
def test_greedy_beats_random_over_a_rotation(game: Game, seats: dict[str, list[BotHandle]]) -> None:
    """Greedy thinking through 50 ms moves against two random bots, in each seat once: its mean
    rank is clearly the better (in the games it has an estimate of; in others it scores only
    finished games, so it is as good as random until the end is in sight)."""
    config = game.configure(3)
    ranks: dict[str, list[int]] = {"greedy": [], "random": []}
    for rotation in range(3):
        names = tuple(("greedy", "random", "random")[(s + rotation) % 3] for s in range(3))
        record = _play(game, config, 7300 + rotation, seats, FAST, names)
        for seat, name in enumerate(names):
            ranks[name].append(record.ranks[seat])
    greedy = sum(ranks["greedy"]) / len(ranks["greedy"])
    rand = sum(ranks["random"]) / len(ranks["random"])
    assert greedy + 0.5 < rand, ranks
