"""The runner: plays the games of a schedule that are not yet stored, and stores each one whole.

Only this process writes the store, one transaction per game, so an interrupted run (Ctrl-C, or
SIGKILL) leaves every game either stored whole or not at all; running again plays exactly the games
whose ids are missing.

Games are submitted wave by wave (see :mod:`arena.tournament.schedule`): a swiss schedule is built
again from the stored games after each round; a gauntlet with early stopping submits its next
duplicate block whenever fewer games than match slots are in play, checks its test after every game
stored, and ends as soon as the test reaches a verdict. Games still in play or finished but not yet
read then are dropped, unstored (they were not needed; a later run does not play them either, as
the stored verdict stands), so every stored game was stored before the verdict.

A game that comes back void (a host fault: :mod:`arena.hostfault`) is stored as a void attempt,
beside the games, and played again with the same deal at once; after :data:`MAX_VOIDS` void attempts
in one run the run stops (``resume`` tries again).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from arena.deals import DealSecret, check_commitment
from arena.live.files import live_folder
from arena.live.heartbeat import Heartbeat
from arena.record import MatchRecord
from arena.store import StoreError
from arena.store.db import Placement, Store
from arena.tournament import TournamentError
from arena.tournament.builds import check_builds, current_builds, record_builds
from arena.tournament.config import TournamentConfig
from arena.tournament.dealbook import describe_deals, tournament_secret
from arena.tournament.display import Display, Tally
from arena.tournament.executors import Executor
from arena.tournament.jobs import JobDone, MatchJob
from arena.tournament.schedule import Schedule, build_schedule, repeated_deals, stored_results
from arena.tournament.sprt import SprtMonitor, TestResult
from arena.tournament.startcheck import start_refusal

#: Seconds the runner waits for an outcome before refreshing the display.
TICK = 0.25
#: Void attempts at one game in one run after which the run stops.
MAX_VOIDS = 3


@dataclass(frozen=True, slots=True)
class RunSummary:
    """What a run did: games in the schedule, stored before, played now, failed (left unstored)."""

    total: int
    already: int
    played: int
    failed: int
    #: The early-stopping test where it stands at the end (``None`` without one).
    sprt: TestResult | None = None
    #: Void attempts stored (each game of them played again).
    voided: int = 0

    @property
    def missing(self) -> int:
        """Games still not stored."""
        return self.total - self.already - self.played

    @property
    def decided(self) -> bool:
        """Whether the early-stopping test has reached its verdict (no more games are needed)."""
        return self.sprt is not None and self.sprt.verdict is not None


def keep_stored_seed(store: Store, config: TournamentConfig) -> TournamentConfig:
    """``config``, with the seed of the stored tournament of its name if its own was drawn at
    random (a config without ``seed`` run again continues what it started)."""
    if config.seed_drawn:
        for row in store.tournaments():
            if row.name == config.name:
                return replace(config, seed=int(row.config["seed"]), seed_drawn=False)
    return config


def validate(config: TournamentConfig) -> Schedule:
    """``config``'s schedule, once the game accepts the setup and every bot resolves here;
    :class:`TournamentError` otherwise (nothing is stored)."""
    schedule = build_schedule(config)
    if not config.trusted and repeated_deals(schedule.games):
        raise TournamentError("internal: the schedule lets a bot process meet a deal twice")
    config.match_config()
    current_builds(config)
    return schedule


def register(
    store: Store, config: TournamentConfig, executor: Executor, allow_changed: bool = False
) -> tuple[Schedule, dict[str, int]]:
    """Check ``config`` against the stored tournament of its name (same config, unchanged bots
    unless ``allow_changed``) and, if games are left to play, that every bot starts; then store it
    (new builds included).
    Returns its schedule and each bot's build number. Nothing is stored when a check fails."""
    schedule = validate(config)
    if config.rounds:
        schedule = build_schedule(config, stored_results(store.games(config.name)))
    for row in store.tournaments():
        if row.name == config.name and row.fingerprint != config.fingerprint():
            raise TournamentError(
                f"{store.path}: tournament {config.name!r} is stored with a different config; "
                "rename the tournament or use another database"
            )
    now = current_builds(config)
    check_builds(store, config.name, now, allow_changed)
    stored = store.stored_ids(config.name)
    failures = {} if stored >= {g.id for g in schedule} else executor.start_failures(config.bots)
    if failures:
        raise TournamentError(f"{start_refusal(failures)}. Nothing was played: fix the bot, then run again")
    store.add_tournament(
        config.name, config.fingerprint(), config.to_plain(), [b.row for b in now.values()]
    )
    return schedule, record_builds(store, config.name, now)


