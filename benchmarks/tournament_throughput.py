"""Tournament throughput: 4-player Wongar with the instant built-in random bot.

Part 1 plays the same schedule through the real runner (worker processes, store) at concurrency 1
and 2 (alternating, best of a few runs, with the CPU time per game so that a busy machine shows),
with trusted bots (one process generation) and untrusted ones (duplicate-integrity restarts:
a new process generation per seat rotation), each with match slots pinned to processors (the
default) and not, then with untrusted bots run in the sandbox (the same random bot as an entrant's
command line: namespaces, its own identity and control groups, frozen between its turns; pinned
slots), and prints games per hour and the 2-vs-1 ratio.

Part 2 plays the schedule in this process at concurrency 1 and splits the wall time into process
management (starting, handshaking and closing bots), engine (the game calls the referee makes,
timed by repeating them on the recorded decisions) and transport plus referee bookkeeping (the rest
of each match).

Usage: python benchmarks/tournament_throughput.py [--deals 10] [--bots 4] [--repeats 2] [--sandboxed-only]
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

from arena import __version__
from arena.clock import TimeControl
from arena.record import MatchRecord
from arena.referee import FaultPolicy, play_match
from arena.sandbox.selftest import sandbox_problem
from arena.store.db import Store
from arena.tournament.config import BotEntry, Format, TournamentConfig
from arena.tournament.executors import LocalExecutor
from arena.tournament.pool import BotPool
from arena.tournament.runner import run_tournament
from arena.tournament.schedule import build_schedule
from engine.core import Game
from engine.registry import get_game
from protocols.transport import Hub


def league(
    bots: int, deals: int, trusted: bool, concurrency: int, pin_cpus: bool = True,
    sandboxed: bool = False,
) -> TournamentConfig:
    """A round-robin of ``bots`` seeded random bots at 4-player tables; ``sandboxed``: each given as
    an entrant's command line, so that it runs in the sandbox."""
    bot = f"{sys.executable} -m bots.random" if sandboxed else "random"
    return TournamentConfig(
        name="throughput",
        game="wongar",
        variant=None,
        knobs={},
        table_size=4,
        format=Format.ROUND_ROBIN,
        candidates=(),
        deals=deals,
        time_control=TimeControl.parse("5s/30s"),
        strikes=3,
        seed=7,
        concurrency=concurrency,
        trusted=trusted,
        bots=tuple(BotEntry(f"r{i}", bot, {"ARENA_SEED": str(i)}) for i in range(bots)),
        pin_cpus=pin_cpus,
    )


