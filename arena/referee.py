"""The referee: one match between connected bots, under a time control and a fault policy.

:func:`play_match` drives a match through bots that are already connected to one :class:`Hub`
(a tournament runner keeps them alive across matches); :func:`run_match` starts the bots, plays one
match and cleans up. Whatever the bots do, the game completes and a :class:`MatchRecord` comes back:
a missing, late, malformed or illegal reply is replaced by a seeded random legal action and recorded
as a fault; after ``FaultPolicy.strikes`` faults (or one crash) the seat is forfeited. A match
whose timeouts are the host's fault, not the bots' (:mod:`arena.hostfault`), stops there and comes
back void (:attr:`MatchRecord.void`).
"""

from __future__ import annotations

import logging
import random
import secrets
import tempfile
import time
from collections.abc import Callable, Sequence
from contextlib import ExitStack
from dataclasses import dataclass, replace
from pathlib import Path

from arena import __version__
from arena.clock import ClockRule, SeatClock, TimeControl, TimeControlError, note_wall_clock
from arena.errors import ArenaError
from arena.gamefault import GameFailure, failure_text, raised_by_game
from arena.handle import HANDSHAKE_TIMEOUT, BotHandle, close_all, unaccounted
from arena.hostfault import HostWatch
from arena.manifest import BotSpec
from arena.process import exit_text
from arena.record import DecisionRecord, Fault, FaultKind, MatchRecord
from arena.seatcpus import own_cpus, seat_cpus
from engine.core import Game, MatchConfig, State, WireMap, derive_seed, seeded_rng
from protocols.codec import DEFAULT_LIMITS, INFO_LIMIT, Limits
from protocols.delta import changes
from protocols.errors import PeerGone
from protocols.messages import Act, Action, End, Error, Start
from protocols.transport import CurveKeys, Hub, Incoming

log = logging.getLogger(__name__)

#: Longest wait between checks that the processes of outstanding seats are still running (s).
CRASH_CHECK = 0.05
#: Seconds to wait for the exit status of a seat whose connection closed (for the fault's detail).
EXIT_WAIT = 0.2
#: Frames dropped from one seat in one match that are logged one by one; the rest are only counted.
DROPS_LOGGED = 5
#: Seconds a remote seat whose connection is down when it must decide (or drops while deciding)
#: has to reconnect, if its decision's time limit is shorter; its clock runs meanwhile.
REJOIN_GRACE = 10.0

DecisionObserver = Callable[[State, DecisionRecord], None]


class RefereeError(ArenaError):
    """A match that cannot be played as asked (wrong number of seats, seats on different hubs)."""


@dataclass(frozen=True, slots=True)
class FaultPolicy:
    """How many faults a seat may commit before it is forfeited (a crash forfeits at once)."""

    strikes: int = 3

    def __post_init__(self) -> None:
        if self.strikes < 1:
            raise RefereeError("strikes must be at least 1")


@dataclass(frozen=True, slots=True)
class _Reply:
    """What came of asking one seat: an accepted action, or a fault. ``elapsed``: the seconds its
    clock is charged; ``wall``: the elapsed seconds, where the charge is CPU time."""

    elapsed: float
    action: int | None = None
    info: WireMap | None = None
    fault: FaultKind | None = None
    detail: str = ""
    wall: float | None = None
    capped: bool = False  # ended by the elapsed-time cap of the CPU clock


class _Seat:
    """One seat's bookkeeping for one match."""

    __slots__ = ("handle", "clock", "strikes", "forfeited", "events_from", "seen", "fallback",
                 "dropped", "info_dropped")

    def __init__(self, handle: BotHandle, control: TimeControl, fallback: random.Random) -> None:
        self.handle = handle
        self.clock = SeatClock(control)
        self.strikes = 0
        self.forfeited = False
        self.events_from = 0
        #: The observation of the seat's last ``act`` since its last ``start`` (protocol 2 sends
        #: only what changed since).
        self.seen: WireMap | None = None
        self.fallback = fallback
        self.dropped = 0
        self.info_dropped = 0


