"""The schedule: a pure function of a tournament config (which holds the master seed).

* Tables: round-robin takes every ``table_size`` combination of the field; a gauntlet takes every
  candidate with every ``table_size - 1`` combination of the pool; sampled draws ``tables_per_bot``
  tables for each bot (:mod:`arena.tournament.sampled`); swiss forms each round from the results of
  the rounds before (:mod:`arena.tournament.swiss`), so its schedule grows as results come in. Bots
  keep their config order. Late entries' tables come after the others (stored games keep their
  tables, ids and deals).
* Waves: the runner submits a wave's games together. A swiss round is a wave, played whole before
  the next is formed; in a gauntlet with early stopping each duplicate block is a wave (in a paired
  gauntlet, each deal of a pool combination: every candidate's block of it), deal by deal across the
  tables, and the runner keeps only as many in play as it has match slots, so blocks complete one
  after another and the test is checked after each; every other format is one wave.
* Deals: each table plays ``deals`` deals; deal ``d`` of a table has one seed, derived from the
  master seed, the table and ``d``. In a paired gauntlet the seed comes from the table's pool
  bots (not its candidate), so every candidate plays the same deals with the same opponents in the
  same seats: the comparison of candidates is paired.
* Duplicate: each deal is played once per rotation ``r`` in ``0 .. k-1``, seat ``s`` taken by
  ``table[(s + r) % k]``, so every bot sits in every seat of its table once per deal.
* Generations (duplicate integrity): a bot process lives within one generation and never plays outside
  it. Untrusted bots get generation ``r`` for rotation ``r``: a generation holds each deal exactly once,
  so no process can meet a deal twice, and each bot needs only ``k`` processes' worth of restarts in
  the whole tournament. In a paired gauntlet candidate ``c``'s games take generation
  ``c * k + r`` (a pool bot meets each deal once per candidate). Trusted bots have a single
  generation.
* Ids: a short hash of the game setup, master seed, table, deal and rotation; stable for the same
  config and seed.
  A swiss round has generations of its own; the waves of early stopping share them, played
  interleaved (a worker then keeps the processes of every generation of a wave: see
  :attr:`arena.tournament.jobs.MatchJob.keep`).
* Order: wave by wave, generation by generation; within one, every bot's games spread evenly
  over it (a seeded shuffle, then each next game the one, of the next few, whose bots have played
  least), so the standings are fair at any moment of the run, not only at its end.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import random
from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace

import numpy as np

from arena.store.db import StoredGame
from arena.tournament.config import Format, TournamentConfig
from arena.tournament.sampled import late_tables, sampled_tables
from arena.tournament.swiss import Result, round_tables
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
    wave: int = 0


@dataclass(frozen=True, slots=True)
class Schedule:
    """Every game known so far, in playing order (by generation; within one, spread: see
    :func:`spread`). ``len()`` is the number of games the tournament plays in all: for swiss,
    rounds not formed yet included (``rounds`` configured, ``formed`` so far)."""

    tables: tuple[tuple[str, ...], ...]
    games: tuple[ScheduledGame, ...]
    generations: int
    planned: int = -1
    rounds: int = 0
    formed: int = 0

    def __len__(self) -> int:
        return self.planned if self.planned >= 0 else len(self.games)

    def __iter__(self) -> Iterator[ScheduledGame]:
        return iter(self.games)

    def by_id(self) -> dict[str, ScheduledGame]:
        """Games keyed by id."""
        return {g.id: g for g in self.games}

    def rounds_played(self, stored: Collection[str]) -> int:
        """Swiss rounds formed whose every game is in ``stored`` (ids)."""
        open_rounds = {g.wave for g in self.games if g.id not in stored}
        return sum(1 for number in range(self.formed) if number not in open_rounds)


def tables_of(config: TournamentConfig) -> tuple[tuple[str, ...], ...]:
    """The tables the format draws from the field, in a fixed order: the tables of the field
    without its late entries, then each late entry's (swiss: the first round's)."""
    names = [b.name for b in config.bots]
    k = config.table_size
    if config.format is Format.SWISS:
        return tuple(round_tables(names, k, (), {}, derive_seed(config.seed, "swiss", 0))[0])
    if config.format is Format.GAUNTLET:
        pool = [n for n in names if n not in config.candidates]
        return tuple(
            (candidate, *others)
            for candidate in config.candidates
            for others in itertools.combinations(pool, k - 1)
        )
    field = names[: len(names) - len(config.late_entries)]
    if config.format is Format.ROUND_ROBIN:
        tables = list(itertools.combinations(field, k))
        for late in config.late_entries:
            tables += [(*others, late) for others in itertools.combinations(field, k - 1)]
            field.append(late)
        return tuple(tables)
    tables = sampled_tables(field, k, config.tables_per_bot, derive_seed(config.seed, "sampled"))
    for late in config.late_entries:
        seed = derive_seed(config.seed, "late", late)
        tables += late_tables(field, tables, late, k, config.tables_per_bot, seed)
        field.append(late)
    return tuple(tables)


def stored_results(games: Iterable[StoredGame]) -> dict[str, Result]:
    """What a swiss schedule needs of stored games: each one's seats and ranks, by id."""
    return {g.placement.game_id: Result(g.record.bots, g.record.ranks) for g in games}


