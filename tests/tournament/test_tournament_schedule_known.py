"""Schedule known answers: ids, seeds, seats, generations, waves, late tables, swiss rounds and the
spread order, each checked against its documented rule."""

from __future__ import annotations

import hashlib
import itertools
import json
import random
from collections.abc import Sequence
from dataclasses import replace

from arena.clock import TimeControl
from arena.record import MatchRecord
from arena.store.db import Placement, StoredGame
from arena.tournament.config import BotEntry, Format, TournamentConfig
from arena.tournament.sampled import late_tables, sampled_tables
from arena.tournament.schedule import (
    SPREAD_WINDOW,
    Schedule,
    ScheduledGame,
    build_schedule,
    repeated_deals,
    spread,
    stored_results,
    tables_of,
)
from arena.tournament.swiss import Result, round_tables
from engine.core import derive_seed
from leaderboards.sprt import SprtSettings


def config(bots: int, k: int, fmt: Format = Format.ROUND_ROBIN, **extra: object) -> TournamentConfig:
    base = TournamentConfig(
        name="t", game="wongar", variant="v1", knobs={"zeta": 2, "alpha": True}, table_size=k,
        format=fmt, candidates=(), deals=2, time_control=TimeControl(1.0, 0.5, 10.0), strikes=3,
        seed=77, concurrency=0, trusted=False,
        bots=tuple(BotEntry(f"b{i}", "random") for i in range(bots)),
    )
    return replace(base, **extra)  # type: ignore[arg-type]


def game_id(cfg: TournamentConfig, label: str, deal: int, rotation: int) -> str:
    setup = json.dumps([cfg.game, cfg.variant, {"alpha": True, "zeta": 2}, cfg.seed])
    text = f"{setup}|{label}|{deal}|{rotation}".encode()
    return hashlib.blake2b(text, digest_size=6).hexdigest()


def check_games(cfg: TournamentConfig, schedule: Schedule, labels: Sequence[str]) -> None:
    """Every game of ``schedule`` has its documented id, seed, seats and generation."""
    k = cfg.table_size
    gens = 1 if cfg.trusted else k
    expected = {
        (t, deal, rotation)
        for t in range(len(labels)) for deal in range(cfg.deals) for rotation in range(k)
    }
    assert {(g.table, g.deal, g.rotation) for g in schedule} == expected
    assert len(schedule.games) == len(expected)
    for g in schedule:
        table, label = schedule.tables[g.table], labels[g.table]
        assert g.id == game_id(cfg, label, g.deal, g.rotation)
        assert g.seed == derive_seed(cfg.seed, "deal", label, g.deal)
        assert g.bots == tuple(table[(s + g.rotation) % k] for s in range(k))
        round_ = g.wave if cfg.rounds else 0  # only a swiss round has generations of its own
        assert g.generation == round_ * gens + (0 if cfg.trusted else g.rotation)


def test_round_robin_with_a_late_entry_has_its_tables_after_the_field() -> None:
    cfg = config(4, 2, late_entries=("b3",))
    assert tables_of(cfg) == (
        ("b0", "b1"), ("b0", "b2"), ("b1", "b2"), ("b0", "b3"), ("b1", "b3"), ("b2", "b3"),
    )
    schedule = build_schedule(cfg)
    assert schedule.generations == 2 and len(schedule) == 6 * 2 * 2
    check_games(cfg, schedule, ["/".join(t) for t in schedule.tables])
    assert {g.wave for g in schedule} == {0}


def test_two_late_entries_each_meet_the_field_before_them() -> None:
    cfg = config(5, 3, late_entries=("b3", "b4"))
    assert tables_of(cfg) == (
        ("b0", "b1", "b2"),
        ("b0", "b1", "b3"), ("b0", "b2", "b3"), ("b1", "b2", "b3"),
        ("b0", "b1", "b4"), ("b0", "b2", "b4"), ("b0", "b3", "b4"),
        ("b1", "b2", "b4"), ("b1", "b3", "b4"), ("b2", "b3", "b4"),
    )


def test_gauntlet_tables_are_each_candidate_with_every_pool_combination() -> None:
    cfg = config(5, 3, Format.GAUNTLET, candidates=("b1", "b3"))
    pool = ("b0", "b2", "b4")
    assert tables_of(cfg) == tuple(
        (c, *others) for c in ("b1", "b3") for others in itertools.combinations(pool, 2)
    )
    trusted = replace(cfg, trusted=True)
    schedule = build_schedule(trusted)
    assert schedule.generations == 1 and {g.generation for g in schedule} == {0}
    check_games(trusted, schedule, ["/".join(t) for t in schedule.tables])


