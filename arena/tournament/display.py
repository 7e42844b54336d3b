"""The runner's live view: progress with ETA, games done and running, faults, standings.

A Rich live panel on a terminal; plain lines (one per finished game) when output is piped.
"""

from __future__ import annotations

import time
from collections import defaultdict
from dataclasses import dataclass, field
from types import TracebackType

from rich.console import Console, Group
from rich.live import Live
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Column, Table
from rich.text import Text

from arena.inert import terminal
from arena.record import MatchRecord


@dataclass
class Standing:
    """One bot's running totals: games, summed ranks and scores, wins (rank 1), faults."""

    games: int = 0
    rank_sum: int = 0
    score_sum: int = 0
    wins: int = 0
    faults: int = 0
    forfeits: int = 0

    @property
    def average_rank(self) -> float:
        return self.rank_sum / self.games if self.games else 0.0

    @property
    def flagged(self) -> int:
        """Faults and forfeits together, as the leaderboard counts them."""
        return self.faults + self.forfeits


@dataclass
class Tally:
    """What the runner has seen so far."""

    total: int
    done: int = 0
    running: int = 0
    failed: int = 0
    faults: int = 0
    forfeits: int = 0
    standings: dict[str, Standing] = field(default_factory=lambda: defaultdict(Standing))

    def add(self, record: MatchRecord) -> None:
        """Count one stored game."""
        self.done += 1
        self.faults += len(record.faults)
        self.forfeits += len(record.forfeited)
        for seat, bot in enumerate(record.bots):
            row = self.standings[bot]
            row.games += 1
            row.rank_sum += record.ranks[seat]
            row.score_sum += record.scores[seat]
            row.wins += record.ranks[seat] == 1
            row.faults += sum(1 for f in record.faults if f.seat == seat)
            row.forfeits += seat in record.forfeited

    @property
    def flagged(self) -> int:
        """Faults and forfeits together, as the leaderboard counts them."""
        return self.faults + self.forfeits

    def ordered(self) -> list[tuple[str, Standing]]:
        """Standings, best average place first."""
        return sorted(self.standings.items(), key=lambda item: (item[1].average_rank, item[0]))


class Display:
    """Shows a :class:`Tally` as it changes; a context manager."""

    def __init__(self, tally: Tally, console: Console, title: str) -> None:
        self.tally = tally
        self.console = console
        self.title = title
        self.live_mode = console.is_terminal
        self._progress = Progress(
            TextColumn("[bold]{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("running {task.fields[running]}  faults {task.fields[faults]}"),
            TimeRemainingColumn(),
            console=console,
        )
        self._task = self._progress.add_task(title, total=tally.total, completed=tally.done,
                                             running=0, faults=0)
        self._live: Live | None = None
        self._started = time.monotonic()

    def __enter__(self) -> Display:
        if self.live_mode:
            self._live = Live(self._render(), console=self.console, refresh_per_second=4)
            self._live.__enter__()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self._live is not None:
            self._live.update(self._render())
            self._live.__exit__(kind, exc, tb)
            self._live = None

    def baseline(self) -> None:
        """Count games stored before this run as done without taking them into the ETA."""
        self._progress.reset(self._task, completed=self.tally.done)
        self.update()

    def update(self, game_id: str | None = None, record: MatchRecord | None = None) -> None:
        """Redraw after a change; ``record`` is a newly stored game (printed as a line when piped)."""
        tally = self.tally
        self._progress.update(
            self._task, completed=tally.done, running=tally.running, faults=tally.flagged
        )
        if self._live is not None:
            self._live.update(self._render())
        elif record is not None:
            seats = " ".join(
                f"{bot}={score}/{rank}"
                for bot, score, rank in zip(record.bots, record.scores, record.ranks)
            )
            flag = f" faults={len(record.faults)}" if record.faults else ""
            self.console.print(
                Text(terminal(f"[{tally.done}/{tally.total}] {game_id} {seats}{flag}"))
            )

    def note(self, message: str) -> None:
        """A line above the live view (or on its own when piped), shown as plain inert text."""
        self.console.print(Text(terminal(message)))

    def _render(self) -> Group:
        table = Table(Column("bot", overflow="fold"), "games", "place", "wins", "avg score", "faults",
                      title="standings")
        for bot, row in self.tally.ordered():
            table.add_row(
                Text(terminal(bot)),
                str(row.games),
                f"{row.average_rank:.2f}",
                str(row.wins),
                f"{row.score_sum / row.games:.1f}" if row.games else "-",
                str(row.flagged),
            )
        return Group(self._progress, table)
