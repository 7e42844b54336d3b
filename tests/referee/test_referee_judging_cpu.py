"""The referee's CPU clock with exact answers: sandboxed bots (real processes in control groups)
spend CPU or wait as the match id tells them (``botprograms/paced.py``), and each test checks the
faults, the CPU and elapsed time recorded, the clock the next ``act`` carries, and that bots not
deciding are frozen."""

from __future__ import annotations

import re
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from polling import wait_until
from referee_helpers import BOTS
from sandboxed import require_sandbox
from scripted_seats import Seat, at, table_on_hub

from arena.clock import ClockRule, TimeControl
from arena.handle import BotHandle, close_all
from arena.manifest import BotSpec
from arena.record import DecisionRecord, Fault, FaultKind, MatchRecord
from arena.referee import DecisionObserver, FaultPolicy, play_match
from engine.core import Game, State
from engine.registry import games
from protocols.transport import Hub

#: A referee that waits where it should not fails the test soon (each takes a few seconds at most).
pytestmark = [pytest.mark.sandbox, pytest.mark.timeout(30)]
SEED = 21
#: The CPU clock with an elapsed-time cap no busy machine reaches before a burning bot's CPU time runs
#: out (the default, 10 times the allowance, can come first when the bot gets little processor time).
UNCAPPED = ClockRule("cpu", wall_cap=1000)
PACED = BotSpec("paced", (sys.executable, str(BOTS / "paced.py")))


@pytest.fixture(autouse=True)
def working_sandbox() -> None:
    require_sandbox()


@pytest.fixture(scope="module")
def game() -> Game:
    """A game whose first rounds are simultaneous for all three seats."""
    return next(g for g in games().values() if g.min_players == 3 and g.name == "waroong")


class PacedTable:
    """Sandboxed paced bots on one hub; :meth:`play` plays a match whose id carries their plans."""

    def __init__(self, hub: Hub, log_dir: Path) -> None:
        self.hub = hub
        self.log_dir = log_dir
        self.handles: list[BotHandle] = []
        self.cpu_before: list[float | None] = []

    def play(self, game: Game, control: TimeControl, plans: dict[int, str], *, strikes: int = 3,
             clock: ClockRule = ClockRule("cpu"), absent: int | None = None,
             on_decision: DecisionObserver | None = None) -> MatchRecord:
        """Three seats, each a fresh paced bot except ``absent`` (expected, never connected)."""
        bots = BotHandle.launch_all([PACED] * (3 - (absent is not None)), self.hub, self.log_dir)
        self.handles.extend(bots)
        assert [h.failure for h in bots] == [None] * len(bots)
        self.cpu_before.extend(h.cpu_used() for h in bots)
        if absent is not None:
            bots.insert(absent, BotHandle(BotSpec("absent", ("paced",)), self.hub, self.hub.expect("absent")))
        match_id = "cpu;" + ";".join(f"{seat}={plan}" for seat, plan in plans.items())
        return play_match(game, game.configure(3), SEED, bots, control, FaultPolicy(strikes),
                          match_id=match_id, clock=clock, on_decision=on_decision)

    def printed(self, seat: int, match: int = 0) -> list[str]:
        """What the bot of ``seat`` in the ``match``-th match of the test has printed."""
        handle = self.handles[3 * match + seat]
        assert handle.process is not None
        return handle.process.log_path.read_text().splitlines()


@pytest.fixture()
def table(tmp_path: Path) -> Iterator[PacedTable]:
    with Hub() as hub:
        paced = PacedTable(hub, tmp_path)
        yield paced
        close_all(paced.handles, grace=0.2)


def own(record: MatchRecord, seat: int = 0) -> list[int]:
    return [i for i, d in enumerate(record.decisions) if d.seat == seat]


