"""What the referee records and tells the bots, with exact answers: the frames it dropped and
refused, the ``end`` each seat is sent, the record's fields, the matches it refuses to play, and
:func:`run_match` starting and closing real bot processes."""

from __future__ import annotations

import dataclasses
import re
import shutil
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import zmq
from referee_helpers import BOTS
from scripted_seats import (
    ANSWER, PONG, SEED, Seat, Step, Table, at, referee_log, simultaneous_game, table_on_hub,
)

from arena import __version__
from arena.clock import ClockRule, TimeControl
from arena.handle import BotHandle
from arena.manifest import BotSpec
from arena.record import FaultKind
from arena.referee import FaultPolicy, RefereeError, final_ranks, play_match, run_match
from engine.core import Game, replay
from protocols.codec import DEFAULT_LIMITS, TRUSTED_LIMITS, decode, encode
from protocols.messages import Act, Action, Hello, Ping, Pong, Welcome
from protocols.transport import CurveKeys, Hub

#: A referee that waits where it should not fails the test soon (each takes a few seconds at most).
pytestmark = pytest.mark.timeout(30)
#: A raw-wire bot that answers at once (``botprograms/paced.py``), run outside the sandbox.
PACED = BotSpec("paced", (sys.executable, str(BOTS / "paced.py")), trusted=True)


@pytest.fixture(scope="module")
def game() -> Game:
    return simultaneous_game()


@pytest.fixture()
def table() -> Iterator[Table]:
    with table_on_hub() as seated:
        yield seated


def test_frames_answering_nothing_are_counted_and_the_first_five_logged(
    game: Game, table: Table, caplog: pytest.LogCaptureFixture
) -> None:
    three = [PONG, PONG, PONG, ANSWER]  # a pong with the act's seq is read, and is no answer
    with caplog.at_level("INFO", logger="arena.referee"):
        record = table.play(game, TimeControl(1.0), [Seat(at({0: three, 1: three}))])
    assert record.faults == () and record.detail["dropped"] == [6, 0, 0]
    seqs = [act.seq for act in table.bots[0].acts[:2]]
    logged = [f"m-1 dropped {Pong(seq)!r} from seat0 (waiting for seq {seq})" for seq in seqs]
    dropped = [m for m in referee_log(caplog.records) if " dropped " in m]
    assert dropped == [logged[0]] * 3 + [logged[1]] * 2


def test_each_record_counts_only_its_own_drops_and_refusals(
    game: Game, table: Table, caplog: pytest.LogCaptureFixture
) -> None:
    stale = [Action(0, 0), PONG, ANSWER]  # one dropped unread by the hub, one by the referee
    first = table.play(game, TimeControl(1.0), [Seat(at({0: stale}))], last=False)
    assert first.detail["dropped"] == [2, 0, 0] and first.detail["refused"] == 0
    hub = table.hub
    # A frame from a stranger before the next match, and one during it.
    stranger = zmq.Context.instance().socket(zmq.DEALER)
    stranger.setsockopt(zmq.LINGER, 0)
    stranger.connect(hub.listening or "")
    stranger.send(b"not a hello")
    deadline = time.monotonic() + 5
    while hub.refused == 0 and time.monotonic() < deadline:
        hub.receive(0.05)
    assert hub.refused == 1

    def stranger_speaks(*_: object) -> None:
        if len(sent) == 0:
            stranger.send(b"still not a hello")
        sent.append(1)

    sent: list[int] = []
    # Two bots on the hub that are not seated, whose frames answering a ping (seven in all, none
    # of them a pong) come in during the match.
    extras = [hub.expect(f"extra{n}") for n in range(2)]
    sockets = []
    for peer in extras:
        socket = zmq.Context.instance().socket(zmq.DEALER)
        socket.setsockopt(zmq.LINGER, 0)
        socket.connect(peer.endpoint)
        socket.send(encode(Hello(1, peer.label, "1", peer.token)))
        sockets.append(socket)
    assert hub.wait_connected(extras, 10) == []
    for peer, socket, count in zip(extras, sockets, (4, 3)):
        assert hub.ping(peer, 0.0) is None
        assert isinstance(decode(socket.recv(), TRUSTED_LIMITS), Welcome)
        ping = decode(socket.recv(), TRUSTED_LIMITS)
        assert isinstance(ping, Ping)
        for _ in range(count):
            socket.send(encode(Action(ping.seq, 0)))
    try:
        with caplog.at_level("INFO", logger="arena.referee"):
            second = table.play(game, TimeControl(1.0), match_id="m-2", on_decision=stranger_speaks)
    finally:
        for each in [stranger, *sockets]:
            each.close()
    assert second.detail["dropped"] == [0, 0, 0] and second.detail["refused"] == 1
    assert second.faults == ()
    others = [m for m in referee_log(caplog.records)
              if re.fullmatch(r"m-2 dropped Action\(seq=\d+, action=0, .*\) from extra[01] \(nothing asked\)", m)]
    assert len(others) == 5  # of seven
    # The same bots played both: each was sent one start and one end per match.
    for seat in range(3):
        bot = table.bots[seat]
        assert [s.match for s in bot.starts] == ["m-1", "m-2"]
        assert [e.match for e in bot.ends] == ["m-1", "m-2"]