def run_tournament(
    config: TournamentConfig,
    store: Store,
    executor: Executor,
    display: Display | None = None,
    allow_changed: bool = False,
    deal_secret: DealSecret | None = None,
    *,
    guard: Callable[[], None] | None = None,
) -> RunSummary:
    """Play every game of ``config``'s schedule missing from ``store``; store each as it ends,
    with the build of each seat's bot (see :func:`register`). ``guard`` (the runner lock's
    :meth:`~arena.store.lock.RunnerLock.check`) is called before every write and at every tick: an
    exception from it stops the run like any other.

    The games are dealt with the tournament's deal secret (``deal_secret`` if given, when the
    tournament is first stored; see :func:`arena.tournament.dealbook.tournament_secret`); once no
    game is left to play, the secret is revealed in the store beside its commitment.

    A void game (a host fault) is stored as such with :meth:`Store.add_void` and played again, up
    to :data:`MAX_VOIDS` void attempts at one game: then a :class:`TournamentError`.

    On an exception (``KeyboardInterrupt`` included) in-flight games are abandoned unstored and the
    exception propagates; what was stored stays stored. A failed write is a
    :class:`TournamentError` saying how many games are stored.
    """
    abandon = True
    heartbeat = Heartbeat(live_folder(store.path), config.name)
    guarded = guard or (lambda: None)

    def check() -> None:
        heartbeat.beat()
        guarded()

    try:
        check()
        config = keep_stored_seed(store, config)
        # A stored tournament's secret is checked before any bot is started for it.
        stored_before = any(row.name == config.name for row in store.tournaments())
        secret = tournament_secret(store, config, deal_secret) if stored_before else None
        schedule, builds = register(store, config, executor, allow_changed)
        if not stored_before:
            secret = tournament_secret(store, config, deal_secret)
        stored = store.stored_ids(config.name)
        if display is not None and len(stored) < len(schedule):  # before play, what deals it
            display.note(describe_deals(store.deal_commitment(config.name)))
        already = len(stored)
        by_id = schedule.by_id()
        tally = display.tally if display is not None else Tally(total=len(schedule))
        earlier = store.games(config.name)
        for stored_game in earlier:
            tally.add(stored_game.record)
        monitor = SprtMonitor(config) if config.sprt is not None else None
        if monitor is not None:
            monitor.add_stored(earlier)
        if display is not None:
            display.baseline()
        played = failed = 0
        voids: dict[str, int] = {}  # game id → void attempts in this run
        live = str(live_folder(store.path))
        tried: set[str] = set()  # a game that fails is left for the next run
        unfinished: set[str] = set()
        counted = -1 if monitor is None else monitor.blocks
        while monitor is None or monitor.result().verdict is None:
            # A swiss round is played whole; other waves follow while a match slot is free.
            room = not unfinished or (not config.rounds and len(unfinished) < executor.capacity)
            pending = []
            if room:
                pending = [g for g in schedule if g.id not in stored and g.id not in tried]
            if pending:
                if _revealed(store, config.name):
                    raise TournamentError(
                        f"{store.path}: tournament {config.name!r} has revealed its deal secret, "
                        f"so the deals of its {len(pending)} games left to play could be "
                        "computed; they are not played"
                    )
                wave = [g for g in pending if g.wave == pending[0].wave]
                unfinished |= {g.id for g in wave}
                tried |= {g.id for g in wave}
                for game in wave:
                    executor.submit(replace(MatchJob.of(config, game, secret), live=live))
                continue
            if not unfinished:
                break
            check()
            tally.running = executor.running
            for outcome in executor.collect(TICK):
                unfinished.discard(outcome.game_id)
                tally.running = executor.running
                if not isinstance(outcome, JobDone):
                    failed += 1
                    tally.failed += 1
                    if display is not None:
                        display.note(f"game {outcome.game_id} not played: {outcome.reason}")
                    continue
                record = MatchRecord.from_wire(outcome.record)
                scheduled = by_id[outcome.game_id]
                if record.void is not None:
                    check()
                    attempt = _store_void(store, config.name, scheduled.id, record)
                    voids[scheduled.id] = voids.get(scheduled.id, 0) + 1
                    if voids[scheduled.id] >= MAX_VOIDS:
                        raise TournamentError(
                            f"game {scheduled.id} was void {MAX_VOIDS} times in this run, each "
                            f"time by a host fault (last: {record.void}); the machine is too "
                            "busy to play it. Free the machine (or lower the concurrency), "
                            f"then run: arena tournament resume --db {store.path}"
                        )
                    if display is not None:
                        display.note(f"game {scheduled.id} void (attempt {attempt}), played "
                                     f"again: {record.void}")
                    unfinished.add(scheduled.id)
                    executor.submit(replace(MatchJob.of(config, scheduled, secret), live=live))
                    continue
                placement = Placement(
                    scheduled.id,
                    scheduled.generation,
                    scheduled.table,
                    scheduled.deal,
                    scheduled.rotation,
                )
                check()
                if _store(store, config.name, placement, record, outcome.processes, builds,
                          len(schedule)):
                    played += 1
                    stored.add(scheduled.id)
                    tally.add(record)
                    if monitor is not None:
                        monitor.add(scheduled.table, scheduled.deal, record.bots, record.ranks)
                if display is not None:
                    display.update(outcome.game_id, record)
                if monitor is not None and monitor.blocks != counted:
                    counted = monitor.blocks
                    if display is not None:
                        display.note(monitor.describe())
                    if monitor.result().verdict is not None:
                        break  # decided: what else has finished is not stored
            if display is not None:
                display.update()
            if config.rounds and not unfinished:  # the next round, once this one is stored whole
                schedule = build_schedule(config, stored_results(store.games(config.name)))
                by_id = schedule.by_id()
        abandon = bool(unfinished)
    finally:
        heartbeat.stop()
        executor.close(abandon)
    summary = RunSummary(len(schedule), already, played, failed,
                         monitor.result() if monitor is not None else None,
                         sum(voids.values()))
    if secret is not None and (summary.missing == 0 or summary.decided):
        reveal(store, config.name, secret)
    return summary


