"""Engine speed: seeded random playouts of every registered game, variant and player count.

Rates are given against this process's CPU time (``time.process_time``), which other load on a
shared machine does not distort, and against wall time (``time.perf_counter``), which it does.
Prints, per configuration: decisions per second (``legal_actions`` + ``apply``, the random pick
included, setup excluded), games per second (setup included), mean decisions and rounds per game
(rounds from ``result.detail["rounds"]`` where a game reports them), and how the games ended
(counts of ``result.detail["end"]``).

A second table gives the cost of one ``observation(seat)`` call, the referee's own work before each
``act``: "warm" on the state being played, asked for every seat to move before each decision as the
referee does (parts unchanged since the previous call are kept), "cold" on a fresh clone of each of
the same positions (nothing kept), in a replay after the game. Per-call wall times (``time.perf_counter_ns``, about 0.04 us of it the
clock itself), as median and mean, and the msgpack size of an observation.

    python benchmarks/engine_speed.py                 # every game, 20 games per configuration
    python benchmarks/engine_speed.py --game wongar --games 100
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import Counter
from dataclasses import dataclass

import msgpack
from rich.console import Console
from rich.table import Table

from engine.core import Game, MatchConfig
from engine.registry import games


@dataclass(frozen=True)
class Figures:
    """Measured figures of one configuration."""

    config: MatchConfig
    games: int
    decisions: int
    play_cpu: float  # CPU seconds in legal_actions/apply (and the random pick)
    play_wall: float  # the same in wall seconds
    total_cpu: float  # CPU seconds including each game's setup
    rounds: int | None
    ends: Counter[str]


def measure(game: Game, config: MatchConfig, count: int, seed: int) -> Figures:
    """Play ``count`` seeded random games of ``config`` and time them."""
    decisions = 0
    play_cpu = play_wall = 0.0
    rounds: int | None = 0
    ends: Counter[str] = Counter()
    start_all = time.process_time()
    for index in range(count):
        state = game.start(config, seed + index)
        pick = random.Random(seed * 1_000_003 + index).random
        started_cpu, started_wall = time.process_time(), time.perf_counter()
        while not state.is_over():
            movers = state.to_move()
            seat = movers[int(pick() * len(movers))]
            legal = state.legal_actions(seat)
            state.apply(seat, legal[int(pick() * len(legal))])
            decisions += 1
        play_cpu += time.process_time() - started_cpu
        play_wall += time.perf_counter() - started_wall
        detail = state.result().detail
        played = detail.get("rounds")
        rounds = rounds + played if rounds is not None and isinstance(played, int) else None
        ends[str(detail.get("end", "?"))] += 1
    total = time.process_time() - start_all
    return Figures(config, count, decisions, play_cpu, play_wall, total, rounds, ends)


@dataclass(frozen=True)
class ObservationFigures:
    """Per-call observation times of one configuration, in nanoseconds, and observation sizes."""

    config: MatchConfig
    warm: list[int]
    cold: list[int]
    sizes: list[int]


def measure_observations(game: Game, config: MatchConfig, count: int, seed: int) -> ObservationFigures:
    """Play ``count`` seeded random games of ``config``, timing every observation of a seat to move:
    warm while playing (as the referee asks), then cold on a clone of each position of a replay."""
    warm: list[int] = []
    cold: list[int] = []
    sizes: list[int] = []
    clock = time.perf_counter_ns
    for index in range(count):
        state = game.start(config, seed + index)
        pick = random.Random(seed * 1_000_003 + index).random
        decisions: list[tuple[int, int]] = []
        while not state.is_over():
            movers = state.to_move()
            for seat in movers:
                started = clock()
                state.observation(seat)
                warm.append(clock() - started)
            seat = movers[int(pick() * len(movers))]
            legal = state.legal_actions(seat)
            decisions.append((seat, legal[int(pick() * len(legal))]))
            state.apply(*decisions[-1])
        state = game.start(config, seed + index)
        for seat, action in decisions:
            for mover in state.to_move():
                fresh = state.clone()
                started = clock()
                seen = fresh.observation(mover)
                cold.append(clock() - started)
                sizes.append(len(msgpack.packb(seen)))
            state.apply(seat, action)
    return ObservationFigures(config, warm, cold, sizes)


def observation_table(setups: list[tuple[Game, MatchConfig]], count: int, seed: int) -> Table:
    """The observation cost of every setup, warm against cold."""
    table = Table(title=f"observation(seat) per call, {count} games per configuration (wall, one core)")
    for column in ("game", "variant", "players", "calls", "warm median us", "warm mean us",
                   "cold median us", "cold mean us", "cold/warm (mean)", "msgpack bytes"):
        table.add_column(column, justify="left" if column in ("game", "variant") else "right")
    for game, config in setups:
        f = measure_observations(game, config, count, seed)
        warm, cold = statistics.fmean(f.warm), statistics.fmean(f.cold)
        table.add_row(
            config.key, config.variant, str(config.players), f"{len(f.warm):,}",
            f"{statistics.median(f.warm) / 1000:.2f}", f"{warm / 1000:.2f}",
            f"{statistics.median(f.cold) / 1000:.2f}", f"{cold / 1000:.2f}",
            f"{cold / warm:.1f}", f"{statistics.fmean(f.sizes):,.0f}",
        )
    return table


def configurations(name_filter: str | None) -> list[tuple[Game, MatchConfig]]:
    """Every (game, config) with default knobs, optionally only games whose name contains the filter."""
    return [
        (game, game.configure(players, variant.name))
        for key, game in games().items()
        if name_filter is None or name_filter in key
        for variant in game.variants
        for players in range(game.min_players, game.max_players + 1)
    ]


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print the table; exit status 2 for a filter that matches nothing."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=20, help="games per configuration (default 20)")
    parser.add_argument("--game", default=None, help="only games whose name@version contains this")
    parser.add_argument("--seed", type=int, default=1, help="first seed (default 1)")
    parser.add_argument("--observation-games", type=int, default=5,
                        help="games per configuration for the observation table (default 5; 0 leaves it out)")
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be at least 1")
    if args.observation_games < 0:
        parser.error("--observation-games must not be negative")
    setups = configurations(args.game)
    if not setups:
        known = ", ".join(games()) or "none"
        print(f"no registered game matches {args.game!r}; known: {known}", file=sys.stderr)
        return 2
    table = Table(title=f"Random playouts, {args.games} games per configuration (one core)")
    for column in ("game", "variant", "players", "decisions/s CPU", "decisions/s wall", "games/s CPU",
                   "decisions/game", "rounds/game", "ends"):
        table.add_column(column, justify="left" if column in ("game", "variant", "ends") else "right")
    for game, config in setups:
        f = measure(game, config, args.games, args.seed)
        rounds = "-" if f.rounds is None else f"{f.rounds / f.games:.1f}"
        ends = ", ".join(f"{end} {n}" for end, n in sorted(f.ends.items()))
        table.add_row(
            config.key, config.variant, str(config.players),
            f"{f.decisions / f.play_cpu:,.0f}", f"{f.decisions / f.play_wall:,.0f}",
            f"{f.games / f.total_cpu:,.1f}",
            f"{f.decisions / f.games:.0f}", rounds, ends,
        )
    console = Console(width=None if sys.stdout.isatty() else 150)
    console.print(table)
    if args.observation_games:
        console.print(observation_table(setups, args.observation_games, args.seed))
    return 0


if __name__ == "__main__":
    sys.exit(main())
