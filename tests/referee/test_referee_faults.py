"""Misbehaving bots against the real referee: each fault is recorded, the game completes, and no
process is left behind."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from arena.clock import ClockRule, TimeControl
from arena.handle import BotHandle
from arena.record import FaultKind, MatchRecord
from arena.referee import FaultPolicy, play_match, run_match
from engine.core import Game, replay
from protocols.transport import Hub
from referee_helpers import live_group_members, misbehaving

#: Every misbehaving bot here is untrusted, so starts sandboxed.
pytestmark = pytest.mark.usefixtures("working_sandbox")

# Short enough to keep the tests fast, with a grace wide enough that a well-behaved bot on a loaded
# machine is not late, and still well short of the "late" bot's 1 s.
FAST = TimeControl(0.1, grace=0.6)
#: Misbehaving bots are judged by elapsed time (a late bot sleeps, which the CPU clock never charges).
WALL = ClockRule("wall")


@pytest.fixture()
def launch(hub: Hub, tmp_path: Path) -> Iterator[list[BotHandle]]:
    """Handles launched by a test, closed after it (and checked to leave no process)."""
    launched: list[BotHandle] = []
    yield launched
    for handle in launched:
        handle.close(grace=0.2)
        assert handle.process is not None and handle.process.pid is not None
        assert live_group_members(handle.process.pid) == []


def play_with(mode: str, game: Game, hub: Hub, random_bots: list[BotHandle], launch: list[BotHandle],
              tmp_path: Path, strikes: int = 3) -> MatchRecord:
    bad = BotHandle.launch(misbehaving(mode), hub, tmp_path)
    launch.append(bad)
    players = game.min_players
    config = game.configure(players)
    seats = [bad, *random_bots[: players - 1]]
    record = play_match(game, config, 11, seats, FAST, FaultPolicy(strikes), clock=WALL)
    assert replay(game, config, 11, [(d.seat, d.action) for d in record.decisions]).is_over()
    return record


def seat0_faults(record: MatchRecord) -> list[FaultKind]:
    assert all(f.seat == 0 for f in record.faults), record.faults
    return [f.kind for f in record.faults]


@pytest.mark.parametrize(
    ("mode", "kind"),
    [
        ("silent", FaultKind.TIMEOUT),
        ("late", FaultKind.TIMEOUT),
        ("illegal", FaultKind.ILLEGAL),
        ("wrong-seat", FaultKind.MALFORMED),
        ("deep", FaultKind.MALFORMED),
        ("error", FaultKind.MALFORMED),
    ],
)
def test_repeated_fault_forfeits_after_the_strikes(
    mode: str, kind: FaultKind, first_game: Game, hub: Hub, random_bots: list[BotHandle],
    launch: list[BotHandle], tmp_path: Path,
) -> None:
    record = play_with(mode, first_game, hub, random_bots, launch, tmp_path, strikes=2)
    assert seat0_faults(record) == [kind, kind]
    if mode == "error":
        assert record.faults[0].detail == "bot reported: cannot decide"
    assert record.forfeited == (0,)
    assert record.ranks[0] == record.players
    assert sorted(record.ranks[1:])[0] == 1
    assert all(d.fallback == (d.seat == 0) for d in record.decisions)


def test_crash_mid_match_forfeits_at_once(
    first_game: Game, hub: Hub, random_bots: list[BotHandle], launch: list[BotHandle], tmp_path: Path
) -> None:
    record = play_with("crash", first_game, hub, random_bots, launch, tmp_path)
    assert seat0_faults(record) == [FaultKind.CRASH]
    assert "status 3" in record.faults[0].detail
    assert record.forfeited == (0,)
    own = [d for d in record.decisions if d.seat == 0]
    assert [d.fallback for d in own[:3]] == [False] * 3 and all(d.fallback for d in own[3:])


def test_garbage_is_one_malformed_strike(
    first_game: Game, hub: Hub, random_bots: list[BotHandle], launch: list[BotHandle], tmp_path: Path
) -> None:
    record = play_with("garbage", first_game, hub, random_bots, launch, tmp_path)
    assert seat0_faults(record) == [FaultKind.MALFORMED]
    assert "msgpack" in record.faults[0].detail or "not allowed" in record.faults[0].detail
    assert record.forfeited == ()
    own = [d for d in record.decisions if d.seat == 0]
    assert [d.fallback for d in own].count(True) == 1 and own[1].fallback


def test_stale_replies_are_dropped_not_faults(
    first_game: Game, hub: Hub, random_bots: list[BotHandle], launch: list[BotHandle], tmp_path: Path
) -> None:
    record = play_with("stale", first_game, hub, random_bots, launch, tmp_path)
    assert record.faults == () and record.forfeited == ()
    assert not any(d.fallback for d in record.decisions)


def test_fallbacks_repeat_exactly_for_the_same_seed(
    first_game: Game, hub: Hub, random_bots: list[BotHandle], launch: list[BotHandle], tmp_path: Path
) -> None:
    first = play_with("illegal", first_game, hub, random_bots, launch, tmp_path, strikes=1)
    second = play_with("illegal", first_game, hub, random_bots, launch, tmp_path, strikes=1)
    fallback = [(d.seat, d.action) for d in first.decisions if d.seat == 0]
    assert fallback == [(d.seat, d.action) for d in second.decisions if d.seat == 0]


def test_a_bot_ignoring_bye_and_sigterm_is_killed_with_its_group(
    first_game: Game, hub: Hub, random_bots: list[BotHandle], launch: list[BotHandle], tmp_path: Path
) -> None:
    record = play_with("stubborn", first_game, hub, random_bots, launch, tmp_path)
    assert record.faults == ()
    stubborn = launch.pop()
    assert stubborn.process is not None and stubborn.process.pid is not None
    group = stubborn.process.pid
    # Sandboxed: the bot, its child and bubblewrap's two processes, all in its control group.
    assert stubborn.process.group is not None and len(stubborn.process.group.members()) == 4
    status = stubborn.close(grace=0.2)
    assert status == -9
    assert live_group_members(group) == []


def test_a_missing_program_is_a_start_fault_and_the_game_completes(
    first_game: Game, tmp_path: Path
) -> None:
    players = first_game.min_players
    missing = misbehaving("silent")
    broken = type(missing)("ghost", (str(tmp_path / "no-such-bot"),))
    bots = [broken, *[misbehaving("stale")] * (players - 1)]
    record = run_match(first_game, first_game.configure(players), 5, bots, FAST, log_dir=tmp_path)
    assert [(f.seat, f.kind, f.ply) for f in record.faults] == [(0, FaultKind.START, -1)]
    assert record.forfeited == (0,) and all(d.fallback for d in record.decisions if d.seat == 0)
