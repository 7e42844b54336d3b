"""Schedule properties: every table, balanced seats, duplicate deals, stable ids, integrity."""

from __future__ import annotations

import itertools
from collections import Counter
from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from arena.tournament.config import BotEntry, Format, TournamentConfig
from arena.tournament.schedule import build_schedule, repeated_deals
from arena.clock import TimeControl


def make_config(
    bots: int, table_size: int, deals: int, seed: int = 1, trusted: bool = False, **extra: object
) -> TournamentConfig:
    config = TournamentConfig(
        name="t",
        game="wongar",
        variant=None,
        knobs={},
        table_size=table_size,
        format=Format.ROUND_ROBIN,
        candidates=(),
        deals=deals,
        time_control=TimeControl(1.0, 0.5, 10.0),
        strikes=3,
        seed=seed,
        concurrency=0,
        trusted=trusted,
        bots=tuple(BotEntry(f"bot{i}", "random") for i in range(bots)),
    )
    return replace(config, **extra)  # type: ignore[arg-type]


fields = st.tuples(st.integers(3, 6), st.integers(1, 4), st.integers(1, 3), st.integers(0, 2**32))


@settings(max_examples=40, deadline=None)
@given(fields)
def test_round_robin_covers_every_table_with_balanced_seats(shape: tuple[int, int, int, int]) -> None:
    bots, k, deals, seed = shape
    k = min(k, bots)
    config = make_config(bots, k, deals, seed)
    schedule = build_schedule(config)
    names = [b.name for b in config.bots]
    assert set(schedule.tables) == set(itertools.combinations(names, k))
    assert len(schedule) == len(schedule.tables) * deals * k
    for t, table in enumerate(schedule.tables):
        for deal in range(deals):
            games = [g for g in schedule if g.table == t and g.deal == deal]
            assert len({g.seed for g in games}) == 1, "a deal is one seed"
            for seat in range(k):
                assert sorted(g.bots[seat] for g in games) == sorted(table)
    seats = Counter((bot, seat) for g in schedule for seat, bot in enumerate(g.bots))
    assert len(set(seats.values())) == 1, "every bot in every seat equally often"


@settings(max_examples=40, deadline=None)
@given(fields, st.booleans())
def test_no_bot_meets_a_deal_twice_within_a_generation(
    shape: tuple[int, int, int, int], trusted: bool
) -> None:
    bots, k, deals, seed = shape
    k = min(k, bots)
    schedule = build_schedule(make_config(bots, k, deals, seed, trusted=trusted))
    if trusted:
        assert schedule.generations == 1
        assert {g.generation for g in schedule} == {0}
        if k > 1:
            assert repeated_deals(schedule.games), "trusted play repeats deals in one generation"
    else:
        assert schedule.generations == k
        assert repeated_deals(schedule.games) == []
    generations = [g.generation for g in schedule]
    assert generations == sorted(generations), "generations are played in order"


def test_ids_are_unique_and_stable_and_depend_on_the_seed() -> None:
    first = build_schedule(make_config(5, 3, 2, seed=11))
    again = build_schedule(make_config(5, 3, 2, seed=11))
    other = build_schedule(make_config(5, 3, 2, seed=12))
    ids = [g.id for g in first]
    assert len(set(ids)) == len(ids)
    assert ids == [g.id for g in again]
    assert first.games == again.games
    assert not set(ids) & {g.id for g in other}
    assert {g.seed for g in first}.isdisjoint({g.seed for g in other})


def test_gauntlet_pairs_each_candidate_with_every_pool_table() -> None:
    config = make_config(5, 3, 1, format=Format.GAUNTLET, candidates=("bot4",))
    schedule = build_schedule(config)
    pool = ["bot0", "bot1", "bot2", "bot3"]
    assert [set(t) - {"bot4"} for t in schedule.tables] == [
        set(c) for c in itertools.combinations(pool, 2)
    ]
    assert all("bot4" in g.bots for g in schedule)
    assert repeated_deals(schedule.games) == []


@given(bots=st.integers(4, 9), table_size=st.integers(2, 4), deals=st.integers(1, 2),
       seed=st.integers(0, 2**32))
@settings(max_examples=40, deadline=None)
def test_every_bot_s_games_spread_evenly_over_each_generation(
    bots: int, table_size: int, deals: int, seed: int
) -> None:
    config = make_config(bots, table_size, deals, seed=seed)
    schedule = build_schedule(config)
    for generation in range(schedule.generations):
        games = [g for g in schedule if g.generation == generation]
        share = table_size / bots  # each bot's expected games per game played
        played: Counter[str] = Counter()
        for done, game in enumerate(games, start=1):
            played.update(game.bots)
            for bot in (b.name for b in config.bots):
                assert abs(played[bot] - done * share) <= table_size, (generation, done, played)


def test_the_first_games_of_a_large_field_seat_every_bot_alike() -> None:
    config = make_config(8, 4, 1, seed=2026)
    played: Counter[str] = Counter()
    for game in build_schedule(config).games[:20]:
        played.update(game.bots)
    assert len(played) == 8 and max(played.values()) - min(played.values()) <= 1, played
