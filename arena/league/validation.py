"""Validation of a submitted version before it enters a league's ladder.

Two steps, each in the sandbox (a submitted bot is never trusted), under the league's game,
variant, knobs, table size, time control and clock:

1. ``arena bot check``'s conformance check (:func:`arena.conformance.check_bot`): one copy of the
   bot per seat, handshake, pings, one match, bye;
2. a validation table against built-in ``random`` bots: one deal in every rotation, the version
   taking each seat once; any fault of its seats refuses it.

Nothing here is stored as a game: validation games never count in the ladder. The candidate's
output goes to ``log_dir`` (its owner's folder); the built-in bots' output is discarded.
"""

from __future__ import annotations

import secrets
import tempfile
from contextlib import ExitStack
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from arena import __version__
from arena.conformance import check_bot
from arena.handle import BotHandle, close_all
from arena.league.book import LeagueRow
from arena.referee import FaultPolicy, play_match
from arena.tournament.config import BotEntry, TournamentConfig, config_from_plain
from engine.registry import get_game
from protocols.transport import Hub

#: The built-in bot that fills the validation table's other seats.
FILLER = "random"


@dataclass(frozen=True, slots=True)
class Verdict:
    """What validation found: ``reason`` is ``None`` when the version passed; ``deferred`` when
    the host, not the bot, stopped a validation game (it is validated again later)."""

    reason: str | None
    report: str
    deferred: bool = False

    @property
    def passed(self) -> bool:
        return self.reason is None and not self.deferred


def validation_config(row: LeagueRow, entry: BotEntry) -> TournamentConfig:
    """The league's table setup with ``entry`` and built-in fillers (never stored or played as a
    tournament: it only carries the setup)."""
    fillers: list[dict[str, Any]] = [{"name": f"{FILLER}-{i}", "bot": FILLER, "env": {}}
                                     for i in range(1, row.table_size)]
    plain = {**row.template, "name": f"{row.name} validation", "format": "round-robin",
             "candidates": [], "deals": 1, "concurrency": 1, "bots": [entry.to_plain(), *fillers]}
    return config_from_plain(plain, source=f"league {row.name!r}, validation")


def validate(row: LeagueRow, entry: BotEntry, log_dir: Path) -> Verdict:
    """Validate ``entry`` (untrusted) for ``row``'s league; its output is kept in ``log_dir``."""
    config = validation_config(row, entry)
    game = get_game(config.game)
    setup = config.match_config()
    spec = replace(entry.spec(), trusted=False, log_dir=log_dir)
    seed = secrets.randbits(63)
    check = check_bot(spec, game, setup, seed=seed, matches=1, time_control=config.time_control,
                      clock=config.clock, log_dir=log_dir)
    lines = [f"bot check: matches played {check.matches}, decisions answered {check.decisions}"]
    lines += [f"  breach: {b.what}\n  fix: {b.fix}" for b in check.breaches]
    if not check.passed:
        first = check.breaches[0].what if check.breaches else "the bot answered no decision"
        return Verdict(f"bot check failed: {first}", "\n".join(lines))
    lines.append("bot check: passed")
    fillers = [config.bot(f"{FILLER}-{i}").spec() for i in range(1, row.table_size)]
    with (
        Hub(server=f"arena {__version__}") as hub,
        tempfile.TemporaryDirectory(prefix="arena-validation-") as scratch,
        ExitStack() as stack,
    ):
        handles = BotHandle.launch_all([spec, *fillers], hub, Path(scratch))
        stack.callback(close_all, handles, 0.2)
        for rotation in range(row.table_size):
            seats = handles[1:]
            seats.insert(rotation, handles[0])
            record = play_match(game, setup, seed + 1, seats, config.time_control,
                                FaultPolicy(config.strikes), clock=config.clock,
                                match_id=f"validation-{rotation + 1}")
            if record.void is not None:
                lines.append(f"validation game {rotation + 1}: void ({record.void}); validated "
                             "again later")
                return Verdict(None, "\n".join(lines), deferred=True)
            own = [f for f in record.faults if f.seat == rotation]
            if own:
                fault = own[0]
                reason = (f"validation table, game {rotation + 1} (seat {rotation}): "
                          f"{fault.kind.value} at decision {fault.ply}: {fault.detail}")
                lines.append(reason)
                return Verdict(reason, "\n".join(lines))
            lines.append(f"validation game {rotation + 1} (seat {rotation}): no fault, "
                         f"rank {record.ranks[rotation]} of {row.table_size}")
    return Verdict(None, "\n".join(lines))
