"""Compare the league's matchmaker with uniformly random tables and with the sampled format's
tables, on a simulated league with known strengths.

The league: 60 bots, 40 at the start and 20 arriving over time; 10 of them later submit a second
version (better by N(+50, 80) Elo), which replaces the first. True strengths are normal (sd 0.8 θ,
about 140 Elo), the best six of the final field at least ``--top-gap`` Elo apart (else no number
of games separates them). Every table is a duplicate block: one deal in every rotation, places drawn
by Plackett-Luce (Gumbel noise) with seat advantages (+30 to −30 Elo across the seats) and per-deal
seat luck (sd 100 Elo) that the rotations cancel.

Every way of choosing tables plays the same league (the same strengths, arrivals and versions) and
is rated by the same fit: the leaderboard's Plackett-Luce model with seat terms and its default
prior, warm-started, with Laplace intervals (:mod:`arena.league.ratings`). The fit is redone after
every table that seated an entrant with fewer than 32 games, else every ``max(5, tables/50)``
tables; the criteria are checked at every fit:

(a) the true top five of the active field are the fitted top five, in order, with disjoint 95%
    intervals between neighbours: the league's games at the first fit from which that holds, after
    the field's last change, for ``--hold`` (a quarter) as many games again; a run stops there, or
    at ``--tables``;
(b) a new entrant's (a second version's, or a late arrival's) rating error at the last fit when it
    had played at most 30 games, and its own games at the first fit from which its rating is
    within 50 Elo of the truth at every later fit of the run.

Ways of choosing:

* matchmaker: :func:`arena.league.matchmaking.next_tables`, a batch up to the next fit (cut short
  at a table that asks for a fit);
* random: ``table_size`` active entrants drawn uniformly for each table;
* sampled: :func:`arena.tournament.sampled.sampled_tables` over the active field, two tables per
  bot at a time, drawn again whenever the field changes or the tables run out.

Printed: per seed, games until (a) for each way (``> N``: not within the run's N games) and the
CPU seconds of each; then per way the median over seeds of (a) and its ratio to the matchmaker's,
and over every new entrant of every seed for (b): the median error by 30 games, the share within
50 Elo then, the median own games until within 50 Elo for good, and the median league tables from
its arrival until it had played 30 games; last, the longest an active entrant went without a table.

Usage: python benchmarks/matchmaking.py [--seeds 5] [--jobs 1] [--table-size 4] [--tables 10000]
       [--hold 0.25] [--top-gap 50]
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field, replace

import numpy as np
from threadpoolctl import threadpool_limits

from arena.league.matchmaking import (
    Entrant,
    EntrantKey,
    League,
    Ratings,
    next_tables,
)
from arena.league.ratings import laplace_ratings
from arena.tournament.sampled import sampled_tables
from leaderboards.model import RatingSettings
from leaderboards.plackett_luce import Finish, PlackettLuceFit, PlackettLuceModel
from leaderboards.scale import ELO_PER_THETA

BOTS, LATE, SECOND_VERSIONS, TOP = 60, 20, 10, 5
SEAT_SPREAD_ELO, LUCK_ELO = 30.0, 100.0
PLACED_WITHIN_ELO, PLACEMENT_GAMES, Z95 = 50.0, 30, 1.959964
FIT_WHILE_GAMES = 32  # a table seating an entrant with fewer games is followed by a fit
PRIOR_SD = RatingSettings().prior_sd / ELO_PER_THETA


@dataclass(frozen=True, slots=True)
class Scenario:
    """A league's script: true strengths (θ) per entrant and when the field changes (table count
    → entrants arriving, entrants retiring)."""

    table_size: int
    truth: dict[EntrantKey, float]
    start: tuple[EntrantKey, ...]
    changes: dict[int, tuple[tuple[EntrantKey, ...], tuple[EntrantKey, ...]]]
    new: frozenset[EntrantKey]
    """Late arrivals and second versions: the entrants (b) is measured on."""


def scenario(seed: int, table_size: int, top_gap: float) -> Scenario:
    rng = np.random.default_rng(seed)
    bots = [f"b{i:02d}" for i in range(BOTS)]
    base = rng.normal(0.0, 0.8, BOTS)
    improved = rng.choice(BOTS, SECOND_VERSIONS, replace=False)
    gain = rng.normal(50.0, 80.0, SECOND_VERSIONS) / ELO_PER_THETA
    final = base.copy()
    final[improved] += gain
    # The final field's best six at least top_gap apart: each pushed up above the one below.
    order = np.argsort(-final)
    for above, below in zip(order[TOP - 1 :: -1], order[TOP:0:-1], strict=True):
        final[above] = max(final[above], final[below] + top_gap / ELO_PER_THETA)
    truth = {(b, 1): float(final[i]) for i, b in enumerate(bots)}
    for j, i in enumerate(improved):
        truth[(bots[i], 2)] = float(final[i])
        truth[(bots[i], 1)] = float(final[i] - gain[j])
    late = rng.choice(BOTS, LATE, replace=False)
    arrivals = np.sort(rng.integers(1, 40, LATE)) * 10  # tables 10 to 390
    changes: dict[int, tuple[list[EntrantKey], list[EntrantKey]]] = {}
    for i, at in zip(late, arrivals, strict=True):
        changes.setdefault(int(at), ([], []))[0].append((bots[i], 1))
    arrived = {int(i): int(at) for i, at in zip(late, arrivals, strict=True)}
    for i in improved:
        at = 10 * int(rng.integers(arrived.get(int(i), 0) // 10 + 5, 60))  # up to table 590
        changes.setdefault(at, ([], []))[0].append((bots[i], 2))
        changes[at][1].append((bots[i], 1))
    return Scenario(
        table_size,
        truth,
        tuple((b, 1) for i, b in enumerate(bots) if i not in arrived),
        {at: (tuple(a), tuple(r)) for at, (a, r) in changes.items()},
        frozenset([(bots[i], 1) for i in late] + [(bots[i], 2) for i in improved]),
    )


@dataclass
class Run:
    """One league played by one way of choosing tables."""

    plan: Scenario
    rng: np.random.Generator
    entrants: dict[EntrantKey, Entrant] = field(default_factory=dict)
    items: dict[EntrantKey, int] = field(default_factory=dict)
    finishes: list[Finish] = field(default_factory=list)
    tables: list[tuple[EntrantKey, ...]] = field(default_factory=list)
    ratings: Ratings = field(default_factory=Ratings.none)
    fit: tuple[PlackettLuceModel, PlackettLuceFit] | None = None
    top_ok_since: int | None = None
    """League games at the first fit of the current unbroken run of fits meeting (a)."""
    placed_since: dict[EntrantKey, int | None] = field(default_factory=dict)
    """Per new entrant, its own games at the first fit of its current run within 50 Elo."""
    error_upto: dict[EntrantKey, float] = field(default_factory=dict)
    """Per new entrant, its rating's error (Elo) at the latest fit when it had at most 30 games."""
    error_at: dict[EntrantKey, float] = field(default_factory=dict)
    """That error, once the entrant has played more (so it is the error after its 30 games)."""
    waited_for_placement: dict[EntrantKey, int] = field(default_factory=dict)
    """Per new entrant, the league's tables from its arrival until it had played over 30 games."""
    last: dict[EntrantKey, int] = field(default_factory=dict)
    """Per entrant, the table count after its latest table (or at its arrival)."""
    longest_wait: int = 0
    """The most tables an active entrant went without playing."""

    def __post_init__(self) -> None:
        for key in self.plan.start:
            self.entrants[key] = Entrant(key[0], key[1], True, 0, 0)
            self.last[key] = 0

    def change_field(self) -> bool:
        """Apply the arrivals and retirements due now; whether there were any."""
        arriving, retiring = self.plan.changes.get(len(self.tables), ((), ()))
        for key in retiring:
            self.entrants[key] = replace(self.entrants[key], active=False)
        for key in arriving:
            self.entrants[key] = Entrant(key[0], key[1], True, len(self.tables), 0)
            self.last[key] = len(self.tables)
        return bool(arriving or retiring)

    def league(self) -> League:
        return League(tuple(self.entrants.values()), self.ratings, self.plan.table_size,
                      len(self.tables), tuple(self.tables[-200:]))

    def active(self) -> list[EntrantKey]:
        return [key for key, e in self.entrants.items() if e.active]

    def play(self, table: tuple[EntrantKey, ...]) -> bool:
        """Play one deal at ``table`` in every rotation; whether a fit is due after it."""
        k = self.plan.table_size
        seat = (np.linspace(SEAT_SPREAD_ELO, -SEAT_SPREAD_ELO, k)
                + self.rng.normal(0.0, LUCK_ELO, k)) / ELO_PER_THETA
        for key in table:
            self.items.setdefault(key, len(self.items))
        strengths = np.array([self.plan.truth[key] for key in table])
        for rotation in range(k):
            order = [(s + rotation) % k for s in range(k)]
            noisy = strengths[order] + seat + self.rng.gumbel(size=k)
            ranks = tuple(int(r) + 1 for r in np.argsort(np.argsort(-noisy)))
            self.finishes.append(Finish(tuple(self.items[table[s]] for s in order), ranks, 0))
        due = any(self.entrants[key].tables * k < FIT_WHILE_GAMES for key in table)
        for key in table:
            self.entrants[key] = replace(self.entrants[key], tables=self.entrants[key].tables + 1)
        self.tables.append(table)
        for key in table:
            self.last[key] = len(self.tables)
        waits = [len(self.tables) - self.last[key] for key in self.active()]
        self.longest_wait = max(self.longest_wait, *waits)
        return due

    def refit(self) -> None:
        model = PlackettLuceModel(len(self.items), self.finishes, [self.plan.table_size])
        start = None
        if self.fit is not None:
            old = self.fit[0].raw_params(self.fit[1])
            grown = len(self.items) - self.fit[0].n_items
            start = np.concatenate([old[: self.fit[0].n_items], np.zeros(grown),
                                    old[self.fit[0].n_items :]])
        fit = model.fit(prior_sd=PRIOR_SD, start=start)
        self.fit = (model, fit)
        keys = sorted(self.items, key=self.items.__getitem__)
        self.ratings = laplace_ratings(model, fit, PRIOR_SD, keys)
        self.check()

    def check(self) -> None:
        """Move the (a) and (b) clocks on for the fit just made."""
        held = {key: i for i, key in enumerate(self.ratings.keys)}
        elo = self.ratings.elo
        errors = np.sqrt(np.diag(self.ratings.covariance))
        games = len(self.finishes)
        active = [key for key in self.active() if key in held]
        fitted = sorted(active, key=lambda key: -elo[held[key]])[:TOP]
        true = sorted(self.active(), key=lambda key: -self.plan.truth[key])[:TOP]
        ok = fitted == true and all(
            elo[held[a]] - Z95 * errors[held[a]] > elo[held[b]] + Z95 * errors[held[b]]
            for a, b in zip(fitted, fitted[1:])
        )
        if not ok:
            self.top_ok_since = None
        elif self.top_ok_since is None:
            self.top_ok_since = games
        truth = np.array([self.plan.truth[key] for key in self.ratings.keys]) * ELO_PER_THETA
        truth -= truth.mean()
        centred = elo - elo.mean()
        for key in self.plan.new & held.keys():
            within = abs(centred[held[key]] - truth[held[key]]) <= PLACED_WITHIN_ELO
            own = self.entrants[key].tables * self.plan.table_size
            error = abs(centred[held[key]] - truth[held[key]])
            if own <= PLACEMENT_GAMES:
                self.error_upto[key] = error
            elif key in self.error_upto and key not in self.error_at:
                self.error_at[key] = self.error_upto[key]
                self.waited_for_placement[key] = len(self.tables) - self.entrants[key].arrived
            if not within:
                self.placed_since[key] = None
            elif self.placed_since.get(key) is None:
                self.placed_since[key] = own


