"""The sampled format: tables per bot, seats and pairs balanced, deterministic from the config."""

from __future__ import annotations

import itertools
import math
import re
from collections import Counter
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from arena.cli.app import app
from arena.tournament import TournamentError
from arena.tournament.config import TournamentConfig, parse_config
import numpy as np

from arena.tournament.sampled import balance, even_possible, sampled_tables
from arena.tournament.schedule import build_schedule, repeated_deals


def sampled(bots: int, table_size: int, tables_per_bot: int, seed: int = 7, **extra: object
            ) -> TournamentConfig:
    raw: dict[str, object] = {
        "name": "s", "game": "wongar", "table_size": table_size, "format": "sampled",
        "tables_per_bot": tables_per_bot, "time_control": "1s", "seed": seed,
        "bots": [{"name": f"b{i:03d}", "bot": "random"} for i in range(bots)], **extra,
    }
    return parse_config(raw, source="test", base=Path.cwd())


def pair_counts(tables: list[tuple[str, ...]], names: list[str]) -> list[int]:
    shared = Counter(pair for t in tables for pair in itertools.combinations(sorted(t), 2))
    return [shared[pair] for pair in itertools.combinations(sorted(names), 2)]


@pytest.mark.parametrize(
    ("bots", "size", "per_bot"), [(20, 4, 10), (10, 3, 7), (9, 3, 4), (12, 4, 9), (13, 4, 5), (7, 3, 3)]
)
def test_every_bot_plays_its_tables_and_pairs_differ_by_at_most_one(
    bots: int, size: int, per_bot: int
) -> None:
    names = [f"b{i}" for i in range(bots)]
    tables = sampled_tables(names, size, per_bot, seed=3)
    played = Counter(b for t in tables for b in t)
    extra = (bots * per_bot) % size and size - (bots * per_bot) % size
    assert sorted(played.values()) == [per_bot] * (bots - extra) + [per_bot + 1] * extra
    assert all(len(set(t)) == size for t in tables)
    counts = pair_counts(tables, names)
    assert max(counts) - min(counts) <= 1
    figures = balance(tables, names)
    assert figures.pair_count == (min(counts), max(counts))
    assert figures.tables_per_bot == (min(played.values()), max(played.values()))
    assert math.isclose(figures.pair_mean, sum(counts) / len(counts))


@pytest.mark.parametrize(("bots", "per_bot", "seed"), [(10, 6, 3), (16, 40, 5), (64, 40, 2)])
def test_dense_fields_reach_a_pair_spread_of_at_most_one(bots: int, per_bot: int, seed: int) -> None:
    # 10 x 6 and 16 x 40 at 4 a table have whole means (2 and 8): spread 1 means every pair equal,
    # a balanced design (16 x 40: e.g. the 20 lines of the affine plane over GF(4), 8 times each).
    names = [f"b{i}" for i in range(bots)]
    tables = sampled_tables(names, 4, per_bot, seed=seed)
    assert sorted(Counter(b for t in tables for b in t).values()) == [per_bot] * bots
    assert all(len(set(t)) == 4 for t in tables)
    counts = pair_counts(tables, names)
    assert max(counts) - min(counts) <= 1
    assert balance(tables, names).even_possible


def test_the_search_after_the_deal_is_seeded_too() -> None:
    names = [f"b{i}" for i in range(10)]  # 10 x 6 at 4 a table: the deal alone ends at spread 2
    first = sampled_tables(names, 4, 6, seed=3)
    assert sampled_tables(names, 4, 6, seed=3) == first
    assert sampled_tables(names, 4, 6, seed=4) != first


def test_even_possible_counts_each_bots_table_mates() -> None:
    # 6 bots in 2 tables of 4: the 2 bots at both have 6 table-mates among 5 bots.
    assert not even_possible(np.array([2, 2, 1, 1, 1, 1]), 4)
    # 6 bots, 5 tables of 4: mean pair count 2 exactly, yet bots at 4 tables have 12 mates, not 10.
    assert not even_possible(np.array([4, 4, 3, 3, 3, 3]), 4)
    assert even_possible(np.array([6] * 10), 4)  # 15 tables: the 2-(10,4,2) design
    assert even_possible(np.array([3] * 7), 3)  # the Fano plane


