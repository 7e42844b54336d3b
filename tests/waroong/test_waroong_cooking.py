"""Cooking: several dishes a turn with the row refilled, supplements, keeping, phase end, scoring."""

from __future__ import annotations

from waroong_helpers import act, event_types, held, legal, row_seen, staged

from engine.waroong.phases import DRAFT, KEEP_STEP, OVER


def test_several_dishes_in_one_turn_with_the_row_refilled_between() -> None:
    st = staged(
        picks=[["beras", "daging", "sayur", "sayur", "tahu"], [], []],
        row=["Bebek Goreng", "Tahu Campur"],
        menu_deck=["Semanggi", "Tahu Tek"],
        customer_top=["celebrity", "vip"],
    )
    assert st.to_move() == (0,)
    assert legal(st, 0) == [("cook", 0), ("end-turn",)]
    act(st, 0, "cook", 0)
    assert legal(st, 0) == [("serve",)]
    act(st, 0, "serve")
    assert row_seen(st, 0) == ["Semanggi", "Tahu Campur"]
    assert legal(st, 0) == [("cook", 0), ("end-turn",)]
    act(st, 0, "cook", 0)
    act(st, 0, "serve")
    view = st.observation(0)
    assert row_seen(st, 1) == ["Tahu Tek", "Tahu Campur"]
    assert view["cooked"] == [[["Bebek Goreng", 0, 0], ["Semanggi", 0, 0]], [], []]
    assert held(st, 0, "picks") == {"tahu": 1}
    assert held(st, 0, "customers") == {"celebrity": 1, "vip": 1}
    assert view["grocery_discards"] == {
        "beras": 1, "daging": 1, "sayur": 2, "tahu": 0, "petis": 0, "sambal": 0, "kerupuk": 0
    }  # fmt: skip
    assert st.observation(1)["customer_counts"] == [2, 0, 0]
    assert st.observation(1)["menu_points"] == [4, 0, 0]


def test_the_row_shrinks_when_the_menu_deck_is_empty() -> None:
    st = staged(
        picks=[["beras", "daging"], [], []],
        row=["Semanggi", "Bebek Goreng", "Tahu Tek"],
        menu_deck=[],
    )
    act(st, 0, "cook", 1)
    act(st, 0, "serve")
    assert [st.rules.dishes[d].name for d in st.row] == ["Semanggi", "Tahu Tek"]


def test_supplements_at_most_one_of_each_kind_per_dish() -> None:
    st = staged(
        variant="street-vendor",
        picks=[["beras", "daging", "sambal", "sambal", "kerupuk"], [], []],
        row=["Bebek Goreng"],
        menu_deck=["Semanggi"],
    )
    act(st, 0, "cook", 0)
    assert legal(st, 0) == [("add", "sambal"), ("add", "kerupuk"), ("serve",)]
    act(st, 0, "add", "sambal")
    assert legal(st, 0) == [("add", "kerupuk"), ("serve",)]
    act(st, 0, "add", "kerupuk")
    assert legal(st, 0) == [("serve",)]
    act(st, 0, "serve")
    assert st.observation(1)["cooked"] == [[["Bebek Goreng", 1, 1]], [], []]
    assert held(st, 0, "picks") == {"sambal": 1}
    assert st.scores() == [4, 0, 0]
    assert st.inventory()["groceries"] == 40


def test_who_cooked_discards_everything_under_the_default_keep_rule() -> None:
    st = staged(
        variant="street-vendor",
        picks=[["sayur", "sayur", "tahu"], ["petis", "beras"], []],
        row=["Semanggi"],
    )
    act(st, 0, "cook", 0)
    act(st, 0, "serve")
    act(st, 0, "end-turn")
    assert st.to_move() == (1,) and st.kept[0] == -1
    assert st.discards[3] == 1
    act(st, 1, "end-turn")
    assert st.phase == KEEP_STEP
    assert legal(st, 1) == [("keep", "beras"), ("keep", "petis"), ("keep", "nothing")]
    act(st, 1, "keep", "petis")
    assert st.observation(1)["kept"] == "petis"
    assert st.observation(0)["kept_counts"] == [0, 1, 0]
    assert st.observation(0)["kept"] is None


def test_the_always_keep_rule_lets_a_cook_keep_a_card() -> None:
    st = staged(
        variant="street-vendor",
        keep_rule="always",
        picks=[["sayur", "sayur", "tahu"], [], []],
        row=["Semanggi"],
    )
    act(st, 0, "cook", 0)
    act(st, 0, "serve")
    act(st, 0, "end-turn")
    assert legal(st, 0) == [("keep", "tahu"), ("keep", "nothing")]
    act(st, 0, "keep", "tahu")
    assert st.observation(0)["kept"] == "tahu"


def test_a_seat_with_no_grocery_is_not_asked_what_to_keep() -> None:
    st = staged(variant="street-vendor", row=["Semanggi"])
    act(st, 0, "end-turn")
    assert st.to_move() == (1,)


def test_a_kept_card_joins_the_picks_at_the_next_cooking_phase() -> None:
    st = staged(
        variant="street-vendor",
        picks=[["beras"], [], []],
        kept=[None, None, "daging"],
        row=["Bebek Goreng"],
    )
    assert held(st, 2, "picks") == {"daging": 1}
    assert st.observation(2)["kept"] is None


def test_after_every_turn_discards_go_under_the_deck_and_priority_passes_left() -> None:
    st = staged(
        variant="street-vendor",
        priority=1,
        picks=[["tahu", "tahu"], ["petis"], ["sambal"]],
        row=["Semanggi"],
        menu_deck=["Tahu Tek", "Tahu Campur"],
    )
    start = len(st.log)
    for seat in (1, 2, 0):
        assert st.to_move() == (seat,)
        act(st, seat, "end-turn")
        act(st, seat, "keep", "nothing")
    assert st.phase == DRAFT and st.priority == 2 and st.rounds == 2
    assert sorted(st.groceries[:4]) == [3, 3, 4, 5]
    assert sum(st.discards) == 0
    assert event_types(st, 0, start).count("turn-over") == 3
    assert row_seen(st, 0) == ["Tahu Tek", "Semanggi"]


def test_cooking_the_last_menu_ends_the_game_and_ties_go_to_most_menus() -> None:
    st = staged(
        variant="street-vendor",
        picks=[["sayur", "sayur"], [], []],
        row=["Semanggi"],
        menu_deck=[],
        cooked=[["Semanggi"], ["Lontong Balap"], []],
    )
    act(st, 0, "cook", 0)
    act(st, 0, "serve")
    assert st.phase == OVER and st.to_move() == ()
    result = st.result()
    assert result.scores == (4, 4, 0)
    assert result.ranks == (1, 2, 3)
    assert result.detail["menus_cooked"] == [2, 1, 0]


def test_equal_score_and_menus_share_the_place() -> None:
    st = staged(
        variant="street-vendor",
        picks=[["sayur", "sayur"], [], []],
        row=["Semanggi"],
        menu_deck=[],
        cooked=[["Semanggi"], ["Bebek Goreng", "Bebek Goreng"], []],
    )
    act(st, 0, "cook", 0)
    act(st, 0, "serve")
    assert st.result().ranks == (1, 1, 3)