class _Match:
    """The state of one match in progress; :func:`play_match` is its only user."""

    def __init__(
        self,
        game: Game,
        config: MatchConfig,
        seed: int,
        handles: Sequence[BotHandle],
        control: TimeControl,
        policy: FaultPolicy,
        match_id: str,
        clock: ClockRule,
        rejoin_grace: float = REJOIN_GRACE,
        cpus: frozenset[int] | None = None,
    ) -> None:
        self.hub = handles[0].hub
        self.cpus = cpus
        self.rejoin_grace = rejoin_grace
        self.config = config
        self.seed = seed
        self.control = control
        self.policy = policy
        self.match_id = match_id
        self.state = game.start(config, seed)
        self.table = game.action_table(config).to_wire()
        self.seats = [
            _Seat(h, control, seeded_rng(seed, "fallback", s)) for s, h in enumerate(handles)
        ]
        self.seat_of = {id(h.peer): s for s, h in enumerate(handles)}
        # Each seat's handshake count when it was sent ``start``: a remote bot that reconnected
        # since (a new connection) is sent ``start`` again before its next ``act``.
        self.joined = [h.peer.connections for h in handles]
        self.any_remote = any(h.peer.remote for h in handles)  # else no seat can rejoin
        self.decisions: list[DecisionRecord] = []
        self.faults: list[Fault] = []
        self.dropped_from_others = 0  # frames from connections not seated in this match
        self.running: set[int] = set()  # seats whose bot is thawed
        self.cpu_mark: dict[int, float | None] = {}  # seat → its bot's CPU seconds when last read
        self.cpu_spent: dict[int, float | None] = {}  # seat → CPU seconds of its pending decision
        self.refused_before = self.hub.refused
        self.peer_drops_before = [h.peer.dropped for h in handles]
        missing = unaccounted(handles)
        try:
            self.clock_kind = clock.resolve(missing)
        except TimeControlError as exc:
            raise RefereeError(str(exc)) from None
        if missing is not None and clock.kind == "auto" and not self.any_remote:
            note_wall_clock(missing)  # remote seats are on the wall clock as a rule
        # How much longer than its allowance a decision may run in elapsed time.
        self.wall_factor = clock.wall_cap if self.clock_kind == "cpu" else 1.0
        self.watch = HostWatch()
        #: Why the match is void (a host fault), once it is.
        self.void: str | None = None

    def fault(self, seat: int, kind: FaultKind, detail: str) -> None:
        """Record a fault; forfeit the seat after a crash, a failed start or its last strike."""
        book = self.seats[seat]
        self.faults.append(Fault(seat, kind, len(self.decisions), detail))
        book.strikes += 1
        log.info("%s seat %d %s: %s", self.match_id, seat, kind.value, detail)
        if kind in (FaultKind.CRASH, FaultKind.START) or book.strikes >= self.policy.strikes:
            if not book.forfeited:
                log.info("%s seat %d (%s) forfeited", self.match_id, seat, book.handle.name)
            book.forfeited = True

    def begin(self) -> None:
        """Send ``start`` to every seat; seats that are not usable are forfeited at once."""
        for seat, book in enumerate(self.seats):
            handle = book.handle
            if handle.peer.remote and handle.failure is None and not handle.alive():
                self.joined[seat] = -1  # sent on reconnection (see ask)
                continue
            if not handle.alive():
                why = handle.failure or (
                    "its process is not running" if handle.peer.connected else "not connected"
                )
                self.faults.append(Fault(seat, FaultKind.START, -1, why))
                book.forfeited = True
                continue
            try:
                self.hub.send(handle.peer, self.start_message(seat))
            except PeerGone as exc:
                self.faults.append(Fault(seat, FaultKind.CRASH, -1, str(exc)))
                book.forfeited = True

    def start_message(self, seat: int) -> Start:
        """The ``start`` of ``seat``."""
        return Start(
            self.match_id, self.config.game, self.config.version, self.config.variant,
            dict(self.config.knobs), seat, self.config.players, derive_seed(self.seed, "bot", seat),
            self.table, self.control.wire(), round(self.control.grace * 1000),
            self.clock_kind,
        )

    def send_act(self, seat: int, ply: int, legal: list[int]) -> int | None:
        """Send ``act`` to ``seat`` (after ``start`` again to a remote bot that reconnected since
        its last: that ``act`` carries every event of the match the seat saw and, in protocol 2, its
        whole observation); its ``seq``, or
        ``None`` for a remote seat that is not connected. Raises :class:`PeerGone`."""
        book = self.seats[seat]
        peer = book.handle.peer
        if peer.remote:
            if not peer.connected:
                return None
            if peer.connections != self.joined[seat]:
                self.hub.send(peer, self.start_message(seat))
                self.joined[seat] = peer.connections
                book.events_from, book.seen = 0, None
        events, book.events_from = self.state.events(seat, book.events_from)
        seq = self.hub.next_seq()
        observation = whole = self.state.observation(seat)
        gone: tuple[str, ...] = ()
        if peer.protocol >= 2:
            observation, gone = changes(book.seen, whole)
            book.seen = whole
        self.hub.send(peer, Act(seq, seat, ply, observation, tuple(legal), list(events),
                                book.clock.wire(), gone))
        return seq

    def rejoin(self, outstanding: dict[int, int | None], deadline: dict[int, float], ply: int,
               legal: dict[int, list[int]]) -> None:
        """Remote seats among ``outstanding``: one whose connection dropped gets until
        :attr:`rejoin_grace` seconds from now (if later than its deadline) to reconnect; one that
        has reconnected is sent ``start`` and the ``act`` again."""
        now = time.monotonic()
        for seat, seq in list(outstanding.items()):
            peer = self.seats[seat].handle.peer
            if not peer.remote:
                continue
            if not peer.connected:
                if seq is not None:
                    log.info("%s seat %d: connection lost; waiting for it to reconnect",
                             self.match_id, seat)
                    outstanding[seat] = None
                    deadline[seat] = max(deadline[seat], now + self.rejoin_grace)
            elif seq is None or peer.connections != self.joined[seat]:
                try:
                    outstanding[seat] = self.send_act(seat, ply, legal[seat])
                except PeerGone:
                    outstanding[seat] = None

    def ask(self, movers: tuple[int, ...], legal: dict[int, list[int]]) -> dict[int, _Reply]:
        """Send ``act`` to every deciding seat that is not forfeited and collect their replies."""
        replies: dict[int, _Reply] = {}
        outstanding: dict[int, int | None] = {}  # seat → seq (None: a remote seat reconnecting)
        sent: dict[int, float] = {}
        deadline: dict[int, float] = {}
        ply = len(self.decisions)
        # Thawing before the observations are built hides its cost behind them.
        self.run_only([s for s in movers if not self.seats[s].forfeited])
        for seat in movers:
            book = self.seats[seat]
            if book.forfeited:
                continue
            try:
                seq = self.send_act(seat, ply, legal[seat])
            except PeerGone as exc:
                self._ended(replies, seat,
                            _Reply(0.0, fault=FaultKind.CRASH, detail=self._gone(seat, str(exc))), 0.0)
                continue
            # Timed from the moment the act was handed to the socket: never less than the bot took.
            sent[seat] = time.monotonic() if seq is None else book.handle.peer.asked_at
            deadline[seat] = sent[seat] + book.clock.limit * self.wall_factor
            if seq is None:
                deadline[seat] = max(deadline[seat], sent[seat] + self.rejoin_grace)
            outstanding[seat] = seq
        held_up = dict.fromkeys(outstanding, 0.0)  # seat → seconds the referee was held up
        woke, wait = time.monotonic(), 0.0
        while outstanding and self.void is None:
            if self.any_remote:
                self.rejoin(outstanding, deadline, ply, legal)
            now = time.monotonic()
            late = max(0.0, now - woke - wait - CRASH_CHECK)  # beyond the wait and some work
            for seat in outstanding:
                held_up[seat] += late
            for seat in [s for s in outstanding if now >= deadline[s]]:
                del outstanding[seat]
                self._ended(replies, seat, self._silent(seat, now - sent[seat]), held_up[seat])
            if not outstanding or self.void is not None:
                break
            wait = max(0.0, min(CRASH_CHECK, min(deadline[s] for s in outstanding) - now))
            woke = now
            incoming = self.hub.receive(wait)
            if incoming is None:
                now = time.monotonic()
                for seat in [s for s in outstanding if not self.seats[s].handle.alive()
                             and not self.seats[s].handle.peer.remote]:
                    del outstanding[seat]
                    self._ended(replies, seat, self._silent(seat, now - sent[seat]), 0.0)
                for seat in [s for s in outstanding if self._over_cpu(s)]:
                    del outstanding[seat]
                    self._ended(replies, seat, self._silent(seat, now - sent[seat]), 0.0)
                continue
            sender = self.seat_of.get(id(incoming.peer))
            asked = None if sender is None else outstanding.get(sender)
            if sender is None or asked is None:
                self._dropped(sender, incoming, "nothing asked")
                continue
            # Timed from the frame's arrival, not from when the referee got round to it.
            wall = incoming.arrived - sent[sender]
            charged = self._cpu_so_far(sender) if self.clock_kind == "cpu" else None
            reply = self._judge(
                sender, asked, incoming,
                wall if charged is None else charged, legal[sender],
            )
            if reply is not None and charged is not None:
                reply = replace(reply, wall=wall)
            if reply is None:
                self._dropped(sender, incoming, f"waiting for seq {outstanding[sender]}")
            else:
                del outstanding[sender]
                self._ended(replies, sender, reply, 0.0)
                self.replied(sender, still_deciding=bool(outstanding))
        for seat in self.running & set(replies):
            if seat not in self.cpu_spent:
                self.replied(seat, still_deciding=False)
        for seat in movers:
            self.hub.settle(self.seats[seat].handle.peer)
        return replies

    def _ended(self, replies: dict[int, _Reply], seat: int, reply: _Reply, held_up: float) -> None:
        """Note how ``seat``'s decision ended; a cut-off by the elapsed-time cap that is the host's
        fault (:class:`~arena.hostfault.HostWatch`, told ``held_up``: the seconds the referee was
        held up meanwhile) makes the match void instead."""
        if not reply.capped:
            self.watch.replied()
            replies[seat] = reply
            return
        playing = [s for s, book in enumerate(self.seats) if not book.forfeited]
        self.void = self.watch.cut_off(seat, reply.wall or 0.0, held_up, playing)
        if self.void is None:
            replies[seat] = reply
        else:
            log.info("%s void: %s", self.match_id, self.void)

    def run_only(self, seats: Sequence[int]) -> None:
        """Freeze every thawed bot not in ``seats``, give those in it their processors (where the
        match has processors to itself) and thaw them; a seat that decides again at once is left
        running, neither frozen nor thawed. A seat's CPU time is counted from its first thaw in the
        match, then from its last reply: what a bot uses after a reply is charged to its next
        decision, so every CPU second up to its last reply is charged exactly once."""
        for seat in self.running - set(seats):
            self.seats[seat].handle.freeze()
        if self.cpus is not None:
            for seat, cpus in seat_cpus(sorted(seats), self.cpus).items():
                self.seats[seat].handle.pin(cpus)
        for seat in set(seats) - self.running:
            self.seats[seat].handle.thaw()
            if self.cpu_mark.get(seat) is None:
                self.cpu_mark[seat] = self.seats[seat].handle.cpu_used()
        self.running = set(seats)

    def replied(self, seat: int, still_deciding: bool) -> None:
        """Note the CPU time of a seat's decision; freeze its bot at once if other seats are still
        deciding (it must not take their processor), else at the next :meth:`run_only`."""
        handle = self.seats[seat].handle
        if still_deciding:
            handle.freeze()
            self.running.discard(seat)
        used, mark = handle.cpu_used(), self.cpu_mark.get(seat)
        self.cpu_spent[seat] = None if used is None or mark is None else used - mark
        self.cpu_mark[seat] = used

    def _dropped(self, seat: int | None, incoming: Incoming, why: str) -> None:
        """Count (and log the first few of) frames that answer nothing outstanding."""
        if seat is None:
            self.dropped_from_others += 1
            count = self.dropped_from_others
        else:
            self.seats[seat].dropped += 1
            count = self.seats[seat].dropped
        if count <= DROPS_LOGGED:
            log.info("%s dropped %r from %s (%s)", self.match_id,
                     incoming.message or incoming.error, incoming.peer.label, why)

    def _gone(self, seat: int, otherwise: str) -> str:
        """Why a seat's bot is gone: its exit status where it has one, else ``otherwise``."""
        process = self.seats[seat].handle.process
        if process is None:
            return otherwise
        # A dying process closes its connection a moment before it can be reaped.
        process.wait(EXIT_WAIT)
        status = process.exit_status()
        return otherwise if status is None else f"process {exit_text(status)}"

    def _cpu_so_far(self, seat: int) -> float | None:
        """CPU seconds the seat's bot has used on its pending decision, where measured."""
        used, mark = self.seats[seat].handle.cpu_used(), self.cpu_mark.get(seat)
        return None if used is None or mark is None else used - mark

    def _over_cpu(self, seat: int) -> bool:
        """Whether, under the CPU clock, the seat's bot has used more CPU than its decision may."""
        if self.clock_kind != "cpu":
            return False
        spent = self._cpu_so_far(seat)
        return spent is not None and spent > self.seats[seat].clock.limit

    def _silent(self, seat: int, elapsed: float) -> _Reply:
        """A seat that gave no usable reply in time: a crash if its process is gone, else a timeout
        (under the CPU clock: its CPU time ran out, or the elapsed-time cap)."""
        if not self.seats[seat].handle.alive():
            lost = ("connection lost" if not self.seats[seat].handle.peer.remote else
                    f"connection lost, not back within {self.rejoin_grace:g} s")
            return _Reply(elapsed, fault=FaultKind.CRASH, detail=self._gone(seat, lost))
        limit = self.seats[seat].clock.limit
        if self.clock_kind == "wall":
            detail = f"no reply within {limit * 1000:.0f} ms"
            return _Reply(elapsed, fault=FaultKind.TIMEOUT, detail=detail)
        spent = self._cpu_so_far(seat) or 0.0
        if spent > limit:
            detail = f"used {spent * 1000:.0f} ms of CPU without replying, limit {limit * 1000:.0f} ms"
            return _Reply(spent, fault=FaultKind.TIMEOUT, detail=detail, wall=elapsed)
        detail = (f"no reply within {limit * self.wall_factor * 1000:.0f} ms of elapsed time "
                  f"({self.wall_factor:g} times the allowance)")
        return _Reply(limit, fault=FaultKind.TIMEOUT, detail=detail, wall=elapsed, capped=True)

    def _judge(
        self, seat: int, seq: int, incoming: Incoming, elapsed: float, legal: list[int]
    ) -> _Reply | None:
        """The verdict on a frame from a seat with an outstanding ``act``; ``None``: a stale or
        unsolicited frame, to be dropped."""
        message = incoming.message
        if incoming.error is not None:
            return _Reply(elapsed, fault=FaultKind.MALFORMED, detail=str(incoming.error))
        if isinstance(message, Error) and message.seq == seq:
            return _Reply(elapsed, fault=FaultKind.MALFORMED, detail=f"bot reported: {message.message}")
        if not isinstance(message, Action) or message.seq != seq:
            return None
        if elapsed > self.seats[seat].clock.limit:
            limit = self.seats[seat].clock.limit
            spent = "of CPU " if self.clock_kind == "cpu" else ""
            return _Reply(elapsed, fault=FaultKind.TIMEOUT,
                          detail=f"reply after {elapsed * 1000:.0f} ms {spent}"
                                 f"(limit {limit * 1000:.0f} ms)")
        if message.seat is not None and message.seat != seat:
            log.warning("%s: %s claimed seat %d; refused", self.match_id, incoming.peer.label, message.seat)
            return _Reply(elapsed, fault=FaultKind.MALFORMED,
                          detail=f"reply claims seat {message.seat}, but it plays seat {seat}")
        if message.action not in legal:
            label = self.state.action_label(message.action)
            return _Reply(elapsed, fault=FaultKind.ILLEGAL,
                          detail=f"action {message.action} ({label}) is not among the legal {legal}")
        if message.info_dropped:
            self.seats[seat].info_dropped += 1
            log.info("%s seat %d: dropped an info of %d bytes (limit %d)", self.match_id, seat,
                     message.info_dropped, INFO_LIMIT)
        return _Reply(elapsed, action=message.action, info=message.info)

    def decide(self, movers: tuple[int, ...], on_decision: DecisionObserver | None) -> None:
        """Ask, judge and apply one round of decisions (all simultaneous movers together)."""
        legal = {s: self.state.legal_actions(s) for s in movers}
        replies = self.ask(movers, legal)
        if self.void is not None:
            return
        for seat in movers:
            book = self.seats[seat]
            reply = replies.get(seat)
            if reply is not None and reply.fault is not None:
                self.fault(seat, reply.fault, reply.detail)
            if reply is not None:
                book.clock.settle(reply.elapsed)
            wall = 0.0 if reply is None else reply.elapsed if reply.wall is None else reply.wall
            if reply is None or reply.action is None:
                action = book.fallback.choice(legal[seat])
                record = DecisionRecord(seat, action, wall, None, True, self.cpu_spent.pop(seat, None))
            else:
                action = reply.action
                record = DecisionRecord(seat, action, wall, reply.info, cpu=self.cpu_spent.pop(seat, None))
            self.state.apply(seat, action)
            self.decisions.append(record)
            if on_decision is not None:
                on_decision(self.state, record)

    def finish(self, started: float) -> MatchRecord:
        """Tell every seat the result and build the record; every bot is left frozen. A void match
        tells the seats nothing (its bots are to be closed) and has no result: its scores are 0,
        its ranks 1, and it has no forfeits."""
        self.run_only(())
        if self.void is not None:
            players = len(self.seats)
            return self.record(started, (0,) * players, (1,) * players, (), {})
        result = self.state.result()
        forfeited = tuple(s for s, book in enumerate(self.seats) if book.forfeited)
        ranks = final_ranks(result.ranks, forfeited)
        for seat, book in enumerate(self.seats):
            if book.handle.peer.connected:
                events, _ = self.state.events(seat, book.events_from)
                end = End(self.match_id, seat, result.scores, ranks, forfeited, list(events))
                try:
                    self.hub.send(book.handle.peer, end)
                except PeerGone:
                    pass
        return self.record(started, result.scores, ranks, forfeited, result.detail)

    def record(self, started: float, scores: tuple[int, ...], ranks: tuple[int, ...],
               forfeited: tuple[int, ...], result: WireMap) -> MatchRecord:
        """The match record with these results."""
        return MatchRecord(
            game=self.config.game,
            version=self.config.version,
            variant=self.config.variant,
            knobs=dict(self.config.knobs),
            seed=self.seed,
            bots=tuple(book.handle.name for book in self.seats),
            decisions=tuple(self.decisions),
            faults=tuple(self.faults),
            scores=scores,
            ranks=ranks,
            forfeited=forfeited,
            duration=time.monotonic() - started,
            detail={"match": self.match_id, "time_control": str(self.control),
                    "clock": self.clock_kind,
                    "referee": f"arena {__version__}", "result": result,
                    "dropped": [book.dropped + book.handle.peer.dropped - before
                                for book, before in zip(self.seats, self.peer_drops_before)],
                    "info_dropped": [book.info_dropped for book in self.seats],
                    "refused": self.hub.refused - self.refused_before},
            void=self.void,
        )


