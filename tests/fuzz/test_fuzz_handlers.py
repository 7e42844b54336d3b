"""Fuzzing the message handlers over real sockets: the hub's handling of every frame a connected
peer or a stranger may send, and the referee's judging of replies in whole matches. Nothing but
ProtocolError may escape, the hub stays usable, and a match with a fuzzing seat completes with the
other seats untouched."""

from __future__ import annotations

import itertools
import threading
import time
from collections.abc import Iterator
from typing import Any

import msgpack
import pytest
import zmq
from hypothesis import given
from hypothesis import strategies as st

from arena.clock import TimeControl
from arena.handle import BotHandle
from arena.manifest import BotSpec
from arena.record import FaultKind
from arena.referee import FaultPolicy, final_ranks, play_match
from engine.core import replay
from engine.registry import get_game
from fuzz_settings import LONG, SHORT, fuzz
from protocols.errors import ProtocolError
from protocols.messages import Ping, Pong
from protocols.transport import Hub, Peer
from test_fuzz_codec import message_shaped

frames = st.one_of(
    message_shaped().map(lambda body: msgpack.packb(body, use_bin_type=True, default=repr)),
    st.binary(max_size=64),
)
_sentinels = itertools.count(1)


class RawBot:
    """A DEALER socket that said hello as ``peer`` (or nothing, as a stranger)."""

    def __init__(self, hub: Hub, peer: Peer | None) -> None:
        self.context = zmq.Context()
        self.socket = self.context.socket(zmq.DEALER)
        self.socket.setsockopt(zmq.LINGER, 0)
        self.socket.connect(hub.endpoint)
        if peer is not None:
            hello = {"type": "hello", "protocol": 1, "name": "raw", "version": "0", "token": peer.token}
            self.socket.send(msgpack.packb(hello))
            assert hub.wait_connected([peer], 10) == []
            self.socket.recv()

    def close(self) -> None:
        self.socket.close()
        self.context.term()


@pytest.fixture(scope="module")
def wired() -> Iterator[tuple[Hub, Peer, RawBot, RawBot]]:
    """A hub, a connected raw peer, and a stranger that never says hello."""
    with Hub() as hub:
        peer = hub.expect("raw")
        bot, stranger = RawBot(hub, peer), RawBot(hub, None)
        try:
            yield hub, peer, bot, stranger
        finally:
            bot.close()
            stranger.close()


def _hub_handles(wired: tuple[Hub, Peer, RawBot, RawBot], sent: list[tuple[bool, list[bytes]]]) -> None:
    """Whatever a peer or a stranger sends unasked, every frame of the peer is dropped unread and
    counted, and the next request is answered as usual."""
    hub, peer, bot, stranger = wired
    before = peer.dropped
    for from_peer, parts in sent:
        (bot if from_peer else stranger).socket.send_multipart(parts)
    from_the_peer = sum(1 for from_peer, _ in sent if from_peer)
    deadline = time.monotonic() + 10
    while peer.dropped < before + from_the_peer:
        assert time.monotonic() < deadline, "the hub stopped taking the peer's frames"
        assert hub.receive(0.05) is None  # nothing was asked: nothing is delivered
    assert peer.dropped == before + from_the_peer and peer.connected
    sentinel = next(_sentinels)
    hub.send(peer, Ping(sentinel))
    bot.socket.recv()
    bot.socket.send(msgpack.packb({"type": "pong", "seq": sentinel}))
    incoming = hub.receive(10)
    assert incoming is not None, "the hub stopped delivering the peer's replies"
    assert incoming.peer is peer and incoming.message == Pong(sentinel) and peer.awaiting is None


sendings = st.lists(st.tuples(st.booleans(), st.lists(frames, min_size=1, max_size=2)), max_size=6)
test_hub_handles_any_frame = fuzz(SHORT)(given(sendings)(_hub_handles))
test_hub_handles_any_frame_long = pytest.mark.slow(fuzz(LONG)(given(sendings)(_hub_handles)))

# A reply drawn for the fuzzing seat: a frame, and whether to put the outstanding seq in it (so
# that it reaches the referee's judging instead of being dropped as stale).
replies = st.lists(st.tuples(message_shaped(), st.booleans()), min_size=1, max_size=6)
# Generous, so that no seat's reply is ever late: the fuzzing seat follows each scripted frame
# with a legal action, and no seat here should ever time out, however busy the machine.
CONTROL = TimeControl(10.0, grace=0.5)


def _answer(socket: zmq.Socket[bytes], script: list[tuple[dict[Any, Any], bool]]) -> None:
    """Play a seat from a thread: to each ``act``, the next scripted frame (if any), then the
    first legal action with the act's seq (stale, and dropped, if the scripted frame was judged)."""
    pending = list(script)
    while True:
        message = msgpack.unpackb(socket.recv())
        if message["type"] in ("bye", "end"):
            return
        if message["type"] != "act":
            continue
        if pending:
            body, real_seq = pending.pop(0)
            if real_seq:
                body["seq"] = message["seq"]
            socket.send(msgpack.packb(body, use_bin_type=True, default=repr))
        socket.send(msgpack.packb({"type": "action", "seq": message["seq"], "action": message["legal"][0]}))


def _match_with_a_fuzzing_seat(script: list[tuple[dict[Any, Any], bool]]) -> None:
    game = get_game("wongar")
    config = game.configure(3)
    with Hub() as hub:
        handles = [BotHandle.remote(BotSpec(f"raw{s}", ("-",)), hub) for s in range(3)]
        bots = [RawBot(hub, h.peer) for h in handles]
        threads = [threading.Thread(target=_answer, args=(b.socket, script if s == 0 else []))
                   for s, b in enumerate(bots)]
        for thread in threads:
            thread.start()
        try:
            record = play_match(game, config, 3, handles, CONTROL, FaultPolicy(strikes=100))
        finally:
            for thread in threads:
                thread.join(10)
            for bot in bots:
                bot.close()
    state = replay(game, config, 3, [(d.seat, d.action) for d in record.decisions])
    assert state.result().scores == record.scores
    assert record.ranks == final_ranks(state.result().ranks, record.forfeited)
    assert all(f.seat == 0 and f.kind not in (FaultKind.CRASH, FaultKind.TIMEOUT) for f in record.faults)
    assert len(record.faults) <= len(script)
    assert not any(d.fallback for d in record.decisions if d.seat != 0)
    dropped = record.detail["dropped"]
    assert isinstance(dropped, list) and dropped[1:] == [0, 0]


test_referee_judges_any_reply = fuzz(max(10, SHORT // 10))(given(replies)(_match_with_a_fuzzing_seat))
test_referee_judges_any_reply_long = pytest.mark.slow(
    fuzz(max(10, LONG // 10))(given(replies)(_match_with_a_fuzzing_seat))
)
