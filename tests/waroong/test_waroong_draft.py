"""Shopping: the simultaneous draft passing left, and the menu row when a round begins."""

from __future__ import annotations

from waroong_helpers import act, held, legal, row_seen, staged

from engine.waroong.phases import COOK_STEP, OVER

HANDS = (
    ["beras", "beras", "daging", "daging", "sayur", "sayur"],
    ["tahu", "tahu", "petis", "petis", "sambal", "kerupuk"],
    ["beras", "daging", "sayur", "tahu", "petis", "petis"],
)


def test_all_seats_pick_at_once_and_a_pick_is_private_until_all_have_picked() -> None:
    st = staged(phase="draft", hands=HANDS)
    assert st.to_move() == (0, 1, 2)
    assert legal(st, 0) == [("pick", "beras"), ("pick", "daging"), ("pick", "sayur")]
    seen_by_1 = st.observation(1)
    act(st, 0, "pick", "beras")
    assert st.to_move() == (1, 2)
    assert st.legal_actions(0) == []
    assert st.observation(1) == seen_by_1
    assert st.observation(0)["picked"] == "beras"
    assert held(st, 0, "hand") == {"beras": 2, "daging": 2, "sayur": 2}


def test_when_all_have_picked_each_hand_passes_to_the_left() -> None:
    st = staged(phase="draft", hands=HANDS)
    act(st, 2, "pick", "petis")
    act(st, 0, "pick", "sayur")
    act(st, 1, "pick", "sambal")
    assert st.to_move() == (0, 1, 2)
    assert held(st, 0, "picks") == {"sayur": 1}
    assert held(st, 1, "picks") == {"sambal": 1}
    assert held(st, 2, "picks") == {"petis": 1}
    assert held(st, 1, "hand") == {"beras": 2, "daging": 2, "sayur": 1}
    assert held(st, 2, "hand") == {"tahu": 2, "petis": 2, "kerupuk": 1}
    assert held(st, 0, "hand") == {
        "beras": 1,
        "daging": 1,
        "sayur": 1,
        "tahu": 1,
        "petis": 1,
    }
    assert st.observation(0)["hand_sizes"] == [5, 5, 5]


def test_six_picks_end_the_draft_and_the_priority_seat_cooks() -> None:
    st = staged(phase="draft", hands=HANDS, priority=1, row=["Semanggi"])
    for _ in range(6):
        for seat in st.to_move():
            st.apply_checked(seat, st.legal_actions(seat)[0])
    assert st.phase == COOK_STEP and st.to_move() == (1,)
    assert st.observation(0)["pick_counts"] == [6, 6, 6]
    assert sum(st.inventory().values()) == 40 + 20 + 20


def test_a_new_round_opens_a_menu_at_the_left_and_boxes_the_seventh() -> None:
    row = [
        "Semanggi",
        "Bebek Goreng",
        "Lontong Balap",
        "Nasi Rawon",
        "Lontong Kupang",
        "Nasi Krawu",
    ]
    st = staged(phase="shopping", row=row, menu_deck=["Tahu Tek", "Sate Klopo"])
    assert st.observation(0)["row"] == [
        ["Tahu Tek", 6, ["beras", "sayur", "tahu", "petis"]],
        ["Semanggi", 2, ["sayur", "sayur"]],
        ["Bebek Goreng", 2, ["beras", "daging"]],
        ["Lontong Balap", 4, ["beras", "tahu", "petis"]],
        ["Nasi Rawon", 4, ["beras", "daging", "sayur"]],
        ["Lontong Kupang", 4, ["beras", "daging", "petis"]],
    ]
    assert st.rules.dishes[st.boxed[-1]].name == "Nasi Krawu"
    assert st.observation(1)["menu_deck"] == 1
    assert st.to_move() == (0, 1, 2)
    assert st.observation(2)["hand_sizes"] == [6, 6, 6]


def test_with_the_menu_deck_empty_a_new_round_boxes_the_far_right_menu() -> None:
    st = staged(
        phase="shopping", row=["Semanggi", "Bebek Goreng", "Tahu Tek"], menu_deck=[]
    )
    assert row_seen(st, 0) == ["Semanggi", "Bebek Goreng"]
    assert st.rules.dishes[st.boxed[-1]].name == "Tahu Tek"
    assert st.rounds == 1


def test_the_game_ends_when_the_last_menu_is_boxed() -> None:
    st = staged(
        variant="street-vendor",
        phase="shopping",
        row=["Tahu Tek"],
        menu_deck=[],
        cooked=[["Semanggi"], [], []],
    )
    assert st.phase == OVER and st.to_move() == ()
    result = st.result()
    assert result.scores == (2, 0, 0)
    assert result.ranks == (1, 2, 2)
    assert result.detail == {"rounds": 0, "end": "menus", "menus_cooked": [1, 0, 0]}
