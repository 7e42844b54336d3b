"""The seven customer cards, their timing and their reactions; Street Vendor has none."""

from __future__ import annotations

import pytest
from waroong_helpers import act, event_types, held, legal, staged

from engine.core import ConfigError, IllegalAction
from engine.waroong import GAME
from engine.waroong.phases import OFFER, SECURITY_STEP


def test_thief_takes_the_only_grocery_of_the_target() -> None:
    st = staged(
        customers=[["thief"], [], []], picks=[[], ["tahu"], []], row=["Semanggi"]
    )
    assert legal(st, 0) == [("end-turn",), ("thief", 1)]
    act(st, 0, "thief", 1)
    assert st.to_move() == (0,)
    assert held(st, 0, "picks") == {"tahu": 1}
    assert held(st, 1, "picks") == {}
    assert held(st, 2, "used_customers") == {"thief": 1}
    assert "stolen-card" in event_types(st, 1) and "stolen-card" not in event_types(
        st, 2
    )


def test_thief_can_take_a_kept_card() -> None:
    st = staged(
        customers=[["thief"], [], []],
        picks=[[], [], ["petis"]],
        row=["Semanggi"],
        priority=2,
    )
    act(st, 2, "end-turn")
    act(st, 2, "keep", "petis")
    assert st.to_move() == (0,)
    act(st, 0, "thief", 2)
    assert held(st, 0, "picks") == {"petis": 1}
    assert st.observation(2)["kept"] is None


def test_thief_takes_one_random_grocery_as_the_seed_decides() -> None:
    outcomes = set()
    for seed in range(12):
        st = staged(
            seed=seed,
            customers=[["thief"], [], []],
            picks=[[], ["tahu", "petis"], []],
            row=["Semanggi"],
        )
        act(st, 0, "thief", 1)
        taken = held(st, 0, "picks")
        assert sum(taken.values()) == 1 and sum(held(st, 1, "picks").values()) == 1
        outcomes |= set(taken)
        again = staged(
            seed=seed,
            customers=[["thief"], [], []],
            picks=[[], ["tahu", "petis"], []],
            row=["Semanggi"],
        )
        act(again, 0, "thief", 1)
        assert held(again, 0, "picks") == taken
    assert outcomes == {"tahu", "petis"}


def test_security_cancels_a_thief() -> None:
    st = staged(
        customers=[["thief"], ["security"], []],
        picks=[[], ["tahu"], []],
        row=["Semanggi"],
    )
    act(st, 0, "thief", 1)
    assert st.phase == SECURITY_STEP and st.to_move() == (1,)
    assert legal(st, 1) == [("security", "use"), ("security", "pass")]
    act(st, 1, "security", "use")
    assert st.to_move() == (0,)
    assert held(st, 1, "picks") == {"tahu": 1} and held(st, 0, "picks") == {}
    assert st.used[5:8] == [1, 1, 0]
    assert held(st, 1, "customers") == {}


def test_security_not_played_lets_the_thief_steal() -> None:
    st = staged(
        customers=[["thief"], ["security"], []],
        picks=[[], ["tahu"], []],
        row=["Semanggi"],
    )
    act(st, 0, "thief", 1)
    act(st, 1, "security", "pass")
    assert held(st, 0, "picks") == {"tahu": 1}
    assert held(st, 1, "customers") == {"security": 1}


def test_charmer_takes_a_customer_card_and_security_cancels_it() -> None:
    st = staged(
        customers=[["charmer", "charmer"], ["celebrity"], ["vip", "security"]],
        row=["Semanggi"],
    )
    assert legal(st, 0) == [("end-turn",), ("charmer", 1), ("charmer", 2)]
    act(st, 0, "charmer", 1)
    assert held(st, 0, "customers") == {"charmer": 1, "celebrity": 1}
    act(st, 0, "charmer", 2)
    assert st.to_move() == (2,)
    act(st, 2, "security", "use")
    assert held(st, 0, "customers") == {"celebrity": 1}
    assert held(st, 2, "customers") == {"vip": 1}


