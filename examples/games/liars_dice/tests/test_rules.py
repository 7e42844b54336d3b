"""Known answers of the Liar's Dice rules: bid order, challenges, wild ones, elimination, the winner."""

from __future__ import annotations

import pytest
from staged import stage

from engine.core import ConfigError, IllegalAction, State
from liars_dice import GAME, describe_event
from liars_dice.rules import CHALLENGE, rules_of


def bid(state: State, quantity: int, face: int) -> int:
    """The action id of the bid ``quantity x face`` in ``state``'s game."""
    return state.table().id_of("bid", quantity, face)


def test_bids_ascend_by_quantity_then_face() -> None:
    config = GAME.configure(3)
    table = GAME.action_table(config)
    bids = [spec.form[1:] for spec in table][1:]
    assert table[0].form == ("challenge",)
    assert bids[:7] == [(1, 1), (1, 2), (1, 3), (1, 4), (1, 5), (1, 6), (2, 1)]
    assert len(table) == 1 + 3 * 5 * 6
    assert table.id_of("bid", 3, 6) < table.id_of("bid", 4, 2) < table.id_of("bid", 4, 5)
    assert rules_of(config).bid_id(4, 5) == table.id_of("bid", 4, 5)
    assert table.label(table.id_of("bid", 4, 5)) == "bid 4 x 5"


def test_wild_ones_bids_name_faces_two_to_six() -> None:
    table = GAME.action_table(GAME.configure(2, "wild-ones"))
    faces = {spec.form[2] for spec in table if spec.form[0] == "bid"}
    assert faces == {2, 3, 4, 5, 6}
    assert len(table) == 1 + 2 * 5 * 5
    with pytest.raises(KeyError):
        table.id_of("bid", 1, 1)


def test_the_opener_must_bid_and_the_next_seat_must_raise_or_challenge() -> None:
    state = stage([[1, 2], [3, 4], [5, 6]])
    legal = state.legal_actions(0)
    assert CHALLENGE not in legal
    assert legal == list(range(1, 1 + 6 * 6)), "any bid up to 6 sixes (6 dice on the table)"
    state.apply_checked(0, bid(state, 2, 4))
    assert state.to_move() == (1,)
    legal = state.legal_actions(1)
    assert legal[0] == CHALLENGE
    assert bid(state, 2, 4) not in legal and bid(state, 2, 3) not in legal
    assert bid(state, 2, 5) in legal and bid(state, 3, 1) in legal
    with pytest.raises(IllegalAction):
        state.apply_checked(1, bid(state, 1, 6))


def test_the_highest_bid_can_only_be_challenged() -> None:
    state = stage([[1, 2], [3, 4]])
    state.apply(0, bid(state, 4, 6))
    assert state.legal_actions(1) == [CHALLENGE]


@pytest.mark.parametrize(
    ("quantity", "loser"),
    [(2, 1), (3, 1), (4, 0)],
    ids=["more-than-bid-stands", "met-exactly-stands", "short-fails"],
)
def test_a_challenge_costs_the_challenger_when_the_bid_holds(quantity: int, loser: int) -> None:
    """Three fives on the table: a bid of 2 or 3 fives stands (the challenger loses), 4 fails."""
    state = stage([[5, 5, 1], [5, 2, 3]])
    state.apply(0, bid(state, quantity, 5))
    state.apply(1, CHALLENGE)
    challenge = state.last_challenge
    assert challenge is not None
    assert (challenge["count"], challenge["loser"]) == (3, loser)
    assert challenge["dice"] == [[1, 5, 5], [2, 3, 5]]
    assert [len(d) for d in state.dice] == [3 - (loser == 0), 3 - (loser == 1)]
    assert state.round == 2 and state.to_move() == (loser,), "the loser opens the next round"


def test_ones_count_as_every_face_only_when_wild() -> None:
    """Two fives and two ones: 4 fives with wild ones, 2 without."""
    for variant, count, loser in (("wild-ones", 4, 1), ("standard", 2, 0)):
        state = stage([[5, 1, 3], [1, 5, 2]], variant=variant)
        state.apply(0, bid(state, 3, 5))
        state.apply(1, CHALLENGE)
        assert state.last_challenge is not None
        assert (state.last_challenge["count"], state.last_challenge["loser"]) == (count, loser), variant


