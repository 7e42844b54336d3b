"""The runner: plays the games of a schedule that are not yet stored, and stores each one whole.

Only this process writes the store, one transaction per game, so an interrupted run (Ctrl-C, or
SIGKILL) leaves every game either stored whole or not at all; running again plays exactly the games
whose ids are missing.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from arena.manifest import ManifestError
from arena.record import MatchRecord
from arena.store.db import BotRow, Placement, Store
from arena.tournament import TournamentError
from arena.tournament.botfiles import files_hash
from arena.tournament.config import TournamentConfig
from arena.tournament.display import Display, Tally
from arena.tournament.executors import Executor
from arena.tournament.jobs import JobDone, MatchJob
from arena.tournament.schedule import Schedule, build_schedule, repeated_deals

#: Seconds the runner waits for an outcome before refreshing the display.
TICK = 0.25


@dataclass(frozen=True, slots=True)
class RunSummary:
    """What a run did: games in the schedule, stored before, played now, failed (left unstored)."""

    total: int
    already: int
    played: int
    failed: int

    @property
    def missing(self) -> int:
        """Games still not stored."""
        return self.total - self.already - self.played


def keep_stored_seed(store: Store, config: TournamentConfig) -> TournamentConfig:
    """``config``, with the seed of the stored tournament of its name if its own was drawn at
    random (a config without ``seed`` run again continues what it started)."""
    if config.seed_drawn:
        for row in store.tournaments():
            if row.name == config.name:
                return replace(config, seed=int(row.config["seed"]), seed_drawn=False)
    return config


def register(store: Store, config: TournamentConfig) -> Schedule:
    """Store the tournament (or check it matches the stored one) and return its schedule."""
    schedule = build_schedule(config)
    if not config.trusted and repeated_deals(schedule.games):
        raise TournamentError("internal: the schedule lets a bot process meet a deal twice")
    config.match_config()
    rows = []
    for entry in config.bots:
        try:
            spec = entry.spec()
        except ManifestError as exc:
            raise TournamentError(f"bot {entry.name!r}: {exc}") from None
        rows.append(BotRow(entry.name, spec.version, spec.command, files_hash(spec)))
    store.add_tournament(config.name, config.fingerprint(), config.to_plain(), rows)
    return schedule


def run_tournament(
    config: TournamentConfig, store: Store, executor: Executor, display: Display | None = None
) -> RunSummary:
    """Play every game of ``config``'s schedule missing from ``store``; store each as it ends.

    On an exception (``KeyboardInterrupt`` included) in-flight games are abandoned unstored and the
    exception propagates; what was stored stays stored.
    """
    abandon = True
    try:
        config = keep_stored_seed(store, config)
        schedule = register(store, config)
        stored = store.stored_ids(config.name)
        pending = [g for g in schedule if g.id not in stored]
        by_id = schedule.by_id()
        tally = display.tally if display is not None else Tally(total=len(schedule))
        for earlier in store.games(config.name):
            tally.add(earlier.record)
        if display is not None:
            display.baseline()
        unfinished = {g.id for g in pending}
        played = failed = 0
        for game in pending:
            executor.submit(MatchJob.of(config, game))
        while unfinished:
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
                placement = Placement(
                    scheduled.id,
                    scheduled.generation,
                    scheduled.table,
                    scheduled.deal,
                    scheduled.rotation,
                )
                if store.add_game(config.name, placement, record, outcome.processes):
                    played += 1
                    tally.add(record)
                if display is not None:
                    display.update(outcome.game_id, record)
            if display is not None:
                display.update()
        abandon = False
    finally:
        executor.close(abandon)
    return RunSummary(len(schedule), len(stored), played, failed)