def test_sampled_tables_and_late_tables_come_from_their_own_seeds() -> None:
    cfg = config(9, 3, Format.SAMPLED, tables_per_bot=3, late_entries=("b7", "b8"))
    field = [f"b{i}" for i in range(7)]
    tables = sampled_tables(field, 3, 3, derive_seed(77, "sampled"))
    tables += late_tables(field, tables, "b7", 3, 3, derive_seed(77, "late", "b7"))
    tables += late_tables([*field, "b7"], tables, "b8", 3, 3, derive_seed(77, "late", "b8"))
    assert tables_of(cfg) == tuple(tables)
    schedule = build_schedule(cfg)
    assert schedule.tables == tuple(tables)
    check_games(cfg, schedule, [f"{t}:{'/'.join(table)}" for t, table in enumerate(tables)])


def test_sprt_gauntlet_plays_a_block_per_wave_deal_by_deal() -> None:
    cfg = config(7, 2, Format.GAUNTLET, candidates=("b0",), deals=5, sprt=SprtSettings())
    schedule = build_schedule(cfg)
    tables = len(schedule.tables)
    assert tables == 6
    for g in schedule:
        assert g.wave == g.deal * tables + g.table
        assert g.generation == g.rotation
    assert sorted({g.wave for g in schedule}) == list(range(30))
    check_games(cfg, schedule, ["/".join(t) for t in schedule.tables])
    order = [(g.wave, g.generation) for g in schedule]
    assert order == sorted(order), "wave by wave, generation by generation"
    trusted = replace(cfg, trusted=True)
    assert {g.generation for g in build_schedule(trusted)} == {0}


def reference_order(cfg: TournamentConfig, games: Sequence[ScheduledGame]) -> list[ScheduledGame]:
    """The documented order: by generation, each a shuffle of one shared seeded stream, spread."""
    rng = random.Random(derive_seed(cfg.seed, "order"))
    ordered: list[ScheduledGame] = []
    for generation in sorted({g.generation for g in games}):
        block = [g for g in games if g.generation == generation]
        rng.shuffle(block)
        ordered += reference_spread(block, SPREAD_WINDOW)
    return ordered


def reference_spread(games: Sequence[ScheduledGame], window: int) -> list[ScheduledGame]:
    played: dict[str, int] = {}
    left = list(games)
    out: list[ScheduledGame] = []
    while left:
        def key(g: ScheduledGame) -> tuple[int, int]:
            counts = [played.get(b, 0) for b in g.bots]
            return max(counts), sum(counts)
        best = min(left[:window], key=key)
        left.remove(best)
        for b in best.bots:
            played[b] = played.get(b, 0) + 1
        out.append(best)
    return out


def test_order_is_a_seeded_shuffle_then_spread_per_generation() -> None:
    cfg = config(6, 3, deals=3)
    schedule = build_schedule(cfg)
    natural = sorted(schedule.games, key=lambda g: (g.table, g.deal, g.rotation))
    assert list(schedule.games) == reference_order(cfg, natural)


def game(n: int, *bots: str) -> ScheduledGame:
    return ScheduledGame(f"g{n}", 0, 0, 0, 0, 0, tuple(bots))


def test_spread_picks_the_least_played_then_the_smallest_sum() -> None:
    g = [game(0, "a", "b"), game(1, "a", "b"), game(2, "c", "d"), game(3, "a", "c")]
    assert [x.id for x in spread(g)] == ["g0", "g2", "g1", "g3"]
    h = [game(0, "a", "b"), game(1, "a", "b"), game(2, "a", "e")]
    assert [x.id for x in spread(h)] == ["g0", "g2", "g1"]
    assert spread([]) == []
    assert [x.id for x in spread(g, window=1)] == ["g0", "g1", "g2", "g3"]
    assert [x.id for x in spread(g, window=2)] == ["g0", "g2", "g1", "g3"]


def test_spread_matches_the_reference_on_a_long_random_list() -> None:
    rng = random.Random(3)
    bots = [f"p{i}" for i in range(9)]
    games = [game(n, *rng.sample(bots, 3)) for n in range(200)]
    for window in (1, 5, SPREAD_WINDOW, 300):
        assert spread(games, window) == reference_spread(games, window)
    assert spread(games) == reference_spread(games, 64)
    # One bot in many games: the most played of a table weighs more than any sum.
    heavy = [game(n, "x", f"y{n}") for n in range(30)] + [game(30 + n, "u", "v") for n in range(30)]
    assert spread(heavy) == reference_spread(heavy, 64)


