"""The engine contract's own building blocks."""

from __future__ import annotations

import pytest

from engine.core import ActionTable, ConfigError, Knob, choice_knob, derive_seed, ranks_from_keys, seeded_rng
from engine.registry import games, get_game


def test_action_table_ids_are_positions_and_forms_are_unique() -> None:
    table = ActionTable([(("take", "Emu"), "take Emu"), (("pass",), "pass")])
    assert [s.id for s in table] == [0, 1]
    assert table.id_of("pass") == 1
    assert table.label(0) == "take Emu"
    assert table.label(7) == "<unknown action 7>"
    assert table.to_wire() == [[0, ["take", "Emu"], "take Emu"], [1, ["pass"], "pass"]]
    with pytest.raises(ValueError, match="duplicate"):
        ActionTable([(("pass",), "a"), (("pass",), "b")])


def test_ranks_share_ties_and_skip_the_next_place() -> None:
    assert ranks_from_keys([(10,), (12,), (10,), (3,)]) == (2, 1, 2, 4)
    assert ranks_from_keys([(5, 2), (5, 1), (5, 2)]) == (1, 3, 1)


def test_derived_seeds_are_stable_and_independent() -> None:
    assert derive_seed(7, "ritual") == derive_seed(7, "ritual")
    assert derive_seed(7, "ritual") != derive_seed(7, "stack", 0)
    assert derive_seed(7, "stack", 0) != derive_seed(8, "stack", 0)
    assert seeded_rng(7, "x").random() == seeded_rng(7, "x").random()


def test_knobs_name_what_is_allowed() -> None:
    rule = choice_knob("keep_rule", "a", ["a", "b"], "which rule")
    assert rule.check(" b ") == "b"
    with pytest.raises(ConfigError, match=r"knob 'keep_rule' must be one of 'a', 'b'"):
        rule.check("c")
    with pytest.raises(ConfigError, match="knob 'keep_rule': expected a string"):
        rule.check(3)

    def positive(raw: object) -> int:
        value = int(str(raw))
        if value <= 0:
            raise ValueError("must be positive")
        return value

    count = Knob("count", 1, "a count", parse=positive)
    assert count.check("4") == 4
    with pytest.raises(ConfigError, match="knob 'count': must be positive"):
        count.check(0)


def test_registry_finds_games_by_name_or_key() -> None:
    for key, game in games().items():
        assert get_game(key) is game
        assert get_game(game.name).name == game.name
    with pytest.raises(ConfigError, match="unknown game 'chess'; known games: "):
        get_game("chess")