def test_the_end_carries_every_event_not_yet_sent_and_the_result(game: Game, table: Table) -> None:
    def illegal(act: Act, before: int) -> list[Step]:
        return [Action(act.seq, max(act.legal) + 1)]

    record = table.play(game, TimeControl(1.0, grace=0.75), [Seat(illegal)], strikes=1)
    config = game.configure(3)
    state = replay(game, config, SEED, [(d.seat, d.action) for d in record.decisions])
    result = state.result()
    assert record.forfeited == (0,) and record.ranks == final_ranks(result.ranks, (0,))
    for seat in range(3):
        bot = table.bots[seat]
        (end,) = bot.ends
        assert bot.starts[0].grace_ms == 750
        assert (end.match, end.seat, end.scores, end.ranks, end.forfeited) == \
            ("m-1", seat, result.scores, record.ranks, (0,))
        sent = [event for act in bot.acts for event in act.events] + end.events
        assert sent == state.events(seat, 0)[0]
    assert (record.game, record.version, record.variant) == (game.name, game.version, config.variant)
    assert (record.knobs, record.seed, record.bots) == (dict(config.knobs), SEED, ("seat0", "seat1", "seat2"))
    assert 0 < record.duration < 30
    assert record.detail["match"] == "m-1" and record.detail["clock"] == "wall"
    assert record.detail["referee"] == f"arena {__version__}"
    assert record.detail["result"] == result.detail and record.detail["time_control"] == "1s~750ms"


def test_a_match_without_an_id_gets_a_fresh_random_one(game: Game, table: Table) -> None:
    table.seat([Seat(), Seat(), Seat()])
    ids = [play_match(game, game.configure(3), SEED, table.handles, TimeControl(1.0)).detail["match"]
           for _ in range(2)]
    assert all(re.fullmatch(r"[0-9a-f]{16}", i) for i in ids) and ids[0] != ids[1]
    assert [s.match for s in table.bots[0].starts] == ids


def test_matches_that_cannot_be_played_are_refused(game: Game, table: Table) -> None:
    handles = table.seat([Seat(), Seat(), Seat()])
    config = game.configure(3)
    with pytest.raises(RefereeError) as caught:
        play_match(game, config, SEED, handles[:2], TimeControl(1.0))
    assert str(caught.value) == "3 players need 3 bots, got 2"
    with Hub() as other:
        elsewhere = BotHandle(BotSpec("elsewhere", ("scripted",)), other, other.expect("elsewhere"))
        with pytest.raises(RefereeError) as caught:
            play_match(game, config, SEED, [*handles[:2], elsewhere], TimeControl(1.0))
    assert str(caught.value) == "all seats of a match must be connected to the same hub"
    twice = dataclasses.replace(handles[0])
    with pytest.raises(RefereeError) as caught:
        play_match(game, config, SEED, [handles[0], twice, handles[2]], TimeControl(1.0))
    assert str(caught.value) == "one bot connection cannot play two seats of a match"
    with pytest.raises(RefereeError) as caught:
        play_match(game, config, SEED, handles, TimeControl(1.0), clock=ClockRule("cpu"))
    assert str(caught.value) == ("the CPU clock cannot time every bot: 'seat0' is a remote seat, "
                                 "timed on the wall clock; use --clock wall or auto")
    assert all(bot.starts == [] for bot in table.bots.values())
    record = play_match(game, config, SEED, handles, TimeControl(1.0), clock=ClockRule("auto"))
    assert record.detail["clock"] == "wall" and table.bots[0].acts