def new_match_id() -> str:
    """A fresh match id: random, so that nothing a bot sees identifies the deal."""
    return secrets.token_hex(8)


def final_ranks(ranks: Sequence[int], forfeited: Sequence[int]) -> tuple[int, ...]:
    """Places after forfeits: playing seats keep their order, forfeited seats tie for last."""
    playing = [s for s in range(len(ranks)) if s not in forfeited]
    last = len(playing) + 1
    return tuple(
        last if s in forfeited else 1 + sum(1 for o in playing if ranks[o] < ranks[s])
        for s in range(len(ranks))
    )


def play_match(
    game: Game,
    config: MatchConfig,
    seed: int,
    seats: Sequence[BotHandle],
    time_control: TimeControl,
    fault_policy: FaultPolicy = FaultPolicy(),
    *,
    match_id: str | None = None,
    on_decision: DecisionObserver | None = None,
    clock: ClockRule = ClockRule(),
    rejoin_grace: float = REJOIN_GRACE,
    cpus: frozenset[int] | None = None,
) -> MatchRecord:
    """Play one match; ``seats[s]`` plays seat ``s``. The game always completes.

    The game completes unless the host is at fault (see :mod:`arena.hostfault`): then the record
    is void (:attr:`MatchRecord.void` says why), the bots are told nothing and should be closed.
    Or unless the game's own code raises: a :class:`~arena.gamefault.GameFailure` says what and
    where in one line (the bots are told nothing and should be closed).
    Every handle must be on the same hub (which must not be used by another thread meanwhile).
    Seats whose bot is not alive at the start are recorded with a ``start`` fault and forfeited.
    ``on_decision`` sees the state after each applied decision (for display). ``clock`` says what
    decisions are charged (a :class:`RefereeError` for the CPU clock without CPU accounting).
    A remote seat (``peer.remote``) whose connection is down may reconnect within
    ``rejoin_grace`` seconds of being needed (see :data:`REJOIN_GRACE`) and play on.
    ``cpus``: processors the match has to itself, shared among the seats deciding at once by
    :func:`~arena.seatcpus.seat_cpus`; ``None`` (a match beside others on the same processors):
    sandboxed seats are kept apart by their equal CPU weights only.
    """
    if len(seats) != config.players:
        raise RefereeError(f"{config.players} players need {config.players} bots, got {len(seats)}")
    if any(h.hub is not seats[0].hub for h in seats):
        raise RefereeError("all seats of a match must be connected to the same hub")
    if len({id(h.peer) for h in seats}) != len(seats):
        raise RefereeError("one bot connection cannot play two seats of a match")
    started = time.monotonic()
    try:
        match = _Match(game, config, seed, seats, time_control, fault_policy,
                       match_id or new_match_id(), clock, rejoin_grace, cpus)
        match.begin()
        while not match.state.is_over() and match.void is None:
            match.decide(match.state.to_move(), on_decision)
        return match.finish(started)
    except Exception as exc:
        if not raised_by_game(exc):
            raise
        raise GameFailure(f"{game.key}: the game {failure_text(exc)}") from exc