def _revealed(store: Store, tournament: str) -> bool:
    """Whether ``tournament``'s deal secret is revealed."""
    committed = store.deal_commitment(tournament)
    return committed is not None and committed.revealed is not None


def reveal(store: Store, tournament: str, secret: DealSecret) -> None:
    """Store ``tournament``'s deal secret beside its commitment, if not revealed yet: every game
    is played, so it can help no bot any more and lets anyone check the deals."""
    committed = store.deal_commitment(tournament)
    if committed is not None and committed.revealed is None:
        check_commitment(secret, committed.commitment, f"{store.path}: tournament {tournament!r}")
        store.reveal_deals(tournament, secret.hex())


def _store(
    store: Store,
    tournament: str,
    placement: Placement,
    record: MatchRecord,
    processes: tuple[str, ...],
    builds: dict[str, int],
    total: int,
) -> bool:
    """:meth:`Store.add_game`; a failed write (a full disk) says what is stored and how to go on."""
    try:
        return store.add_game(
            tournament, placement, record, processes, [builds[bot] for bot in record.bots]
        )
    except StoreError as exc:
        stored = len(store.stored_ids(tournament))
        raise TournamentError(
            f"{exc}: {stored} of {total} games are stored. Make room, then play the rest with: "
            f"arena tournament resume --db {store.path}"
        ) from None


def _store_void(store: Store, tournament: str, game_id: str, record: MatchRecord) -> int:
    """:meth:`Store.add_void`; a failed write stops the run, saying how to go on."""
    try:
        return store.add_void(tournament, game_id, record)
    except StoreError as exc:
        raise TournamentError(
            f"{exc}. Make room, then play the rest with: arena tournament resume --db {store.path}"
        ) from None
