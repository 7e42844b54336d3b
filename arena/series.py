"""A series of matches between the same bots, kept running between matches: ``arena play --games N``.

Match ``i``'s deal seed is ``derive_seed(seed, "game", i)`` (keyed with the series' deal secret, if
it has one, before the engine deals from it: :class:`arena.deals.Dealing`) and it seats the bots rotated by ``i``
(seat ``s`` plays bot ``(s + i) mod players``), so over a multiple of the player count every bot
sits in every seat equally often. Bots start once; one whose process died is started afresh before
the next match. Nothing is stored: the records come back to the caller.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Sequence
from contextlib import ExitStack
from pathlib import Path

from arena import __version__
from arena.clock import ClockRule, TimeControl
from arena.deals import Dealing
from arena.handle import BotHandle, close_all
from arena.manifest import BotSpec
from arena.process import BotStartError
from arena.record import MatchRecord
from arena.referee import FaultPolicy, RefereeError, play_match
from arena.seatcpus import own_cpus
from engine.core import Game, MatchConfig, derive_seed
from protocols.codec import DEFAULT_LIMITS, Limits
from protocols.transport import Hub

#: Called after each match with its number (from 0) and record.
MatchDone = Callable[[int, MatchRecord], None]


def match_seed(seed: int, number: int) -> int:
    """The deal's seed of match ``number`` of a series started from ``seed``."""
    return derive_seed(seed, "game", number)


def entry_at(seat: int, number: int, players: int) -> int:
    """Which bot (its position in the series' list) plays ``seat`` in match ``number``."""
    return (seat + number) % players


def play_series(
    game: Game,
    config: MatchConfig,
    seed: int,
    bots: Sequence[BotSpec],
    time_control: TimeControl,
    games: int,
    fault_policy: FaultPolicy = FaultPolicy(),
    *,
    log_dir: Path | None = None,
    limits: Limits = DEFAULT_LIMITS,
    clock: ClockRule = ClockRule(),
    on_match: MatchDone | None = None,
    dealing: Dealing = Dealing(),
) -> list[MatchRecord]:
    """Play ``games`` matches between ``bots`` (one per seat, rotated each match) and return their
    records in order (each annotated by ``dealing``); a void match (a host fault) is the last one. Bots are closed and reaped at the end,
    whatever happens. The matches have this process's processors to themselves (see
    :func:`~arena.referee.play_match`)."""
    if len(bots) != config.players:
        raise RefereeError(f"{config.players} players need {config.players} bots, got {len(bots)}")
    if games < 1:
        raise RefereeError("a series needs at least one game")
    records: list[MatchRecord] = []
    with Hub(None, limits=limits, server=f"arena {__version__}") as hub, ExitStack() as stack:
        if log_dir is None:
            log_dir = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="arena-logs-")))
        handles: list[BotHandle] = []
        stack.callback(close_all, handles)
        handles.extend(BotHandle.launch_all(list(bots), hub, log_dir))
        for number in range(games):
            _restart_dead(handles)
            seated = [handles[entry_at(seat, number, config.players)] for seat in range(config.players)]
            deal_seed = match_seed(seed, number)
            record = dealing.annotate(
                play_match(game, config, dealing.engine_seed(deal_seed), seated, time_control,
                           fault_policy, clock=clock, cpus=own_cpus()),
                deal_seed,
            )
            records.append(record)
            if on_match is not None:
                on_match(number, record)
            if record.void is not None:  # the host is too busy: the series stops there
                break
    return records


def _restart_dead(handles: list[BotHandle]) -> None:
    """Start afresh every bot that started once but whose process has died since."""
    for handle in handles:
        if handle.failure is None and not handle.alive():
            try:
                handle.restart()
            except BotStartError as exc:
                handle.failure = str(exc)