def build_schedule(
    config: TournamentConfig, results: Mapping[str, Result] | None = None
) -> Schedule:
    """The schedule of ``config``: the same config (and, for swiss, the same stored ``results``
    by game id) always gives the same games, ids and order."""
    if config.format is Format.SWISS:
        return _swiss_schedule(config, results or {})
    tables = tables_of(config)
    labels = [
        f"{t}:{'/'.join(table)}" if config.format is Format.SAMPLED else "/".join(table)
        for t, table in enumerate(tables)
    ]
    games = _games(config, tables, labels, range(len(tables)), [0] * len(tables))
    if config.sprt is not None:
        games = _in_waves(games, len(tables) // _sides(config))
    return Schedule(tuple(tables), _ordered(config, games), wave_generations(config))


def _swiss_schedule(config: TournamentConfig, results: Mapping[str, Result]) -> Schedule:
    """Rounds formed one by one while every game of the rounds before is in ``results``."""
    names = [b.name for b in config.bots]
    k = config.table_size
    per_round = len(names) // k
    tables: list[tuple[str, ...]] = []
    games: list[ScheduledGame] = []
    byes: dict[str, int] = {}
    for number in range(config.rounds):
        before = [results[g.id] for g in games if g.id in results]
        if len(before) < len(games):
            break
        seated, bye = round_tables(names, k, before, byes, derive_seed(config.seed, "swiss", number))
        for bot in bye:
            byes[bot] = byes.get(bot, 0) + 1
        labels = [f"r{number}:{'/'.join(table)}" for table in seated]
        indices = range(len(tables), len(tables) + len(seated))
        games += _games(config, seated, labels, indices, [number] * len(seated))
        tables += seated
    formed = len(tables) // per_round
    planned = config.rounds * per_round * config.deals * k
    return Schedule(tuple(tables), _ordered(config, games), wave_generations(config), planned,
                    config.rounds, formed)


def _sides(config: TournamentConfig) -> int:
    """The candidates a paired gauntlet compares (1 for every other schedule)."""
    return len(config.candidates) if config.paired else 1


def wave_generations(config: TournamentConfig) -> int:
    """Process generations of one wave."""
    return 1 if config.trusted else config.table_size * _sides(config)


def _games(
    config: TournamentConfig,
    tables: Sequence[tuple[str, ...]],
    labels: Sequence[str],
    indices: Iterable[int],
    waves: Sequence[int],
) -> list[ScheduledGame]:
    """Every deal of every table in every rotation; ``labels`` name the tables in ids and seeds."""
    k = config.table_size
    setup = json.dumps(
        [config.game, config.variant, dict(sorted(config.knobs.items())), config.seed]
    )
    generations = wave_generations(config)
    per_side = len(tables) // _sides(config)
    games: list[ScheduledGame] = []
    for table, label, t, wave in zip(tables, labels, indices, waves):
        side = t // per_side if config.paired else 0
        dealt = "/".join(table[1:]) if config.paired else label
        for deal in range(config.deals):
            seed = derive_seed(config.seed, "deal", dealt, deal)
            for rotation in range(k):
                seats = tuple(table[(s + rotation) % k] for s in range(k))
                games.append(
                    ScheduledGame(
                        id=_game_id(setup, label, deal, rotation),
                        generation=wave * generations
                        + (0 if config.trusted else side * k + rotation),
                        table=t,
                        deal=deal,
                        rotation=rotation,
                        seed=seed,
                        bots=seats,
                        wave=wave,
                    )
                )
    return games


def _in_waves(games: list[ScheduledGame], per_side: int) -> list[ScheduledGame]:
    """``games`` with a wave per duplicate block, deal by deal across the ``per_side`` tables of
    each candidate (a paired gauntlet's candidates share the wave of a deal and pool combination);
    generations unchanged, so the waves share their bot processes."""
    return [
        replace(game, wave=game.deal * per_side + game.table % per_side) for game in games
    ]


def _ordered(config: TournamentConfig, games: Sequence[ScheduledGame]) -> tuple[ScheduledGame, ...]:
    """Wave by wave, generation by generation, each a seeded shuffle spread evenly (see
    :func:`spread`)."""
    rng = random.Random(derive_seed(config.seed, "order"))
    by_generation: dict[tuple[int, int], list[ScheduledGame]] = {}
    for game in games:
        by_generation.setdefault((game.wave, game.generation), []).append(game)
    ordered: list[ScheduledGame] = []
    for generation in sorted(by_generation):
        block = by_generation[generation]
        rng.shuffle(block)
        ordered += spread(block)
    return tuple(ordered)


def spread(games: Sequence[ScheduledGame], window: int = SPREAD_WINDOW) -> list[ScheduledGame]:
    """``games`` reordered so that each bot's games spread evenly: each next game is, of the next
    ``window`` games left in the given order, the first one whose bots have played fewest games so
    far (the most of any of its bots, then their sum)."""
    if not games:
        return []
    index: dict[str, int] = {}
    seats = np.array(
        [[index.setdefault(bot, len(index)) for bot in game.bots] for game in games], dtype=np.intp
    )
    played = np.zeros(len(index), dtype=np.int64)
    weight = seats.shape[1] * len(games) + 1  # more than any sum: the most played comes first
    left = list(range(len(games)))
    ordered: list[ScheduledGame] = []
    while left:
        counts = played[seats[left[:window]]]
        best = int(np.argmin(counts.max(axis=1) * weight + counts.sum(axis=1)))
        chosen = left.pop(best)
        played[seats[chosen]] += 1
        ordered.append(games[chosen])
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