def outcome(g: ScheduledGame) -> Result:
    order = sorted(g.bots, key=lambda b: int(b[1:]))
    return Result(g.bots, tuple(order.index(b) + 1 for b in g.bots))


def test_swiss_rounds_form_with_their_byes_and_plan_every_game() -> None:
    cfg = config(7, 3, Format.SWISS, rounds=3, deals=1)
    names = [f"b{i}" for i in range(7)]
    first = build_schedule(cfg)
    assert len(first) == 3 * 2 * 1 * 3 and first.rounds == 3 and first.formed == 1
    assert first.tables == tables_of(cfg) and first.generations == 3
    assert tables_of(cfg) == tuple(round_tables(names, 3, (), {}, derive_seed(77, "swiss", 0))[0])
    check_games(cfg, first, [f"r0:{'/'.join(t)}" for t in first.tables])
    assert first.rounds_played(set()) == 0
    results = {g.id: outcome(g) for g in first}
    assert first.rounds_played(set(results)) == 1
    done = build_schedule(cfg, results)
    assert done.formed == 2 and len(done.games) == 12
    assert done.rounds_played(set(results)) == 1
    assert {g.wave for g in done} == {0, 1}
    byes: dict[str, int] = {}
    seated0, bye0 = round_tables(names, 3, [], byes, derive_seed(77, "swiss", 0))
    for b in bye0:
        byes[b] = 1
    seated1, _ = round_tables(names, 3, list(results.values()), byes, derive_seed(77, "swiss", 1))
    assert done.tables == tuple(seated0) + tuple(seated1)
    labels = [f"r{0 if t < 2 else 1}:{'/'.join(table)}" for t, table in enumerate(done.tables)]
    check_games(cfg, done, labels)
    results.update({g.id: outcome(g) for g in done if g.wave == 1})
    third = build_schedule(cfg, results)
    assert third.formed == 3 and len(third.games) == 18 == len(third)
    assert third.rounds_played(set(results)) == 2
    assert third.rounds_played({g.id for g in third}) == 3
    assert build_schedule(replace(cfg, rounds=0)).formed == 0


def test_swiss_byes_go_to_the_bots_with_fewest_so_far() -> None:
    cfg = config(5, 3, Format.SWISS, rounds=5, deals=1)
    names = {f"b{i}" for i in range(5)}
    results: dict[str, Result] = {}
    for _ in range(5):
        schedule = build_schedule(cfg, results)
        results.update({g.id: outcome(g) for g in schedule})
    assert schedule.formed == 5
    byes = dict.fromkeys(names, 0)
    for number in range(5):
        seated = {b for g in schedule if g.wave == number for b in g.bots}
        for bot in names - seated:
            byes[bot] += 1
        assert max(byes.values()) - min(byes.values()) <= 1, f"round {number}: {byes}"
    assert sorted(byes.values()) == [2, 2, 2, 2, 2]


def test_a_swiss_round_waits_for_every_game_before_it() -> None:
    cfg = config(6, 3, Format.SWISS, rounds=2, deals=1)
    first = build_schedule(cfg)
    partial = {g.id: outcome(g) for g in first.games[:-1]}
    assert build_schedule(cfg, partial).formed == 1
    assert len(build_schedule(cfg, partial).games) == len(first.games)


def test_len_is_the_plan_when_one_is_given() -> None:
    assert len(Schedule((), (game(0, "a"),), 1)) == 1
    assert len(Schedule((), (game(0, "a"),), 1, planned=0)) == 0
    assert len(Schedule((), (), 1, planned=5)) == 5
    schedule = build_schedule(config(3, 2))
    assert schedule.by_id() == {g.id: g for g in schedule.games} and len(schedule.by_id()) == 12


def test_repeated_deals_lists_every_second_meeting_in_a_generation() -> None:
    cfg = config(2, 2, deals=1, trusted=True)
    schedule = build_schedule(cfg)
    seed = schedule.games[0].seed
    assert sorted(repeated_deals(schedule.games)) == [(0, "b0", seed), (0, "b1", seed)]
    assert repeated_deals(build_schedule(replace(cfg, trusted=False)).games) == []


def test_stored_results_keep_seats_and_ranks_by_game_id() -> None:
    record = MatchRecord("wongar", 1, "v1", {}, 5, ("b1", "b0"), (), (), (3, 7), (2, 1))
    stored = StoredGame("t", Placement("abc", 0, 0, 0, 1), 0.0, record, ("", ""))
    assert stored_results([stored]) == {"abc": Result(("b1", "b0"), (2, 1))}