def test_waiting_is_not_charged_until_the_elapsed_time_cap(game: Game, table: PacedTable) -> None:
    record = table.play(game, TimeControl(0.1, bank=0.5, grace=0.0), {0: "s0.25,s0.25,r"},
                        clock=ClockRule("auto", wall_cap=4), absent=2)
    assert record.detail["clock"] == "cpu"
    assert record.faults == (Fault(2, FaultKind.START, -1, "not connected"),)
    first, second, third = (record.decisions[i] for i in own(record)[:3])
    # Each wait went past the free move in elapsed time (all 0.25 s of it), not in CPU time.
    for waited in (first, second):
        assert not waited.fallback and waited.elapsed >= 0.25
        assert waited.cpu is not None and 0 < waited.cpu < 0.1
    assert third.cpu is not None and not third.fallback
    printed = table.printed(0)
    assert printed[1:3] == ["welcome from arena", "start cpu"]
    # Charged its CPU time only: inside the free move, so the bank is untouched.
    assert [line.split()[2] for line in printed if line.startswith("act ")][:3] == ["500"] * 3


def test_the_wall_clock_charges_sandboxed_bots_their_elapsed_time(game: Game, table: PacedTable) -> None:
    record = table.play(game, TimeControl(0.3, bank=0.5, grace=0.0), {0: "s0.4,r"}, clock=ClockRule("wall"))
    assert record.detail["clock"] == "wall" and record.faults == ()
    first = record.decisions[own(record)[0]]
    # Both recorded: past the free move in elapsed time (all 0.4 s of it), next to nothing in CPU time.
    assert first.cpu is not None and first.cpu < 0.1 and first.elapsed >= 0.4
    printed = table.printed(0)
    assert printed[2] == "start wall"
    banks = [int(line.split()[2]) for line in printed if line.startswith("act ")]
    assert banks[0] == 500 and banks[1] < 500  # the bank paid for the wait beyond the free move


def test_cpu_spent_without_replying_is_a_timeout_as_soon_as_it_is_over(
    game: Game, table: PacedTable
) -> None:
    record = table.play(game, TimeControl(0.5, grace=0.1), {0: "b1.0"}, strikes=1, clock=UNCAPPED)
    (fault,) = record.faults
    used = re.fullmatch(r"used (\d+) ms of CPU without replying, limit 600 ms", fault.detail)
    assert used is not None and (fault.seat, fault.kind, fault.ply) == (0, FaultKind.TIMEOUT, own(record)[0])
    spent = int(used.group(1)) / 1000
    assert 0.6 < spent < 0.9
    decision = record.decisions[own(record)[0]]
    assert decision.fallback and decision.cpu is not None and spent - 0.001 <= decision.cpu < 0.95
    assert decision.cpu + 0.05 <= decision.elapsed  # its elapsed time: 0.1 s asleep, then burning
    assert record.forfeited == (0,) and record.detail["dropped"] == [0, 0, 0]


def test_a_reply_after_its_cpu_ran_out_is_a_timeout_of_cpu(game: Game, table: PacedTable) -> None:
    record = table.play(game, TimeControl(0.1, grace=0.0), {0: "c0.1"}, strikes=1, clock=UNCAPPED)
    (fault,) = record.faults
    late = re.fullmatch(r"reply after (\d+) ms of CPU \(limit 100 ms\)", fault.detail)
    assert late is not None and (fault.seat, fault.kind) == (0, FaultKind.TIMEOUT), fault
    assert 100 < int(late.group(1)) < 200
    decision = record.decisions[own(record)[0]]
    assert decision.fallback and decision.cpu is not None and 0.1 < decision.cpu < 0.2
    # Its elapsed time is recorded (0.1 s asleep, then burning), not the CPU time it was charged.
    assert decision.elapsed >= decision.cpu + 0.05
    assert record.detail["dropped"] == [2, 0, 0]  # the two pongs