def test_thief_and_charmer_need_something_to_take() -> None:
    st = staged(
        customers=[["thief", "charmer"], [], ["celebrity"]],
        picks=[[], ["beras"], []],
        row=["Semanggi"],
    )
    assert legal(st, 0) == [("end-turn",), ("thief", 1), ("charmer", 2)]


def test_vip_reshuffles_the_open_menus() -> None:
    row = ["Semanggi", "Tahu Tek", "Sate Klopo"]
    st = staged(
        customers=[["vip"], [], []], row=row, menu_deck=["Nasi Krawu", "Nasi Rawon"]
    )
    before = sorted(st.row + st.menus)
    act(st, 0, "vip")
    assert len(st.row) == 3 and len(st.menus) == 2
    assert sorted(st.row + st.menus) == before
    assert st.used[9] == 1 and st.to_move() == (0,)
    shown = [e for e in st.events(1)[0] if e["type"] == "vip"]
    assert shown == [{"type": "vip", "seat": 0, "row": st.row_names()}]


def test_a_boss_replaces_a_missing_grocery() -> None:
    st = staged(
        customers=[["boss-petis"], [], []],
        picks=[["beras", "tahu"], [], []],
        row=["Lontong Balap"],
    )
    act(st, 0, "cook", 0)
    assert legal(st, 0) == [("serve",)]
    act(st, 0, "serve")
    assert st.observation(0)["cooked"] == [[["Lontong Balap", 0, 0]], [], []]
    assert sum(held(st, 0, "customers").values()) == 1
    assert st.used[4] == 1 and st.customers[0][4] == 0
    assert held(st, 0, "picks") == {}


def test_a_boss_may_save_a_grocery_and_bosses_alone_may_cook() -> None:
    st = staged(
        customers=[["boss-petis", "boss-beras", "boss-daging"], [], []],
        picks=[["beras", "tahu", "petis"], [], []],
        row=["Lontong Balap", "Bebek Goreng"],
        menu_deck=["Tahu Tek", "Tahu Tek"],
        customer_top=["celebrity", "celebrity"],
    )
    act(st, 0, "cook", 0)
    assert legal(st, 0) == [("serve",), ("boss", "beras"), ("boss", "petis")]
    act(st, 0, "boss", "petis")
    assert legal(st, 0) == [("serve",), ("boss", "beras")]
    act(st, 0, "serve")
    assert held(st, 0, "picks") == {"petis": 1}
    assert legal(st, 0) == [("cook", 1), ("end-turn",)]
    act(st, 0, "cook", 1)
    act(st, 0, "serve")
    assert held(st, 0, "customers") == {"celebrity": 2}
    assert st.scores()[0] == 4 + 2 + 3 + 3


def test_celebrity_scores_three_and_other_unused_cards_one() -> None:
    st = staged(
        customers=[["celebrity", "thief"], ["boss-beras"], []],
        picks=[["sayur", "sayur"], [], []],
        row=["Semanggi"],
        menu_deck=[],
        customer_top=["vip"],
    )
    act(st, 0, "cook", 0)
    act(st, 0, "serve")
    assert st.result().scores == (2 + 3 + 1 + 1, 1, 0)


def test_businesswoman_takes_the_turn_and_her_later_turn_is_skipped() -> None:
    st = staged(customers=[[], [], ["businesswoman"]], row=["Semanggi"], priority=0)
    assert st.phase == OFFER and st.to_move() == (2,)
    assert legal(st, 2) == [("businesswoman", "use"), ("businesswoman", "pass")]
    assert st.observation(0)["phase"] == "cook" and st.observation(0)["turn"] == 0
    assert st.observation(2)["offer"] is True
    start = len(st.log)
    act(st, 2, "businesswoman", "use")
    assert st.to_move() == (2,)
    act(st, 2, "end-turn")
    assert st.to_move() == (0,)
    act(st, 0, "end-turn")
    act(st, 1, "end-turn")
    turns = [e["seat"] for e in st.events(0, start)[0] if e["type"] == "turn"]
    assert turns == [2, 0, 1]
    assert st.priority == 1 and st.to_move() == (0, 1, 2)


