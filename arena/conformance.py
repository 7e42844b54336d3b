"""``arena bot check``: play a bot through everything the protocol asks and list every breach.

The bot under test is started once per seat; the copies handshake, answer pings, play several
matches in the same processes (start, many decisions, end), answer pings again, and must exit on
``bye``. Each fault the referee records becomes a :class:`Breach` with what to fix; so do a refused
``hello`` (with the referee's reason), replies the referee dropped (with the ``seq`` it expected) and
replies it accepted only within its grace.

A reply's time is what its decision is charged: CPU seconds of all the bot's processes under the CPU
clock, elapsed seconds under the wall clock (``MatchRecord.detail["clock"]`` says which). A reply
charged more than the move time plus the bank is a breach even though the grace let it through; a
reply p99 above half the move time earns a warning (:meth:`CheckReport.margin_warning`).
"""

from __future__ import annotations

import statistics
import tempfile
import time
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path

from arena import __version__
from arena.clock import ClockRule, TimeControl
from arena.handle import EXITED_EARLY, BotHandle, close_all
from arena.manifest import BotSpec
from arena.process import exit_text
from arena.record import DecisionRecord, FaultKind, MatchRecord
from arena.referee import FaultPolicy, play_match
from engine.core import Game, MatchConfig
from leaderboards.results import common_clock
from protocols.transport import Hub

#: Seconds a bot has to leave after ``bye`` before it counts as a breach.
BYE_GRACE = 1.0
PING_TIMEOUT = 2.0

_FIXES = {
    FaultKind.START: "connect a DEALER socket to $ARENA_ENDPOINT and send hello with $ARENA_TOKEN "
    "(SPEC.md §1, §3)",
    FaultKind.TIMEOUT: "answer every act within clock.move_ms + clock.bank_ms, echoing its seq "
    "(SPEC.md §4, §5)",
    FaultKind.CRASH: "keep the process running until bye; its last output is quoted",
    FaultKind.MALFORMED: "send exactly one msgpack map per frame with the fields of SPEC.md §3",
    FaultKind.ILLEGAL: "answer with one of the ids in the act's legal list (SPEC.md §3, act)",
}
_EXIT_FIX = ("the program ended before its hello: its output says why. In the sandbox it sees, of "
             "its folder, only the files its command names and its manifest's files "
             "(docs/isolation.md)")
_GRACE_FIX = ("answer within clock.move_ms (plus clock.bank_ms, if any): the grace after it only "
              "absorbs delays in delivery, and a bot that uses it times out on a busier machine "
              "(SPEC.md §5)")
#: Words naming the time a clock charges, as the warning and breaches print it.
_CHARGED = {"cpu": "of CPU time", "wall": "of elapsed time"}
_VOID_FIX = ("every seat here runs a copy of the bot, so copies that all stop answering at once look "
             "like a host too busy to run them, and the match is void: answer every act within "
             "clock.move_ms + clock.bank_ms (SPEC.md §4, §5); if the machine was busy, check again")
_DROP_FIX = ("reply once to each act or ping, with its seq, and send nothing else: dropped frames "
             "are not read, so their decisions time out (SPEC.md §2, §4); arena -v bot check "
             "logs each drop")


@dataclass(frozen=True, slots=True)
class Breach:
    """One way the bot broke the protocol, and what to change."""

    what: str
    fix: str


