"""How the referee treats seats whose bot is missing, gone or back, with exact answers: scripted
bots in threads (local ones on their own ``ipc://`` endpoint, remote ones over ``tcp://``) and a
few real processes; each test checks the faults, their details and plies, what each bot was sent,
and the time charged."""

from __future__ import annotations

import dataclasses
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import msgpack
import pytest
import zmq
from referee_helpers import misbehaving
from scripted_seats import (
    ANSWER, HangUp, Reconnect, SEED, Seat, Table, at, referee_log, simultaneous_game, table_on_hub,
)

import arena.referee as referee
from arena.clock import TimeControl
from arena.handle import BotHandle
from arena.manifest import BotSpec
from arena.record import Fault, FaultKind, MatchRecord
from engine.core import Game
from protocols.codec import encode
from protocols.messages import Action, Hello

#: A referee that waits where it should not fails the test soon (each takes a few seconds at most).
pytestmark = pytest.mark.timeout(30)
#: The start of a raw-wire bot: connected, hello sent.
GREETS = (
    "import os, time, msgpack, zmq\n"
    "s = zmq.Context().socket(zmq.DEALER)\n"
    "s.setsockopt(zmq.LINGER, 0)\n"
    "s.connect(os.environ['ARENA_ENDPOINT'])\n"
    "s.send(msgpack.packb({'type': 'hello', 'protocol': 1, 'name': 'raw', 'version': '0',"
    " 'token': os.environ['ARENA_TOKEN']}))\n"
)
#: A bot that exits 0.3 s after it is welcomed.
QUITTER = BotSpec("quitter", (sys.executable, "-c", GREETS + "s.recv()\ntime.sleep(0.3)\nos._exit(0)\n"),
                  trusted=True)
#: A bot that closes its connection at its first act, and keeps running.
HANGS_UP = BotSpec("hangs-up", (sys.executable, "-c", GREETS + (
    "while msgpack.unpackb(s.recv())['type'] != 'act':\n"
    "    pass\n"
    "s.close()\n"
    "time.sleep(60)\n")), trusted=True)


@pytest.fixture(scope="module")
def game() -> Game:
    return simultaneous_game()


@pytest.fixture()
def table() -> Iterator[Table]:
    with table_on_hub() as seated:
        yield seated


def own(record: MatchRecord, seat: int) -> list[int]:
    return [i for i, d in enumerate(record.decisions) if d.seat == seat]


def test_a_remote_seat_may_join_late_and_is_sent_start_before_its_first_act(
    game: Game, table: Table
) -> None:
    control = TimeControl(0.1, bank=60.0, grace=0.0)  # a bank no loaded machine exhausts
    record = table.play(game, control, [Seat(join_after=0.3), Seat(), Seat()])
    assert record.faults == () and record.forfeited == ()
    late = table.bots[0]
    assert len(late.starts) == 1 and late.starts[0].seat == 0
    assert [len(table.bots[s].starts) for s in (1, 2)] == [1, 1]
    assert late.acts[0].ply == 0
    assert late.acts[0].events == game.start(game.configure(3), SEED).events(0, 0)[0]
    first = record.decisions[own(record, 0)[0]]
    assert not first.fallback and first.elapsed >= 0.3
    # Its clock ran while it was away: the time beyond the free move came out of its bank.
    assert late.acts[1].clock.bank_ms <= 60_000 - 200
    assert table.bots[1].acts[1].clock.bank_ms == 60_000


def test_a_remote_seat_that_never_joins_crashes_after_the_rejoin_grace_or_its_limit(
    game: Game, table: Table
) -> None:
    # A limit the two prompt seats keep however busy the machine (they play the rest of the match
    # on it, with no grace), and a rejoin grace beyond it.
    record = table.play(game, TimeControl(1.0, grace=0.0), [Seat(join_after=None)], rejoin_grace=1.5)
    assert record.faults == (Fault(0, FaultKind.CRASH, 0, "connection lost, not back within 1.5 s"),)
    assert record.forfeited == (0,) and record.ranks[0] == 3
    missing = record.decisions[0]
    assert missing.fallback and 1.5 <= missing.elapsed < 3
    assert all(bot.ends[0].forfeited == (0,) for bot in table.bots.values())