def run_match(
    game: Game,
    config: MatchConfig,
    seed: int,
    bots: Sequence[BotSpec],
    time_control: TimeControl,
    fault_policy: FaultPolicy = FaultPolicy(),
    *,
    log_dir: Path | None = None,
    on_decision: DecisionObserver | None = None,
    endpoint: str | None = None,
    curve: CurveKeys | None = None,
    handshake_timeout: float = HANDSHAKE_TIMEOUT,
    limits: Limits = DEFAULT_LIMITS,
    clock: ClockRule = ClockRule(),
) -> MatchRecord:
    """Start ``bots`` (one per seat), play one match, then close every bot and reap it.

    ``limits`` bound every frame a bot sends (SPEC.md §2). The match has this process's
    processors to itself (see :func:`play_match`).

    Bot output goes to ``log_dir`` (a temporary folder, removed afterwards, when ``None``). A bot that
    fails to start is recorded with a ``start`` fault and its seat forfeited.
    """
    if len(bots) != config.players:
        raise RefereeError(f"{config.players} players need {config.players} bots, got {len(bots)}")
    with (
        Hub(endpoint, curve=curve, limits=limits, server=f"arena {__version__}") as hub,
        ExitStack() as stack,
    ):
        if log_dir is None:
            log_dir = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="arena-logs-")))
        handles: list[BotHandle] = []
        stack.callback(close_all, handles)
        handles.extend(BotHandle.launch_all(list(bots), hub, log_dir, handshake_timeout))
        return play_match(game, config, seed, handles, time_control, fault_policy,
                          on_decision=on_decision, clock=clock, cpus=own_cpus())