@dataclass(frozen=True, slots=True)
class CheckReport:
    """What ``check_bot`` saw: decisions answered, the time each reply was charged (``latencies``, in
    seconds, under each match's clock), the move time of the time control (s) and the breaches."""

    bot: str
    copies: int
    matches: int
    decisions: int
    latencies: tuple[float, ...]
    breaches: tuple[Breach, ...]
    #: The clock that timed the matches (:func:`~leaderboards.results.common_clock`); ``None``:
    #: no match played.
    clock: str | None = None
    move: float = 0.0

    @property
    def passed(self) -> bool:
        """Whether the bot did everything right."""
        return not self.breaches and self.decisions > 0

    def percentile(self, q: float) -> float | None:
        """The ``q``-th percentile (0-100) of reply latency in seconds, if any reply came."""
        if len(self.latencies) < 2:
            return self.latencies[0] if self.latencies else None
        cuts = statistics.quantiles(self.latencies, n=100, method="inclusive")
        return cuts[min(98, max(0, round(q) - 1))]

    def margin_warning(self) -> str | None:
        """One line if the reply p99 is above half the move time (the bot is near its limit and may
        time out on a busier machine), else ``None`` (also where the move time is 0: a bank only)."""
        p99 = self.percentile(99)
        if p99 is None or not self.move or p99 <= self.move / 2:
            return None
        return (f"reply p99 {p99 * 1000:.0f} ms {_CHARGED.get(self.clock or '', '')} is over half the "
                f"{self.move * 1000:.0f} ms move time: on a busier machine the bot may time out")


def check_bot(
    spec: BotSpec,
    game: Game,
    config: MatchConfig,
    *,
    seed: int = 1,
    matches: int = 2,
    time_control: TimeControl = TimeControl(1.0),
    clock: ClockRule = ClockRule(),
    log_dir: Path | None = None,
) -> CheckReport:
    """Run the conformance check of ``spec`` on ``config`` (one copy of the bot per seat); raises
    :class:`arena.referee.RefereeError` for a ``clock`` the bots cannot be timed by."""
    breaches: list[Breach] = []
    latencies: list[float] = []
    decisions = played = 0
    clocks: list[object] = []
    with Hub(server=f"arena {__version__}") as hub, ExitStack() as stack:
        if log_dir is None:
            log_dir = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="arena-check-")))
        handles: list[BotHandle] = []
        stack.callback(close_all, handles, 0.2)
        handles.extend(BotHandle.launch_all([spec] * config.players, hub, log_dir))
        failed = [h for h in handles if h.failure is not None]
        if failed:
            breaches.append(_start_breach(str(failed[0].failure), hub.refused_hellos))
            return CheckReport(spec.name, len(handles), 0, 0, (), tuple(breaches))
        breaches.extend(_pings(handles, "before the first match"))
        counts: dict[FaultKind, int] = {}
        first: dict[FaultKind, str] = {}
        dropped = 0
        first_drop = ""
        allowance = time_control.move + time_control.bank
        over: list[str] = []
        voided: list[str] = []
        charge = ""
        for number in range(matches):
            if not all(h.alive() for h in handles):
                break
            record = play_match(game, config, seed + number, handles, time_control,
                                FaultPolicy(strikes=3), match_id=f"check-{number + 1}", clock=clock)
            played += 1
            if record.void is not None:
                voided.append(f"match {number + 1}: {record.void}")
            clocks.append(record.detail.get("clock"))
            for fault in record.faults:
                counts[fault.kind] = counts.get(fault.kind, 0) + 1
                if fault.kind not in first:
                    where = f"match {number + 1}, seat {fault.seat}, decision {fault.ply}"
                    first[fault.kind] = f"{where}: {fault.detail}"
                    if fault.kind is FaultKind.CRASH:
                        first[fault.kind] += f" ({_log_of(handles[fault.seat])})"
            match_drops = _dropped(record)
            if sum(match_drops) and not first_drop:
                first_drop = _first_drop(handles, number + 1, match_drops)
            dropped += sum(match_drops)
            charge = str(record.detail["clock"])
            for ply, decision in enumerate(record.decisions):
                if decision.fallback:
                    continue
                charged = _charged(decision, charge)
                decisions += 1
                latencies.append(charged)
                if charged > allowance:
                    over.append(f"match {number + 1}, seat {decision.seat}, decision {ply}: "
                                f"{charged * 1000:.0f} ms {_CHARGED[charge]}")
        if over:
            breaches.append(Breach(
                f"replies over the {allowance * 1000:.0f} ms a decision may take (accepted within "
                f"the grace) ×{len(over)}, first at {over[0]}", _GRACE_FIX))
        if voided:
            breaches.append(Breach(f"void matches ×{len(voided)}, first at {voided[0]}", _VOID_FIX))
        if dropped:
            breaches.append(Breach(f"replies dropped ×{dropped}, first at {first_drop}", _DROP_FIX))
        for kind, count in counts.items():
            breaches.append(Breach(f"{kind.value} ×{count}, first at {first[kind]}", _FIXES[kind]))
        breaches.extend(_pings(handles, "after the matches"))
        breaches.extend(_byes(handles))
    return CheckReport(spec.name, config.players, played, decisions, tuple(latencies), tuple(breaches),
                       common_clock(clocks), time_control.move)


