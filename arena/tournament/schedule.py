"""The schedule: a pure function of a tournament config (which holds the master seed).

* Tables: round-robin takes every ``table_size`` combination of the field; a gauntlet takes every
  candidate with every ``table_size - 1`` combination of the pool. Bots keep their config order.
* Deals: each table plays ``deals`` deals; deal ``d`` of a table has one seed, derived from the
  master seed, the table and ``d``.
* Duplicate: each deal is played once per rotation ``r`` in ``0 .. k-1``, seat ``s`` taken by
  ``table[(s + r) % k]``, so every bot sits in every seat of its table once per deal.
* Generations (duplicate integrity): a bot process lives within one generation and never plays outside
  it. Untrusted bots get generation ``r`` for rotation ``r``: a generation holds each deal exactly once,
  so no process can meet a deal twice, and each bot needs only ``k`` processes' worth of restarts in
  the whole tournament. Trusted bots have a single generation.
* Ids: a short hash of the game setup, master seed, table, deal and rotation; stable for the same
  config and seed.
* Order: generation by generation; within one, every bot's games spread evenly over it (a seeded
  shuffle, then each next game the one, of the next few, whose bots have played least), so the
  standings are fair at any moment of the run, not only at its end.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import random
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from arena.tournament.config import Format, TournamentConfig
from engine.core import derive_seed

#: Games :func:`spread` looks ahead at for the next one.
SPREAD_WINDOW = 64


@dataclass(frozen=True, slots=True)
class ScheduledGame:
    """One game of the schedule. ``bots[s]`` is the bot in seat ``s``."""

    id: str
    generation: int
    table: int
    deal: int
    rotation: int
    seed: int
    bots: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Schedule:
    """Every game in playing order (by generation; within one, spread: see :func:`spread`)."""

    tables: tuple[tuple[str, ...], ...]
    games: tuple[ScheduledGame, ...]
    generations: int

    def __len__(self) -> int:
        return len(self.games)

    def __iter__(self) -> Iterator[ScheduledGame]:
        return iter(self.games)

    def by_id(self) -> dict[str, ScheduledGame]:
        """Games keyed by id."""
        return {g.id: g for g in self.games}


def tables_of(config: TournamentConfig) -> tuple[tuple[str, ...], ...]:
    """The tables the format draws from the field, in a fixed order."""
    names = [b.name for b in config.bots]
    k = config.table_size
    if config.format is Format.ROUND_ROBIN:
        return tuple(itertools.combinations(names, k))
    pool = [n for n in names if n not in config.candidates]
    return tuple(
        (candidate, *others)
        for candidate in config.candidates
        for others in itertools.combinations(pool, k - 1)
    )


def build_schedule(config: TournamentConfig) -> Schedule:
    """The schedule of ``config``: the same config always gives the same games, ids and order."""
    tables = tables_of(config)
    k = config.table_size
    setup = json.dumps(
        [config.game, config.variant, dict(sorted(config.knobs.items())), config.seed]
    )
    games: list[ScheduledGame] = []
    for t, table in enumerate(tables):
        label = "/".join(table)
        for deal in range(config.deals):
            seed = derive_seed(config.seed, "deal", label, deal)
            for rotation in range(k):
                seats = tuple(table[(s + rotation) % k] for s in range(k))
                games.append(
                    ScheduledGame(
                        id=_game_id(setup, label, deal, rotation),
                        generation=0 if config.trusted else rotation,
                        table=t,
                        deal=deal,
                        rotation=rotation,
                        seed=seed,
                        bots=seats,
                    )
                )
    rng = random.Random(derive_seed(config.seed, "order"))
    ordered: list[ScheduledGame] = []
    for generation in sorted({g.generation for g in games}):
        block = [g for g in games if g.generation == generation]
        rng.shuffle(block)
        ordered += spread(block)
    return Schedule(tables, tuple(ordered), 1 if config.trusted else k)


def spread(games: Sequence[ScheduledGame], window: int = SPREAD_WINDOW) -> list[ScheduledGame]:
    """``games`` reordered so that each bot's games spread evenly: each next game is, of the next
    ``window`` games left in the given order, the first one whose bots have played fewest games so
    far (the most of any of its bots, then their sum)."""
    played: Counter[str] = Counter()
    left = list(games)
    ordered: list[ScheduledGame] = []
    while left:
        best = min(
            range(min(window, len(left))),
            key=lambda i: (max(played[b] for b in left[i].bots), sum(played[b] for b in left[i].bots), i),
        )
        game = left.pop(best)
        played.update(game.bots)
        ordered.append(game)
    return ordered


def _game_id(setup: str, table: str, deal: int, rotation: int) -> str:
    text = f"{setup}|{table}|{deal}|{rotation}".encode()
    return hashlib.blake2b(text, digest_size=6).hexdigest()


def repeated_deals(games: Sequence[ScheduledGame]) -> list[tuple[int, str, int]]:
    """``(generation, bot, seed)`` for every deal a bot meets more than once within one generation.

    Empty for every untrusted schedule: the duplicate-integrity invariant.
    """
    seen: set[tuple[int, str, int]] = set()
    repeats: list[tuple[int, str, int]] = []
    for game in games:
        for bot in game.bots:
            key = (game.generation, bot, game.seed)
            if key in seen:
                repeats.append(key)
            seen.add(key)
    return repeats