def test_a_large_field_never_repeats_a_pair_when_it_need_not() -> None:
    names = [f"b{i:03d}" for i in range(200)]
    tables = sampled_tables(names, 4, 40, seed=11)
    assert len(tables) == 2000
    assert set(Counter(b for t in tables for b in t).values()) == {40}
    assert max(pair_counts(tables, names)) == 1  # 120 opponents each among 199: all distinct


def test_every_bot_sits_in_every_seat_equally_often() -> None:
    config = sampled(13, 4, 6, deals=2)
    seats: Counter[tuple[str, int]] = Counter()
    for game in build_schedule(config):
        seats.update((bot, seat) for seat, bot in enumerate(game.bots))
    tables = Counter(b for t in build_schedule(config).tables for b in t)
    for bot, count in tables.items():
        assert {seats[bot, seat] for seat in range(4)} == {count * 2}
    assert repeated_deals(build_schedule(config).games) == []


def test_the_schedule_is_a_pure_function_of_the_config() -> None:
    first = build_schedule(sampled(16, 4, 5))
    again = build_schedule(sampled(16, 4, 5))
    other = build_schedule(sampled(16, 4, 5, seed=8))
    assert [g.id for g in first] == [g.id for g in again]
    assert first.tables == again.tables
    assert first.tables != other.tables
    assert len({g.id for g in first}) == len(first) == 16 * 5 // 4 * 4
    assert len({g.seed for g in first}) == len(first.tables)  # repeated tables get their own deals


def test_sampled_config_needs_tables_per_bot_and_only_it_has_one() -> None:
    with pytest.raises(TournamentError, match="tables_per_bot: missing"):
        parse_config({"name": "s", "game": "wongar", "table_size": 3, "format": "sampled",
                      "time_control": "1s",
                      "bots": [{"name": f"b{i}", "bot": "random"} for i in range(4)]},
                     source="test", base=Path.cwd())
    with pytest.raises(TournamentError, match="only the sampled format has tables_per_bot"):
        parse_config({"name": "s", "game": "wongar", "table_size": 3, "tables_per_bot": 2,
                      "time_control": "1s",
                      "bots": [{"name": f"b{i}", "bot": "random"} for i in range(4)]},
                     source="test", base=Path.cwd())


def plan_sampled(folder: Path, bots: int, tables_per_bot: int) -> Result:
    """``arena tournament plan`` of a sampled Wongar field of ``bots`` random bots, 4 a table."""
    lines = ['name = "s"', 'game = "wongar"', "table_size = 4", 'format = "sampled"',
             f"tables_per_bot = {tables_per_bot}", 'time_control = "1s"', "seed = 1"]
    for i in range(bots):
        lines += ["[[bots]]", f'name = "b{i:03d}"', 'bot = "random"']
    path = folder / "s.toml"
    path.write_text("\n".join(lines) + "\n")
    return CliRunner().invoke(app, ["tournament", "plan", str(path)])


def test_plan_prints_the_balance(tmp_path: Path) -> None:
    result = plan_sampled(tmp_path, bots=13, tables_per_bot=5)
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    assert "tables 17, deals per table 1, games 68" in text  # 65 seats: 3 bots play a sixth
    assert "balance: 13 bots at 5 to 6 tables each, every bot in every seat 5 to 6 times" in text
    figures = balance(build_schedule(sampled(13, 4, 5, seed=1)).tables,
                      [f"b{i:03d}" for i in range(13)])
    low, high = figures.pair_count
    assert f"shares {low} to {high} tables (mean {figures.pair_mean:.2f}, spread {high - low})" in text
    assert high - low <= 1


def test_plan_says_when_a_spread_of_one_is_impossible(tmp_path: Path) -> None:
    result = plan_sampled(tmp_path, bots=6, tables_per_bot=3)
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    assert "balance: 6 bots at 3 to 4 tables each" in text
    assert re.search(r"spread [2-9]; a spread of 1 is impossible with these numbers\)", text), text