def cpu_seconds() -> float:
    """CPU time of this process and of every reaped descendant (workers and their bots)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def runner_rate(config: TournamentConfig) -> tuple[int, float, float]:
    """Games played, seconds of wall time and CPU seconds through the real runner into a fresh
    store."""
    with tempfile.TemporaryDirectory() as folder, Store(Path(folder) / "bench.db") as store:
        cpu = cpu_seconds()
        started = time.perf_counter()
        summary = run_tournament(config, store, LocalExecutor(config.concurrency, pin_cpus=config.pin_cpus))
        elapsed = time.perf_counter() - started
        cpu = cpu_seconds() - cpu
    assert summary.failed == 0 and summary.missing == 0
    return summary.played, elapsed, cpu


def engine_seconds(game: Game, record: MatchRecord) -> float:
    """Time of the engine calls the referee makes for ``record``, repeated on its decisions."""
    started = time.perf_counter()
    config = record.config
    state = game.start(config, record.seed)
    game.action_table(config).to_wire()
    since = [0] * config.players
    for decision in record.decisions:
        seat = decision.seat
        state.to_move()
        state.legal_actions(seat)
        _, since[seat] = state.events(seat, since[seat])
        state.observation(seat)
        state.apply(seat, decision.action)
    state.result()
    return time.perf_counter() - started


def breakdown(config: TournamentConfig) -> dict[str, float]:
    """Seconds in process management, engine, and transport with referee bookkeeping."""
    schedule = build_schedule(config)
    game = get_game(config.game)
    match_config = config.match_config()
    control = config.time_control
    specs = {b.name: b.spec() for b in config.bots}
    process = matches = 0.0
    records: list[MatchRecord] = []
    started = time.perf_counter()
    with (
        Hub(server=f"arena {__version__}") as hub,
        tempfile.TemporaryDirectory() as logs,
        BotPool(hub, Path(logs)) as pool,
    ):
        for planned in schedule:
            t0 = time.perf_counter()
            handles = pool.seat([specs[n] for n in planned.bots], planned.generation)
            t1 = time.perf_counter()
            record = play_match(game, match_config, planned.seed, handles, control,
                                FaultPolicy(config.strikes), match_id=planned.id)
            t2 = time.perf_counter()
            for handle in handles:
                pool.give_back(handle, planned.generation)
            t3 = time.perf_counter()
            process += (t1 - t0) + (t3 - t2)
            matches += t2 - t1
            records.append(record)
        t4 = time.perf_counter()
    process += time.perf_counter() - t4
    wall = time.perf_counter() - started
    engine = sum(engine_seconds(game, record) for record in records)
    return {
        "wall": wall,
        "process management": process,
        "engine": engine,
        "transport and referee": matches - engine,
        "launched": float(pool.launched),
        "games": float(len(schedule)),
    }


def throughput(label: str, repeats: int, make: Callable[[int], TournamentConfig]) -> None:
    """Print the best of ``repeats`` runs of ``make(concurrency)`` at concurrency 1 and 2
    (alternating), and their ratio."""
    best: dict[int, tuple[int, float, float]] = {}
    for _ in range(repeats):
        for concurrency in (1, 2):
            run = runner_rate(make(concurrency))
            if concurrency not in best or run[1] < best[concurrency][1]:
                best[concurrency] = run
    rates = {}
    for concurrency, (played, seconds, cpu) in best.items():
        rates[concurrency] = played / seconds * 3600
        print(f"{label}, concurrency {concurrency}: {played} games in {seconds:.2f} s = "
              f"{rates[concurrency]:,.0f} games/hour ({cpu / played:.3f} CPU s a game)")
    print(f"  ratio concurrency 2 / 1: {rates[2] / rates[1]:.2f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=10)
    parser.add_argument("--bots", type=int, default=4)
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--sandboxed-only", action="store_true",
                        help="only the runs with sandboxed bots (and their breakdown)")
    args = parser.parse_args()
    games = len(build_schedule(league(args.bots, args.deals, False, 1)))
    print(f"4-player Wongar, {args.bots} random bots, {args.deals} deals: {games} games a run")
    print(f"load average before: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    print(f"\n== runner throughput (worker processes, SQLite store; best of {args.repeats}, "
          "concurrency 1 and 2 alternating) ==")
    if not args.sandboxed_only:
        for trusted in (True, False):
            for pin_cpus in (True, False):
                label = f"{'trusted' if trusted else 'untrusted'}, {'pinned' if pin_cpus else 'not pinned'}"
                throughput(label, args.repeats, partial(league, args.bots, args.deals, trusted,
                                                        pin_cpus=pin_cpus))
    problem = sandbox_problem()
    if problem is None:
        throughput("untrusted, sandboxed, pinned", args.repeats,
                   partial(league, args.bots, args.deals, False, pin_cpus=True, sandboxed=True))
    else:
        print(f"no sandboxed runs: {problem}")
    print(f"load average after: {os.getloadavg()[0]:.2f}")
    print("\n== where the time goes (one process, concurrency 1) ==")
    kinds = [] if args.sandboxed_only else [(True, False), (False, False)]
    kinds += [(False, True)] if problem is None else []
    for trusted, sandboxed in kinds:
        figures = breakdown(league(args.bots, args.deals, trusted, 1, sandboxed=sandboxed))
        wall = figures["wall"]
        label = ("trusted (one generation)" if trusted else "untrusted (restart per rotation)"
                 ) + (", sandboxed" if sandboxed else "")
        print(f"{label}: {figures['games']:.0f} games in {wall:.2f} s, "
              f"{figures['launched']:.0f} bot processes started")
        for part in ("engine", "transport and referee", "process management"):
            print(f"  {part:<22} {figures[part]:7.2f} s  {figures[part] / wall:6.1%}")


if __name__ == "__main__":
    main()