def test_a_seat_losing_its_last_die_is_out_and_the_next_seat_opens() -> None:
    state = stage([[2, 2], [6], [3, 3]], turn=0)
    state.apply(0, bid(state, 1, 4))
    state.apply(1, bid(state, 2, 6))
    state.apply(2, CHALLENGE)  # one six on the table: seat 1 bid 2 and loses its last die
    assert state.dice[1] == [] and state.out == [1]
    assert state.to_move() == (2,), "seat 1 is out, so seat 2 opens"
    assert state.legal_actions(1) == []
    state.apply(2, bid(state, 1, 2))
    assert state.to_move() == (0,), "turns skip the seat that is out"
    events = [e for e in state.events(0)[0] if e["type"] == "eliminated"]
    assert events == [{"type": "eliminated", "seat": 1, "place": 3}]


def test_the_last_seat_with_dice_wins_and_places_follow_elimination() -> None:
    state = stage([[4], [], [2]], turn=2)
    state.out = [1]
    state.apply(2, bid(state, 2, 2))
    state.apply(0, CHALLENGE)  # one two: seat 2 loses its last die
    assert state.is_over() and state.to_move() == ()
    assert state.legal_actions(0) == []
    result = state.result()
    assert result.scores == (2, 0, 1)
    assert result.ranks == (1, 3, 2)
    assert result.detail == {"rounds": 1, "end": "last-standing", "winner": 0, "eliminated": [1, 2]}
    assert state.events(1)[0][-1] == {"type": "end", "winner": 0, "eliminated": [1, 2]}


def test_the_dice_knob_and_its_errors() -> None:
    state = GAME.new_state(4, seed=3, dice="2")
    assert state.observation(0)["dice_counts"] == [2, 2, 2, 2]
    assert len(GAME.action_table(GAME.configure(4, knobs={"dice": 2}))) == 1 + 8 * 6
    for bad in (0, 11, "many", True, 2.5):
        with pytest.raises(ConfigError, match="knob 'dice'"):
            GAME.new_state(2, seed=1, dice=bad)
    with pytest.raises(ConfigError, match="2-6 players"):
        GAME.new_state(7, seed=1)


def test_events_read_as_sentences() -> None:
    state = stage([[5, 5, 1], [5, 2, 3]])
    state.apply(0, bid(state, 4, 5))
    state.apply(1, CHALLENGE)
    words = [describe_event(e) for e in state.events(0)[0]]
    assert "Seat 0 bids 4 fives." in words
    assert "Seat 1 calls seat 0 a liar on 4 fives: there are 3, the bid fails, and seat 0 loses a die." in words
    assert any(w.startswith("Round 2: dice in hand 2, 3; seat 0 bids first.") for w in words)
    assert describe_event({"type": "bid", "seat": 3, "quantity": 1, "face": 6}) == "Seat 3 bids 1 six."
    assert describe_event({"type": "eliminated", "seat": 2, "place": 3}) == (
        "Seat 2 has lost its last die and places 3rd."
    )
    assert describe_event({"type": "end", "winner": 1}) == "Seat 1 is the last with dice and wins."
    assert describe_event({"type": "challenge", "seat": 1, "bidder": 0, "quantity": 2, "face": 6, "count": 1,
                           "loser": 0}) == (
        "Seat 1 calls seat 0 a liar on 2 sixes: there is 1, the bid fails, and seat 0 loses a die."
    )
    assert describe_event({"type": "mystery"}) == "Event mystery."


def test_the_presentation_names_the_seats_and_counts_seats_outlasted() -> None:
    names = ["seat 0 (ann)", "seat 1 (bob)"]
    words = GAME.presentation().event_text({"type": "end", "winner": 1}, names)
    assert words == "Seat 1 (bob) is the last with dice and wins."
    state = stage([[5, 5, 1], [5, 2, 3]])
    assert GAME.presentation().running_scores(state) == [0, 0]


def test_render_shows_only_the_observers_dice() -> None:
    state = stage([[5, 5, 1], [6, 2, 3]])
    state.apply(0, bid(state, 2, 5))
    seen = state.render(0)
    assert "seat 0: 1 5 5" in seen and "seat 1: 3 dice hidden" in seen
    assert "Liar's Dice (standard, 3 dice each), round 1, seat 1 to act" in seen
    assert "standing bid: 2 fives by seat 0" in seen
    assert "seat 1: 2 3 6" in state.render(None)