def test_run_match_starts_the_bots_plays_and_keeps_their_logs(game: Game, tmp_path: Path) -> None:
    record = run_match(game, game.configure(3), SEED, [PACED] * 3, TimeControl(1.0),
                       log_dir=tmp_path, endpoint="tcp://127.0.0.1:*", clock=ClockRule("wall"))
    assert record.faults == () and record.bots == ("paced",) * 3 and record.seed == SEED
    moves = [(d.seat, d.action) for d in record.decisions]
    assert replay(game, game.configure(3), SEED, moves).result().scores == record.scores
    assert re.fullmatch(r"[0-9a-f]{16}", record.detail["match"]) and record.detail["clock"] == "wall"
    logs = sorted(tmp_path.glob("paced-*.log"))
    assert len(logs) == 3
    for log in logs:
        lines = log.read_text().splitlines()
        assert re.fullmatch(r"endpoint tcp://127\.0\.0\.1:\d+", lines[0])
        assert lines[1:3] == [f"welcome from arena {__version__}", "start wall"]


def test_run_match_logs_to_a_folder_of_its_own_and_removes_it(
    game: Game, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    short = Path(tempfile.mkdtemp(prefix="rl-", dir="/tmp"))  # ipc socket paths must stay short
    monkeypatch.setattr(tempfile, "tempdir", str(short))
    seen: list[int] = []

    def look(*_: object) -> None:
        if not seen:
            seen.extend(len(list(folder.glob("paced-*.log"))) for folder in short.glob("arena-logs-*"))

    try:
        record = run_match(game, game.configure(3), SEED, [PACED] * 3, TimeControl(1.0), on_decision=look)
        assert record.faults == () and seen == [3]
        assert list(short.glob("arena-logs-*")) == []
    finally:
        shutil.rmtree(short, ignore_errors=True)


def test_run_match_applies_the_frame_limits_and_the_fault_policy(game: Game, tmp_path: Path) -> None:
    tight = dataclasses.replace(DEFAULT_LIMITS, max_string=4)  # "action" is longer
    record = run_match(game, game.configure(3), SEED, [PACED] * 3, TimeControl(1.0), FaultPolicy(1),
                       log_dir=tmp_path, limits=tight)
    assert [(f.seat, f.kind, f.ply) for f in record.faults] == [(0, FaultKind.MALFORMED, 0),
                                                                (1, FaultKind.MALFORMED, 1),
                                                                (2, FaultKind.MALFORMED, 2)]
    assert record.forfeited == (0, 1, 2)


def test_run_match_waits_for_handshakes_only_as_long_as_told(game: Game, tmp_path: Path) -> None:
    # The paced bot cannot speak CURVE, so under encryption it never gets its hello through.
    started = time.monotonic()
    record = run_match(game, game.configure(3), SEED, [PACED] * 3, TimeControl(1.0), log_dir=tmp_path,
                       curve=CurveKeys.generate(), handshake_timeout=0.3)
    assert time.monotonic() - started < 5
    assert [(f.seat, f.kind, f.ply) for f in record.faults] == [(s, FaultKind.START, -1) for s in range(3)]
    assert all(f.detail.startswith("bot 'paced' did not say hello in time") for f in record.faults)


def test_run_match_refuses_a_wrong_number_of_bots(game: Game, tmp_path: Path) -> None:
    with pytest.raises(RefereeError) as caught:
        run_match(game, game.configure(3), SEED, [PACED] * 2, TimeControl(1.0), log_dir=tmp_path)
    assert str(caught.value) == "3 players need 3 bots, got 2"
    assert list(tmp_path.iterdir()) == []


def test_final_ranks_place_forfeits_last_and_keep_ties() -> None:
    assert final_ranks([2, 2, 1], ()) == (2, 2, 1)
    assert final_ranks([3, 1, 1], (1,)) == (2, 3, 1)
    assert final_ranks([1, 3, 2, 4], (0,)) == (4, 2, 1, 3)
    assert final_ranks([1, 1, 1], (0, 2)) == (2, 1, 2)