def test_a_declined_businesswoman_is_offered_again_at_the_next_turn() -> None:
    st = staged(customers=[[], [], ["businesswoman"]], row=["Semanggi"], priority=0)
    act(st, 2, "businesswoman", "pass")
    assert st.to_move() == (0,)
    act(st, 0, "end-turn")
    assert st.phase == OFFER and st.to_move() == (2,)
    act(st, 2, "businesswoman", "use")
    act(st, 2, "end-turn")
    assert st.to_move() == (1,)
    act(st, 1, "end-turn")
    assert st.priority == 1


def test_businesswoman_is_not_offered_to_a_seat_that_has_cooked() -> None:
    st = staged(customers=[[], [], ["businesswoman"]], row=["Semanggi"], priority=2)
    assert st.to_move() == (2,) and legal(st, 2) == [("end-turn",)]
    act(st, 2, "end-turn")
    assert st.to_move() == (0,) and legal(st, 0) == [("end-turn",)]


def test_street_vendor_has_no_customer_cards() -> None:
    st = staged(
        variant="street-vendor", picks=[["sayur", "sayur"], [], []], row=["Semanggi"]
    )
    assert st.inventory()["customers"] == 0
    forms = [spec.form[0] for spec in st.table()]
    assert not {"boss", "thief", "charmer", "vip", "security", "businesswoman"} & set(
        forms
    )
    act(st, 0, "cook", 0)
    act(st, 0, "serve")
    assert st.observation(0)["customer_counts"] == [0, 0, 0]
    fresh = GAME.new_state(4, 3, "street-vendor")
    assert fresh.observation(0)["customer_deck"] == 0


@pytest.mark.parametrize(
    ("knobs", "message"),
    [
        ({"menus": "deluxe"}, "knob 'menus' must be one of 'standard'"),
        (
            {"keep_rule": "sometimes"},
            "knob 'keep_rule' must be one of 'only-if-no-cook', 'always'",
        ),
        ({"keep_rule": 3}, "knob 'keep_rule': expected a string"),
    ],
)
def test_bad_knobs_are_rejected_with_the_allowed_values(
    knobs: dict[str, object], message: str
) -> None:
    with pytest.raises(ConfigError, match=message):
        GAME.new_state(3, 1, None, **knobs)


def test_bad_staging_is_rejected() -> None:
    with pytest.raises(ConfigError, match="more 'sambal' placed"):
        staged(picks=[["sambal", "sambal", "sambal"]])
    with pytest.raises(ConfigError, match="no dish named 'Pizza'"):
        staged(row=["Pizza"])


def test_a_pending_businesswoman_offer_shows_no_cooking_to_anyone() -> None:
    st = staged(
        picks=[["sayur", "sayur"], [], []], customers=[[], [], ["businesswoman"]], row=["Semanggi"], priority=0,
    )
    act(st, 2, "businesswoman", "pass")
    act(st, 0, "cook", 0)
    act(st, 0, "serve")
    assert st.observation(1)["cooked_this_turn"] == 1
    act(st, 0, "end-turn")
    assert st.phase == OFFER and st.to_move() == (2,), "seat 1's turn: the Businesswoman is offered again"
    for seat in range(3):
        obs = st.observation(seat)
        assert obs["cooked_this_turn"] == 0, f"seat {seat} would learn that an offer is pending"
    assert st.observation(0)["phase"] == st.observation(1)["phase"] == "cook"


def test_an_illegal_action_is_named_by_its_label() -> None:
    st = staged(customers=[[], [], []], row=["Semanggi"], priority=0)
    action = st.table().id_of("vip")
    with pytest.raises(IllegalAction, match=rf"action {action} \(.*VIP.*\) is not legal for seat 0 now"):
        st.apply_checked(0, action)