def test_a_silent_bot_ends_at_the_cap_and_loses_its_whole_bank(game: Game, table: PacedTable) -> None:
    record = table.play(game, TimeControl(0.1, bank=0.2, grace=0.0), {0: "h,r"},
                        clock=ClockRule("cpu", wall_cap=2), strikes=2)
    first = own(record)[0]
    detail = "no reply within 600 ms of elapsed time (2 times the allowance)"
    assert record.faults == (Fault(0, FaultKind.TIMEOUT, first, detail),)
    hung = record.decisions[first]
    assert hung.fallback and 0.6 <= hung.elapsed < 2
    assert hung.cpu is not None and hung.cpu < 0.1
    banks = [line.split()[2] for line in table.printed(0) if line.startswith("act ")]
    assert banks[:2] == ["200", "0"]
    assert record.void is None  # one hanging seat while the others reply is the bot's own fault


def test_every_seat_cut_off_at_once_voids_the_match(game: Game, table: PacedTable) -> None:
    # Nobody replies in the simultaneous first round: the host, not three bots, is taken to be at
    # fault. The match stops there, with no result and no fault charged to any seat.
    record = table.play(game, TimeControl(0.1, grace=0.0), {0: "h", 1: "h", 2: "h"},
                        clock=ClockRule("cpu", wall_cap=15))
    assert record.void == ("seats 0, 1, 2 were all cut off by the elapsed-time cap with no reply "
                           "from any seat in between: the host was too busy to run them")
    assert record.faults == () and record.decisions == () and record.forfeited == ()
    assert record.scores == (0, 0, 0) and record.ranks == (1, 1, 1)
    assert record.detail["result"] == {}


def test_two_seats_cut_off_while_the_third_replies_are_the_bots_faults(
    game: Game, table: PacedTable
) -> None:
    record = table.play(game, TimeControl(0.1, grace=0.0), {0: "h", 1: "h"},
                        clock=ClockRule("cpu", wall_cap=15), strikes=1)
    assert record.void is None
    detail = "no reply within 1500 ms of elapsed time (15 times the allowance)"
    assert record.faults == (Fault(0, FaultKind.TIMEOUT, 0, detail), Fault(1, FaultKind.TIMEOUT, 1, detail))
    assert record.forfeited == (0, 1) and record.ranks[2] == 1


def test_a_bot_that_stops_itself_ends_at_the_elapsed_cap_not_out_of_cpu(
    game: Game, table: PacedTable
) -> None:
    # It answers its first act and stops itself (SIGSTOP): its next decision spends next to no
    # CPU, so it is judged at the elapsed-time cap, not as out of CPU.
    record = table.play(game, TimeControl(0.1, bank=0.2, grace=0.0), {0: "x"},
                        clock=ClockRule("cpu", wall_cap=2), strikes=1)
    second = own(record)[1]
    detail = "no reply within 600 ms of elapsed time (2 times the allowance)"
    assert record.faults == (Fault(0, FaultKind.TIMEOUT, second, detail),)
    stopped = record.decisions[second]
    assert stopped.fallback and stopped.cpu is not None and stopped.cpu < 0.01 and 0.6 <= stopped.elapsed < 2
    assert record.forfeited == (0,)


def test_a_remote_seat_that_joins_late_is_judged_on_elapsed_time_under_the_cpu_clock(
    game: Game, tmp_path: Path
) -> None:
    # Its CPU cannot be read: it answers its first act on joining, never its second, and that
    # ends at the elapsed-time cap like a silent sandboxed bot.
    with table_on_hub() as table:
        paced = BotHandle.launch_all([PACED] * 2, table.hub, tmp_path)
        table.handles.extend(paced)
        remote = Seat(at({1: []}), join_after=0.3)
        record = table.play(game, TimeControl(0.8, grace=0.0),
                            [remote, Seat(handle=paced[0]), Seat(handle=paced[1])],
                            clock=ClockRule("cpu", wall_cap=2), strikes=1)
    assert record.detail["clock"] == "cpu"
    first, second = own(record)[:2]
    detail = "no reply within 1600 ms of elapsed time (2 times the allowance)"
    assert record.faults == (Fault(0, FaultKind.TIMEOUT, second, detail),)
    joined, silent = record.decisions[first], record.decisions[second]
    assert not joined.fallback and joined.cpu is None and 0.3 <= joined.elapsed < 0.8
    assert silent.fallback and silent.cpu is None and 1.6 <= silent.elapsed < 4