def _charged(decision: DecisionRecord, clock: str) -> float:
    """The seconds ``decision``'s reply was charged under ``clock``: its CPU time under the CPU
    clock, its elapsed time under the wall clock."""
    if clock == "cpu" and decision.cpu is not None:
        return decision.cpu
    return decision.elapsed


def _start_breach(failure: str, refusals: list[str]) -> Breach:
    """The breach of a bot that did not complete the handshake: a refused hello says why."""
    if refusals:
        return Breach(f"handshake: the referee refused the hello ({refusals[0]}); then {failure}",
                      "send hello with protocol 1 and the token from $ARENA_TOKEN unchanged, each "
                      "copy its own (SPEC.md §1, §3 hello)")
    if EXITED_EARLY in failure:
        return Breach(f"handshake: {failure}", _EXIT_FIX)
    return Breach(f"handshake: {failure}", _FIXES[FaultKind.START])


def _dropped(record: MatchRecord) -> list[int]:
    """Frames the referee dropped from each seat in ``record`` (its ``detail["dropped"]``)."""
    counts = record.detail.get("dropped")
    return [c if isinstance(c, int) else 0 for c in counts] if isinstance(counts, list) else []


def _first_drop(handles: list[BotHandle], match: int, counts: list[int]) -> str:
    """Where the first dropped frame of a match came from, with the seq awaited if it was a reply."""
    seat = next(s for s, c in enumerate(counts) if c)
    where = f"match {match}, seat {seat}"
    awaited = handles[seat].peer.wrong_seq
    if awaited is not None:
        return f"{where}: a reply did not carry seq {awaited}, the seq the referee was waiting for"
    return f"{where}: frames that answered nothing (sent while no act or ping was outstanding, or a pong to an act)"


def _pings(handles: list[BotHandle], when: str) -> list[Breach]:
    for handle in handles:
        if handle.alive() and handle.ping(PING_TIMEOUT) is None:
            return [Breach(f"no pong within {PING_TIMEOUT:g} s {when}",
                           "answer ping with pong carrying the same seq, whenever not deciding "
                           "(SPEC.md §3)")]
    return []


def _byes(handles: list[BotHandle]) -> list[Breach]:
    running = [h for h in handles if h.alive()]
    for handle in running:
        handle.say_bye("check finished")
    deadline = time.monotonic() + BYE_GRACE
    for handle in running:
        left = max(0.0, deadline - time.monotonic())
        if handle.process is not None and not handle.process.wait(left):
            return [Breach(f"still running {BYE_GRACE:g} s after bye",
                           "close the socket and exit with status 0 on bye (SPEC.md §3)")]
        status = handle.process.exit_status() if handle.process is not None else 0
        if status not in (0, None):
            return [Breach(f"{exit_text(status)} after bye", "exit with status 0 on bye")]
    return []


def _log_of(handle: BotHandle) -> str:
    if handle.process is None:
        return "a remote bot"
    tail = handle.process.log_tail(3)
    return f"its output ends: {tail}" if tail else "it printed nothing"
