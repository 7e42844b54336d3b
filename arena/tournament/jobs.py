"""What travels between the runner and whoever plays its matches (worker processes or a cluster).

Plain, picklable values only: a :class:`MatchJob` out, a :class:`JobDone` or :class:`JobFailed` back.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from arena.clock import ClockRule
from arena.deals import DealSecret, engine_seed
from arena.tournament.config import BotEntry, TournamentConfig
from arena.tournament.schedule import ScheduledGame, wave_generations


@dataclass(frozen=True, slots=True)
class MatchJob:
    """One scheduled game with everything needed to play it anywhere.

    ``bots[s]`` is the entry for seat ``s``; ``generation`` says which bot processes may play it.
    ``seed`` is the engine seed (the deal's seed keyed with the tournament's deal secret, if it
    has one): the secret itself never leaves the runner.
    """

    game_id: str
    generation: int
    game: str
    variant: str | None
    knobs: tuple[tuple[str, Any], ...]
    seed: int
    bots: tuple[BotEntry, ...]
    time_control: str
    strikes: int
    frame_limit_kb: int
    clock: ClockRule
    #: Generations whose idle bot processes a worker keeps (the most recently played ones): the
    #: generations a wave interleaves (early stopping plays a wave's in turn), else 1.
    keep: int = 1
    live: str | None = None
    """The live folder: while it exists, the game's decisions are also written there as they
    are made, for ``arena serve`` (see :mod:`arena.live.files`)."""

    @classmethod
    def of(
        cls, config: TournamentConfig, game: ScheduledGame, secret: DealSecret | None = None
    ) -> MatchJob:
        """The job for ``game`` of ``config``'s schedule, dealt with ``secret`` (public without)."""
        return cls(
            game_id=game.id,
            generation=game.generation,
            game=config.game,
            variant=config.variant,
            knobs=tuple(sorted(config.knobs.items())),
            seed=engine_seed(secret, game.seed),
            bots=tuple(config.bot(name) for name in game.bots),
            time_control=str(config.time_control),
            strikes=config.strikes,
            frame_limit_kb=config.frame_limit_kb,
            clock=config.clock,
            keep=wave_generations(config) if config.sprt is not None else 1,
        )


@dataclass(frozen=True, slots=True)
class JobDone:
    """A played game: the match record's wire form and, per seat, the bot process that played it."""

    game_id: str
    record: dict[str, Any]
    processes: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class JobFailed:
    """A game that could not be played at all (not a bot fault: those are in the record)."""

    game_id: str
    reason: str
