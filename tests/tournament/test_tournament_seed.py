"""A tournament without a ``seed`` draws one at random, and keeps it when run again."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tournament_league import league_toml, run_arena

from arena.store.db import Store
from arena.tournament.config import load_config


def unseeded(tmp_path: Path) -> Path:
    text = "\n".join(line for line in league_toml("seedless", bots=3).splitlines()
                     if not line.startswith("seed ="))
    config = tmp_path / "league.toml"
    config.write_text(text + "\n")
    return config


def test_a_config_without_seed_draws_64_random_bits(tmp_path: Path) -> None:
    config = unseeded(tmp_path)
    drawn = [load_config(config) for _ in range(4)]
    assert all(c.seed_drawn for c in drawn)
    seeds = {c.seed for c in drawn}
    assert len(seeds) == 4 and all(0 <= s < 2**64 for s in seeds)
    assert max(seeds) >= 2**32  # all four below 2**32 has odds 2**-128
    assert not load_config(config, {"seed": 7}).seed_drawn


@pytest.mark.slow
def test_running_an_unseeded_tournament_again_keeps_its_stored_seed(tmp_path: Path) -> None:
    config = unseeded(tmp_path)
    first = run_arena("tournament", "run", str(config), "--db", "t.db", cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    with Store(tmp_path / "t.db") as store:
        [row] = store.tournaments()
        seed = row.config["seed"]
        count = len(store.stored_ids("league"))
    again = run_arena("tournament", "run", str(config), "--db", "t.db", cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    with Store(tmp_path / "t.db") as store:
        [row] = store.tournaments()
        assert row.config["seed"] == seed and len(store.stored_ids("league")) == count == 3
