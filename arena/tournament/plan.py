"""What a schedule will take: games, tables, bot processes, and an upper bound on the duration."""

from __future__ import annotations

import math
import os
import random
from dataclasses import dataclass

from arena.clock import TimeControl
from arena.tournament.config import TournamentConfig
from arena.tournament.schedule import Schedule
from engine.registry import get_game


@dataclass(frozen=True, slots=True)
class Plan:
    """Figures for ``arena tournament plan``. Durations are seconds of wall time."""

    games: int
    tables: int
    deals: int
    generations: int
    concurrency: int
    decisions_per_game: int
    max_thinking_per_game: float
    max_duration: float


def default_concurrency(table_size: int, cores: int | None = None) -> int:
    """Matches in parallel by default: one per core (a turn-based match has one bot thinking at a
    time), capped so that at most about 32 bot processes run at once."""
    available = cores if cores is not None else (os.cpu_count() or 1)
    return max(1, min(available, 32 // max(1, table_size)))


def effective_concurrency(config: TournamentConfig) -> int:
    """The configured concurrency, or the default when it is 0."""
    return config.concurrency or default_concurrency(config.table_size)


def sample_decisions(config: TournamentConfig, seed: int) -> int:
    """Decisions in one seeded random playout of the configured game (a typical game length)."""
    game = get_game(config.game)
    state = game.start(config.match_config(), seed)
    rng = random.Random(seed)
    count = 0
    while not state.is_over():
        for seat in state.to_move():
            state.apply(seat, rng.choice(state.legal_actions(seat)))
            count += 1
    return count


def max_thinking(control: TimeControl, players: int, decisions: int) -> float:
    """Upper bound on the thinking time of one game (seconds): every decision takes its whole
    allowance, grace included, and every seat spends its bank and increments."""
    return decisions * (control.move + control.increment + control.grace) + players * control.bank


def make_plan(config: TournamentConfig, schedule: Schedule) -> Plan:
    """The plan of ``schedule``; the duration bound assumes every bot uses all the time it may."""
    decisions = sample_decisions(config, schedule.games[0].seed)
    per_game = max_thinking(config.time_control, config.table_size, decisions)
    concurrency = effective_concurrency(config)
    waves = math.ceil(len(schedule) / concurrency)
    return Plan(
        games=len(schedule),
        tables=len(schedule) // (config.deals * config.table_size),  # swiss: unformed rounds too
        deals=config.deals,
        generations=schedule.generations,
        concurrency=concurrency,
        decisions_per_game=decisions,
        max_thinking_per_game=per_game,
        max_duration=waves * per_game,
    )
