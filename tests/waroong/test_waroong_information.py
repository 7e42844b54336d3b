"""What each seat may know: private holdings, and determinization consistent with a seat's view."""

from __future__ import annotations

import random

from waroong_helpers import act, held, staged

from engine.waroong.phases import OFFER, SECURITY_STEP


def test_holdings_are_private_and_their_counts_public() -> None:
    st = staged(
        customers=[["celebrity"], ["vip", "thief"], []],
        picks=[["beras", "tahu"], ["petis"], []],
        kept=[None, None, "sayur"],
        row=["Semanggi"],
    )
    mine, theirs = st.observation(0), st.observation(1)
    assert held(st, 0, "picks") == {"beras": 1, "tahu": 1}
    assert held(st, 1, "picks") == {"petis": 1}
    assert mine["pick_counts"] == theirs["pick_counts"] == [2, 1, 1]
    assert mine["customer_counts"] == [1, 2, 0]
    assert held(st, 0, "customers") == {"celebrity": 1}
    swapped = st.clone()
    swapped.customers[1][9], swapped.customers[1][10] = 0, 1
    swapped.picks[1][4], swapped.picks[1][0] = 0, 1
    assert swapped.observation(0) == mine
    assert swapped.observation(1) != theirs


def test_a_determinized_draft_keeps_own_cards_and_every_count() -> None:
    hands = (
        ["beras", "beras", "daging", "daging", "sayur", "sayur"],
        ["tahu", "tahu", "petis", "petis", "sambal", "kerupuk"],
        ["beras", "daging", "sayur", "tahu", "petis", "petis"],
    )
    st = staged(phase="draft", hands=hands)
    act(st, 1, "pick", "tahu")
    seen = st.observation(0)
    changed = False
    for draw in range(20):
        other = st.determinize(0, random.Random(draw))
        assert other.observation(0) == seen
        assert other.to_move() == (0, 2)
        assert other.inventory() == st.inventory()
        assert other.pending[1] >= 0 and other.hands[1][other.pending[1]] > 0
        changed |= other.hands[1] != st.hands[1]
    assert changed


def test_determinizing_keeps_the_security_of_a_seat_being_asked() -> None:
    st = staged(
        customers=[["thief"], ["security"], ["vip"]],
        picks=[[], ["tahu"], []],
        row=["Semanggi"],
    )
    act(st, 0, "thief", 1)
    assert st.phase == SECURITY_STEP
    for draw in range(10):
        other = st.determinize(0, random.Random(draw))
        assert other.customers[1][6] == 1
        assert other.to_move() == (1,)
        assert other.observation(0) == st.observation(0)


def test_determinizing_keeps_the_businesswoman_of_a_seat_being_asked() -> None:
    st = staged(customers=[["vip"], [], ["businesswoman"]], row=["Semanggi"])
    assert st.phase == OFFER
    for draw in range(10):
        other = st.determinize(1, random.Random(draw))
        assert other.customers[2][8] == 1
        assert other.to_move() == (2,)
        assert other.observation(1) == st.observation(1)