def test_a_bot_that_has_replied_is_frozen_while_others_still_decide(
    game: Game, table: PacedTable
) -> None:
    # Seat 0 answers at once, then spins until its next act is in; seat 1 takes 0.35 s to answer.
    # Were seat 0 left running, its spin would be charged to its next decision: more than 0.15 s.
    record = table.play(game, TimeControl(0.15, grace=0.0), {0: "w10,r", 1: "s0.35,r"},
                        clock=ClockRule("cpu", wall_cap=10))
    assert record.faults == ()
    first, second = (record.decisions[i] for i in own(record)[:2])
    assert first.cpu is not None and second.cpu is not None
    # Frozen as soon as its reply was in, it spun for no more than a moment of its next decision,
    # and used hardly any CPU outside its decisions.
    assert second.cpu < 0.15 and first.cpu < 0.15
    start, end = table.cpu_before[0], table.handles[0].cpu_used()
    assert start is not None and end is not None
    outside = end - start - sum(record.decisions[i].cpu or 0.0 for i in own(record))
    assert outside < 0.1, outside


def test_every_bot_is_left_frozen_after_the_match(game: Game, table: PacedTable) -> None:
    record = table.play(game, TimeControl(0.5), {0: "r!", 1: "r!", 2: "r!"})
    assert record.faults == () and record.detail["clock"] == "cpu"
    before = [h.cpu_used() for h in table.handles]
    time.sleep(0.2)
    after = [h.cpu_used() for h in table.handles]
    assert all(b is not None and a is not None and a - b < 0.02 for a, b in zip(after, before)), \
        (before, after)


def test_cpu_used_after_a_reply_is_charged_once_to_the_next_decision(game: Game, table: PacedTable) -> None:
    # Seat 0 burns 0.2 s, answers (the last of the three, so it is left running: it decides again
    # at once), then burns 0.3 s more while the referee is between rounds, held there until the
    # burn is over. Charged neither twice nor never: 0.5 s over its two decisions.
    held: list[bool] = []

    def between(_: State, decision: DecisionRecord) -> None:
        if decision.seat == 0 and not held:
            group = table.handles[0].process.group if table.handles[0].process else None
            assert group is not None
            # Frozen instead (another seat answered after it), it burns in its next decision.
            held.append(wait_until(lambda: "burnt" in table.printed(0) or group.frozen(), 10))

    record = table.play(game, TimeControl(1.0, grace=0.0), {0: "a0.3,r"}, on_decision=between)
    assert record.faults == () and held == [True]
    first, second = (record.decisions[i].cpu for i in own(record)[:2])
    assert first is not None and second is not None
    assert 0.2 <= first and 0.5 <= first + second < 0.6, (first, second)


@pytest.mark.parametrize("kind", ["cpu", "wall"])
def test_each_clock_charges_the_bank_exactly_what_it_records(
    game: Game, table: PacedTable, kind: str
) -> None:
    # Three decisions sleep 0.1 s and burn 0.15 s of CPU, with 0.1 s free of the bank: the bank
    # pays the CPU time beyond it under the CPU clock, the elapsed time beyond it under the wall
    # clock, as the record has them, to the millisecond the wire carries.
    record = table.play(game, TimeControl(0.1, bank=20.0, grace=0.0), {0: "b0.15,b0.15,b0.15,r"},
                        clock=ClockRule(kind))
    assert record.faults == () and record.detail["clock"] == kind
    bank = 20.0
    banks = [int(line.split()[2]) for line in table.printed(0) if line.startswith("act ")]
    for decision, sent in zip((record.decisions[i] for i in own(record)[:3]), banks[1:4], strict=True):
        # The CPU recorded is the burn, never the sleep.
        assert decision.cpu is not None and 0.15 <= decision.cpu < 0.25, decision
        charged = decision.cpu if kind == "cpu" else decision.elapsed
        bank -= max(0.0, charged - 0.1)
        assert sent == int(bank * 1000) or abs(sent - bank * 1000) < 1, (sent, bank, decision)
