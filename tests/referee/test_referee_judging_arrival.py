"""A reply is charged from its ``act`` to its arrival, not to the moment the referee gets round to
it: a slow log handler keeps the referee busy between the two (scripted bots in threads, a real
hub), and the time charged must not include that."""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator

import pytest
from scripted_seats import ANSWER, PONG, Seat, at, simultaneous_game, table_on_hub

from arena.clock import ClockRule, TimeControl
from protocols.transport import DECODES_PER_REQUEST, Peer

pytestmark = pytest.mark.timeout(60)
#: Seconds the referee is kept busy between a reply's arrival and its judging.
BUSY = 2.0


class SlowLog(logging.Handler):
    """Holds the referee for :data:`BUSY` seconds as it logs the ``pong`` ``peer`` sends just
    before its reply, the first time the reply was taken off the socket with it (it waits in the
    queue, stamped); ``held`` says, for each such ``pong`` in turn, whether it held the referee."""

    def __init__(self, peer: Peer) -> None:
        super().__init__()
        self.peer = peer
        self.held: list[bool] = []

    def emit(self, record: logging.LogRecord) -> None:
        args = record.args
        if not isinstance(args, tuple) or "dropped" not in str(record.msg) or args[2] != self.peer.label:
            return
        hold = DECODES_PER_REQUEST - self.peer.decodes_left == 2 and not any(self.held)
        self.held.append(hold)
        if hold:
            time.sleep(BUSY)  # in the referee's own thread: it is busy all that time


@pytest.fixture()
def referee_log() -> Iterator[logging.Logger]:
    logger = logging.getLogger("arena.referee")
    level = logger.level
    logger.setLevel(logging.INFO)
    yield logger
    logger.setLevel(level)


def test_a_reply_is_charged_to_its_arrival_however_long_the_referee_takes_to_read_it(
    referee_log: logging.Logger,
) -> None:
    game = simultaneous_game()
    with table_on_hub() as table:
        # Seat 0 sends a pong with each act's seq and its answer right behind it; the other
        # seats answer at once. Every seat decides at once in the draft's rounds.
        script = at({n: [PONG, ANSWER] for n in range(20)})
        handles = table.seat([Seat(script, remote=False), Seat(remote=False), Seat(remote=False)])
        slow = SlowLog(handles[0].peer)
        referee_log.addHandler(slow)
        try:
            record = table.play(game, TimeControl(2 * BUSY, grace=0.0), clock=ClockRule("wall"))
        finally:
            referee_log.removeHandler(slow)
    assert record.faults == ()
    own = [d for d in record.decisions if d.seat == 0]
    assert any(slow.held), "no pong was taken off the socket with its answer"
    for held, decision in zip(slow.held, own):
        if held:
            assert decision.elapsed < BUSY, (slow.held, own)