Chooser = Callable[[Run, int], list[tuple[EntrantKey, ...]]]
"""Up to ``count`` next tables of a run (the run plays them in order until a fit is due)."""


def matchmaker(seed: int) -> Chooser:
    rng = random.Random(seed)
    return lambda run, count: [t.seats for t in next_tables(run.league(), count, rng)]


def uniform(seed: int) -> Chooser:
    rng = random.Random(seed)

    def choose(run: Run, count: int) -> list[tuple[EntrantKey, ...]]:
        active = run.active()
        return [tuple(rng.sample(active, run.plan.table_size)) for _ in range(count)]

    return choose


class Sampled:
    """The sampled format's tables over the active field, two per bot, drawn again when the field
    changes or they run out; the run plays a prefix of what each call returns."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.queue: list[tuple[EntrantKey, ...]] = []
        self.field: list[EntrantKey] = []
        self.played = 0
        self.draws = 0

    def __call__(self, run: Run, count: int) -> list[tuple[EntrantKey, ...]]:
        del self.queue[: len(run.tables) - self.played]  # played since the last call, in order
        self.played = len(run.tables)
        active = run.active()
        if active != self.field or not self.queue:
            self.field = active
            self.draws += 1
            names = [f"{bot}@{version}" for bot, version in active]
            by_name = dict(zip(names, active, strict=True))
            drawn = sampled_tables(names, run.plan.table_size, 2, self.seed * 1000 + self.draws)
            self.queue = [tuple(by_name[name] for name in table) for table in drawn]
        return self.queue[:count]


def play(plan: Scenario, chooser: Chooser, seed: int, budget: int, hold: float) -> Run:
    """Play until (a) has held, after the field's last change, for ``hold`` times more games than
    it took (it may still break within that stretch, and the clock starts again), or ``budget``
    tables; fitting as the module text says."""
    run = Run(plan, np.random.default_rng(seed))
    settled = max(plan.changes) + 1
    fitted_at = 0
    while len(run.tables) < budget:
        interval = max(5, len(run.tables) // 50)
        for table in chooser(run, min(interval, budget - len(run.tables))):
            due = run.play(table)
            changed = run.change_field()
            if due or changed or len(run.tables) - fitted_at >= interval:
                break
        run.refit()
        fitted_at = len(run.tables)
        since = run.top_ok_since
        if (since is not None and len(run.tables) > settled
                and len(run.finishes) >= (1 + hold) * since):
            break
    return run


WAYS: dict[str, Callable[[int], Chooser]] = {
    "matchmaker": matchmaker, "random": uniform, "sampled": Sampled,
}


@dataclass(frozen=True, slots=True)
class Outcome:
    """What one way of choosing did on one league."""

    top_games: float
    """(a): league games until the top five were settled (inf: not within the budget)."""
    placed: list[float]
    """(b) per new entrant: own games until within 50 Elo for good (inf: not in the run)."""
    errors: list[float]
    """Per new entrant that played past 30 games: its rating's error (Elo) at the last fit when it
    had played at most 30."""
    placement_tables: list[float]
    """Per new entrant that played past 30 games: the league's tables from its arrival until then."""
    longest_wait: int
    tables: int
    seconds: float