def test_the_rejoin_grace_never_shortens_a_decision(game: Game, table: Table) -> None:
    record = table.play(game, TimeControl(1.0, grace=0.0), [Seat(join_after=None)], rejoin_grace=0.05)
    assert record.faults == (Fault(0, FaultKind.CRASH, 0, "connection lost, not back within 0.05 s"),)
    assert 1.0 <= record.decisions[0].elapsed < 2.5


def test_a_silent_seat_times_out_at_its_deadline_not_at_the_next_crash_check(
    game: Game, table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(referee, "CRASH_CHECK", 10.0)  # the referee would otherwise look every 50 ms
    # A limit the two prompt seats keep however busy the machine (they play the rest of the match
    # on it, with no grace), still well short of the crash check.
    record = table.play(game, TimeControl(1.0, grace=0.0), [Seat(at({0: []}))], strikes=1)
    assert record.faults == (Fault(0, FaultKind.TIMEOUT, 0, "no reply within 1000 ms"),)
    assert 1.0 <= record.decisions[0].elapsed < 2


def test_a_remote_seat_that_drops_while_deciding_is_asked_again_once_back(
    game: Game, table: Table, caplog: pytest.LogCaptureFixture
) -> None:
    seats = [
        Seat(at({1: [0.5, ANSWER]}), remote=False),  # still deciding, ahead of seat 1
        Seat(at({1: [Reconnect(after=0.2)]})),
        Seat(),
    ]
    with caplog.at_level("INFO", logger="arena.referee"):
        record = table.play(game, TimeControl(1.0, grace=0.0), seats, rejoin_grace=0.05)
    assert record.faults == ()
    back = table.bots[1]
    assert len(back.starts) == 2 and back.starts[0] == back.starts[1]
    assert [a.ply for a in back.acts[:3]] == [0, 3, 3] and back.acts[2].seq > back.acts[1].seq
    # The act after the new start carries every event of the match so far.
    assert back.acts[2].events == back.acts[0].events + back.acts[1].events
    assert len(back.acts[3].events) < len(back.acts[0].events + back.acts[1].events + back.acts[2].events)
    decision = record.decisions[4]
    assert decision.seat == 1 and not decision.fallback and 0.2 <= decision.elapsed < 1.0
    assert referee_log(caplog.records).count("m-1 seat 1: connection lost; waiting for it to reconnect") == 1


def test_a_remote_seat_that_reconnects_while_deciding_is_asked_again_on_the_new_connection(
    game: Game, table: Table, caplog: pytest.LogCaptureFixture
) -> None:
    # The old connection stays open: the hub learns of the new one before any loss.
    seats = [Seat(), Seat(at({1: [Reconnect(close=False)]})), Seat()]
    with caplog.at_level("INFO", logger="arena.referee"):
        record = table.play(game, TimeControl(1.0, grace=0.0), seats, rejoin_grace=0.05)
    assert record.faults == ()
    back = table.bots[1]
    assert len(back.starts) == 2 and [a.ply for a in back.acts[:3]] == [0, 3, 3]
    assert back.acts[2].events == back.acts[0].events + back.acts[1].events
    assert not any("connection lost" in m for m in referee_log(caplog.records))


def test_a_reply_after_its_deadline_while_another_seat_still_decides_is_dropped(
    game: Game, table: Table, caplog: pytest.LogCaptureFixture
) -> None:
    # Limit, late reply and rejoin grace a second apart, so the referee's deadline comes before the
    # reply and the reply before seat 1 is given up however busy the machine; and a limit the prompt
    # seats keep over the rest of the match, with no grace.
    seats = [Seat(at({0: [2.5, ANSWER]})), Seat(at({0: [HangUp()]})), Seat()]
    with caplog.at_level("INFO", logger="arena.referee"):
        record = table.play(game, TimeControl(1.5, grace=0.0), seats, rejoin_grace=3.5)
    assert record.faults == (Fault(0, FaultKind.TIMEOUT, 0, "no reply within 1500 ms"),
                             Fault(1, FaultKind.CRASH, 1, "connection lost, not back within 3.5 s"))
    assert record.detail["dropped"] == [1, 0, 0]
    late = Action(table.bots[0].acts[0].seq, table.bots[0].acts[0].legal[0])
    assert f"m-1 dropped {late!r} from seat0 (nothing asked)" in referee_log(caplog.records)
    assert 1.5 <= record.decisions[0].elapsed < 2.5 and 3.5 <= record.decisions[1].elapsed < 5


def test_a_protocol_2_seat_is_sent_what_changed_and_the_whole_observation_after_each_start(
    game: Game, table: Table
) -> None:
    seats = [Seat(), Seat(at({1: [Reconnect(close=False)]}), protocol=2), Seat(protocol=2)]
    record = table.play(game, TimeControl(1.0), seats)
    assert record.faults == ()
    # Each act's observation, as the seat would see it: the state's before that ply's decisions.
    state = game.start(game.configure(3), SEED)
    whole: dict[tuple[int, int], object] = {}
    for ply, decision in enumerate([*record.decisions, None]):
        for seat in range(3):
            whole[seat, ply] = msgpack.unpackb(msgpack.packb(state.observation(seat)))
        if decision is not None:
            state.apply(decision.seat, decision.action)
    for seat, bot in table.bots.items():
        assert [whole[seat, a.ply] for a in bot.acts] == bot.observations
    first, back = table.bots[0], table.bots[1]
    assert all(a.observation == o and a.gone == () for a, o in zip(first.acts, first.observations))
    # Protocol 2: whole in the first act after each start, else only the entries that changed.
    assert [len(a.observation) == len(o) for a, o in zip(back.acts[:4], back.observations)] == \
        [True, False, True, False]
    assert back.acts[2].ply == back.acts[1].ply and len(back.starts) == 2
    assert all(len(a.observation) < len(o) for a, o in zip(back.acts[3:], back.observations[3:]))
    assert table.bots[2].acts[1].observation != table.bots[2].observations[1]


def test_a_seat_back_after_its_limit_is_late_not_gone(game: Game, table: Table) -> None:
    # Limit, return and rejoin grace a second apart, and a limit the prompt seats keep over the whole
    # match with no grace, however busy the machine.
    seats = [Seat(), Seat(at({1: [Reconnect(after=2.5)]})), Seat()]
    record = table.play(game, TimeControl(1.5, grace=0.0), seats, rejoin_grace=3.5)
    ((seat, kind, ply, detail),) = [(f.seat, f.kind, f.ply, f.detail) for f in record.faults]
    assert (seat, kind, ply) == (1, FaultKind.TIMEOUT, 4) and record.forfeited == ()
    late = record.decisions[4]
    assert late.fallback and 2.5 <= late.elapsed < 3.5
    assert detail == f"reply after {late.elapsed * 1000:.0f} ms (limit 1500 ms)"
    assert len(table.bots[1].starts) == 2


def test_a_remote_seat_that_drops_while_deciding_and_stays_away_crashes(
    game: Game, table: Table
) -> None:
    seats = [Seat(), Seat(at({1: [HangUp()]})), Seat()]
    # A limit the prompt seats keep over the whole match with no grace, however busy the machine.
    record = table.play(game, TimeControl(1.0, grace=0.0), seats, rejoin_grace=1.5)
    assert record.faults == (Fault(1, FaultKind.CRASH, 4, "connection lost, not back within 1.5 s"),)
    assert record.forfeited == (1,) and 1.5 <= record.decisions[4].elapsed < 3
    assert table.bots[1].ends == [] and len(table.bots[0].ends) == 1


def test_a_local_seat_whose_connection_closes_while_deciding_crashes_at_once(
    game: Game, table: Table
) -> None:
    seats = [Seat(at({1: [HangUp()]}), remote=False), Seat(), Seat()]
    record = table.play(game, TimeControl(5.0), seats)
    assert record.faults == (Fault(0, FaultKind.CRASH, 3, "connection lost"),)
    assert record.forfeited == (0,)
    assert 0 < record.decisions[3].elapsed < 0.6  # noticed within a crash check, not at the limit
    assert len(table.bots[0].acts) == 2


def test_a_local_seat_gone_between_decisions_crashes_when_it_is_next_asked(
    game: Game, table: Table
) -> None:
    seats = [Seat(at({0: [ANSWER, 0.05, HangUp()]}), remote=False),
             Seat(at({0: [0.4, ANSWER]})), Seat()]
    record = table.play(game, TimeControl(1.0), seats)
    assert record.faults == (Fault(0, FaultKind.CRASH, 3, "seat0 is not connected"),)
    assert record.decisions[3].elapsed == 0.0 and record.decisions[3].fallback
    assert not record.decisions[0].fallback
    # The seats after it in the same round are still asked.
    assert not any(d.fallback for d in record.decisions if d.seat != 0)


def test_a_local_bot_process_that_exits_is_a_crash_with_its_exit_status(
    game: Game, table: Table, tmp_path: Path
) -> None:
    crasher = dataclasses.replace(misbehaving("crash"), trusted=True)  # answers three acts, exits 3
    handle = BotHandle.launch(crasher, table.hub, tmp_path)
    record = table.play(game, TimeControl(5.0), [Seat(handle=handle), Seat(), Seat()])
    fourth = own(record, 0)[3]
    assert record.faults == (Fault(0, FaultKind.CRASH, fourth, "process exited with status 3"),)
    assert record.forfeited == (0,) and record.decisions[fourth].elapsed < 0.6


def test_a_local_bot_whose_connection_closes_while_its_process_runs_has_lost_its_connection(
    game: Game, table: Table, tmp_path: Path
) -> None:
    handle = BotHandle.launch(HANGS_UP, table.hub, tmp_path)
    record = table.play(game, TimeControl(5.0), [Seat(handle=handle), Seat(), Seat()])
    assert record.faults == (Fault(0, FaultKind.CRASH, 0, "connection lost"),)
    assert record.decisions[0].elapsed < 0.6
    assert handle.process is not None and handle.process.alive()


def test_seats_unusable_at_the_start_are_forfeited_before_the_first_act(
    game: Game, table: Table, tmp_path: Path
) -> None:
    ghost = BotSpec("ghost", (str(tmp_path / "no-such-bot"),))
    (failed,) = BotHandle.launch_all([ghost], table.hub, tmp_path)
    assert failed.failure is not None
    # A local bot that said hello and closed its connection, and one whose process then exited;
    # the hub reads nothing after either.
    peer = table.hub.expect("gone")
    socket = zmq.Context.instance().socket(zmq.DEALER)
    socket.setsockopt(zmq.LINGER, 0)
    socket.connect(peer.endpoint)
    socket.send(encode(Hello(1, "gone", "1", peer.token)))
    assert table.hub.wait_connected([peer], 10) == []
    exited = BotHandle.launch(QUITTER, table.hub, tmp_path)
    socket.close()
    exited.thaw()  # frozen once it greeted, where it has control groups
    assert exited.process is not None and exited.process.wait(5)
    time.sleep(0.2)
    gone = BotHandle(BotSpec("gone", ("scripted",)), table.hub, peer)
    seats = [Seat(handle=failed), Seat(handle=exited), Seat(handle=gone)]
    record = table.play(game, TimeControl(1.0), seats)
    assert record.faults == (
        Fault(0, FaultKind.START, -1, failed.failure),
        Fault(1, FaultKind.START, -1, "its process is not running"),
        Fault(2, FaultKind.CRASH, -1, "gone: cannot send (Host unreachable)"),
    )
    assert record.forfeited == (0, 1, 2) and record.ranks == (1, 1, 1)
    assert all(d.fallback and d.elapsed == 0.0 for d in record.decisions)


def test_a_local_seat_that_never_connected_is_a_start_fault(game: Game, table: Table) -> None:
    record = table.play(game, TimeControl(1.0), [Seat(), Seat(remote=False, join_after=None), Seat()])
    assert record.faults == (Fault(1, FaultKind.START, -1, "not connected"),)
    assert record.forfeited == (1,)
    assert all(d.fallback == (d.seat == 1) for d in record.decisions)
