"""``arena play --games N``: many quick matches between the same bots, with progress and a summary."""

from __future__ import annotations

import json
import statistics
from pathlib import Path
from typing import IO

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from arena.cli.common import console, fail, inert
from arena.clock import ClockRule, TimeControl
from arena.deals import Dealing
from arena.manifest import BotSpec
from arena.record import MatchRecord
from arena.referee import FaultPolicy
from arena.series import entry_at, play_series
from engine.core import Game, MatchConfig
from leaderboards.results import common_clock
from protocols.codec import Limits


def play_games(
    game: Game,
    config: MatchConfig,
    seed: int,
    specs: list[BotSpec],
    control: TimeControl,
    games: int,
    policy: FaultPolicy,
    *,
    log_dir: Path | None,
    limits: Limits,
    clock: ClockRule,
    record: Path | None,
    dealing: Dealing,
) -> list[MatchRecord]:
    """Play the series with a progress bar on a terminal; each record is appended to ``record``
    (one JSON record per line) as soon as its match ends, so an interrupted series keeps them."""
    try:
        out: IO[str] | None = None if record is None else record.open("w", encoding="utf-8")
    except OSError as exc:
        raise fail(f"cannot write the records to {record}: {exc}") from None
    progress = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                        TimeRemainingColumn(), console=console, transient=True,
                        disable=not console.is_terminal)
    task = progress.add_task(f"{config.game} games", total=games)

    def done(number: int, result: MatchRecord) -> None:
        if out is not None:
            out.write(json.dumps(result.to_wire(), allow_nan=False) + "\n")
            out.flush()
        progress.advance(task)

    try:
        with progress:
            return play_series(game, config, seed, specs, control, games, policy, log_dir=log_dir,
                               limits=limits, clock=clock, on_match=done, dealing=dealing)
    finally:
        if out is not None:
            out.close()


def series_table(records: list[MatchRecord], names: list[str], seed: int) -> Table:
    """One row per bot of the series (in the order given): matches, wins (first place, shared or
    not), mean place and score, faults, forfeits and its median reply time."""
    players = len(names)
    decisions = sum(len(r.decisions) for r in records)
    playing = sum(r.duration for r in records)
    first = records[0]
    table = Table(title=f"{len(records)} matches of {first.game}@{first.version} {first.variant}, "
                        f"seed {seed}{', keyed' if 'deal' in first.detail else ''}: {decisions} decisions in {playing:.1f} s of play "
                        f"({decisions / playing if playing else 0:.0f} a second)")
    table.caption = (f"clock: {common_clock(r.detail.get('clock') for r in records) or 'unknown'}; "
                     "place and score: means over the matches; ms: median reply time")
    table.add_column("bot", no_wrap=True)
    for column in ("matches", "wins", "place", "score", "faults", "forfeits", "ms"):
        table.add_column(column, justify="right")
    for entry, name in enumerate(names):
        places: list[int] = []
        scores: list[int] = []
        faults = forfeits = 0
        times: list[float] = []
        for number, record in enumerate(records):
            seat = next(s for s in range(players) if entry_at(s, number, players) == entry)
            places.append(record.ranks[seat])
            scores.append(record.scores[seat])
            faults += sum(1 for f in record.faults if f.seat == seat)
            forfeits += seat in record.forfeited
            times.extend(d.elapsed for d in record.decisions if d.seat == seat and not d.fallback)
        median = f"{statistics.median(times) * 1000:.2f}" if times else "-"
        table.add_row(inert(f"{entry + 1}. {name}"), str(len(records)), str(places.count(1)),
                      f"{statistics.fmean(places):.2f}", f"{statistics.fmean(scores):.1f}",
                      str(faults), str(forfeits), median)
    return table