def measure(seed: int, table_size: int, top_gap: float, budget: int, hold: float
            ) -> dict[str, Outcome]:
    plan = scenario(seed, table_size, top_gap)
    outcomes = {}
    for way, make in WAYS.items():
        started = time.process_time()
        with threadpool_limits(limits=1, user_api="blas"):
            run = play(plan, make(seed), seed, budget, hold)
        since = run.top_ok_since
        outcomes[way] = Outcome(
            float("inf") if since is None else float(since),
            [float("inf") if run.placed_since.get(key) is None else float(run.placed_since[key] or 0)
             for key in sorted(plan.new)],
            list(run.error_at.values()),
            [float(t) for t in run.waited_for_placement.values()],
            run.longest_wait,
            len(run.tables),
            time.process_time() - started,
        )
    return outcomes


def median(values: list[float]) -> float:
    return float(statistics.median(values)) if values else float("nan")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--table-size", type=int, default=4)
    parser.add_argument("--tables", type=int, default=10000,
                        help="Most tables a league plays.")
    parser.add_argument("--hold", type=float, default=0.25,
                        help="(a) must hold for this share more games to count.")
    parser.add_argument("--top-gap", type=float, default=50.0, help="Elo between the best six.")
    parser.add_argument("--jobs", type=int, default=1, help="Seeds played at once (processes).")
    args = parser.parse_args()
    k = args.table_size
    print(f"{BOTS} bots ({LATE} arriving, {SECOND_VERSIONS} second versions), tables of {k} "
          f"played as duplicate blocks ({k} games each), best six {args.top_gap:.0f} Elo apart")
    print(f"{'seed':>4} " + " ".join(f"{way + ' (a) games':>22}" for way in WAYS)
          + "   CPU seconds per way")
    results: list[dict[str, Outcome]] = []
    with ProcessPoolExecutor(args.jobs) as pool:
        futures = [pool.submit(measure, seed, k, args.top_gap, args.tables, args.hold)
                   for seed in range(args.seeds)]
        for seed, future in enumerate(futures):
            outcome = future.result()
            results.append(outcome)
            print(f"{seed:>4} " + " ".join(
                f"{'> ' + str(o.tables * k) if math.isinf(o.top_games) else int(o.top_games):>22}"
                for o in outcome.values())
                + "   " + " ".join(f"{o.seconds:.0f}" for o in outcome.values()), flush=True)
    print(f"\n{'way':<11} {'(a) median games':>17} {'x matchmaker':>13} "
          f"{'(b) error by 30 games':>22} {'within 50':>10} {'own games to stay within':>25} "
          f"{'tables to 30 games':>19} {'longest wait':>13}")
    base = median([r["matchmaker"].top_games for r in results])
    for way in WAYS:
        top = median([r[way].top_games for r in results])
        errors = [e for r in results for e in r[way].errors]
        placed = [g for r in results for g in r[way].placed]
        within = sum(e <= PLACED_WITHIN_ELO for e in errors) / max(1, len(errors))
        print(f"{way:<11} {top:>17.0f} {top / base:>13.2f} {median(errors):>22.1f} "
              f"{100 * within:>9.0f}% {median(placed):>25.0f} "
              f"{median([t for r in results for t in r[way].placement_tables]):>19.0f} "
              f"{max(r[way].longest_wait for r in results):>13}")


if __name__ == "__main__":
    main()
