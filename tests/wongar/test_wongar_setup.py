"""Setup: stacks and setup Scorpions, the bag draw, opening hands, owners; the knobs."""

from __future__ import annotations

import json

import pytest

from engine.core import ConfigError, seeded_rng
from engine.wongar import GAME
from engine.wongar.arrange import staged
from engine.wongar.board import STANDARD
from engine.wongar.cards import PIECES_PER_PLAYER, RITUAL_DECK, STACK_CARDS, RitualCard, TerritoryCard
from wongar_scenario import BOARD, act, offered

SCORPION = int(TerritoryCard.SCORPION)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_bag_draw_fills_territories_in_board_order(players: int) -> None:
    seed = 17
    state = staged(players, seed)
    n = players
    bag = [s * 3 + k for s in range(n) for k in range(3) for _ in range(4)]
    seeded_rng(seed, "wongar", "bag").shuffle(bag)
    for t, name in enumerate(BOARD):
        count = 2 * n if name in ("Hands", "Foot") else n
        expected = [0] * (n * 3)
        for _ in range(count):
            expected[bag.pop()] += 1
        assert state.pieces[t * n * 3: (t + 1) * n * 3] == expected, name
    for s in range(n):
        assert state.supply[s * 3: s * 3 + 3] == [p - 4 for p in PIECES_PER_PLAYER]


def test_stacks_reveal_with_setup_scorpions_pushed_under() -> None:
    pushed = 0
    for seed in range(12):
        state = staged(4, seed)
        for t in range(10):
            cards = [c for c, count in enumerate(STACK_CARDS) for _ in range(count)]
            seeded_rng(seed, "wongar", "stack", t).shuffle(cards)
            scorpions_on_top = 0
            while cards[-1 - scorpions_on_top] == SCORPION:
                scorpions_on_top += 1
            assert state.face_up[t] == cards[-1 - scorpions_on_top]
            assert state.bottom_known[t] == scorpions_on_top
            assert state.stacks[t][:scorpions_on_top] == [SCORPION] * scorpions_on_top
            assert len(state.stacks[t]) == 14
            pushed += scorpions_on_top
    assert pushed > 0, "some seed must reveal a Scorpion at setup"


@pytest.mark.parametrize("players", [3, 4, 5])
def test_opening_hands_owners_and_figures(players: int) -> None:
    state = GAME.new_state(players, seed=5)
    first, second = seeded_rng(5, "wongar", "owners").sample(range(players), 2)
    assert isinstance(state, type(staged(players, 5)))
    assert (state.ancestor_owner, state.boomerang, state.elder_owner) == (first, first, second)
    assert state.board.names[state.ancestor_at] == "Hands"
    assert state.board.names[state.elder_at] == "Foot"
    assert state.to_move() == (first,), "the Ancestor's owner holds the Boomerang and starts"
    dealt = staged(players, 5)
    for s in range(players):
        assert sum(dealt.hands[s * 5: s * 5 + 5]) == 2
        assert dealt.hands[s * 5 + RitualCard.SCORPION] == 0
    assert len(dealt.pile) == sum(RITUAL_DECK) - 2 * players
    assert dealt.pile.count(int(RitualCard.SCORPION)) == 2


def test_same_seed_same_cards_whatever_is_played() -> None:
    a = staged(4, 9)
    b = staged(4, 9)
    a.begin()
    b.begin()
    assert a.observation(0) == b.observation(0)
    (seat,) = a.to_move()
    a.apply(seat, a.legal_actions(seat)[0])
    b.apply(seat, b.legal_actions(seat)[-1])
    untouched = [t for t in range(10) if a.face_up[t] >= 0 and b.face_up[t] >= 0]
    assert untouched
    for t in untouched:
        assert a.stacks[t] == b.stacks[t]


def test_standard_board_is_the_documented_table() -> None:
    state = staged(3, 1)
    for t, name in enumerate(BOARD):
        assert sorted(state.board.names[u] for u in state.board.neighbours[t]) == sorted(STANDARD[name])


def test_custom_board_renames_actions() -> None:
    names = ["Hands", "Foot", "A", "B", "C", "D", "E", "F", "G", "H"]
    ring = {name: [names[(i - 1) % 10], names[(i + 1) % 10]] for i, name in enumerate(names)}
    state = staged(3, 2, board=json.dumps(ring))
    state.begin()
    assert state.table().id_of("take", "G") >= 0
    forms = offered(state)
    assert forms[0][0] == "take"
    act(state, forms[0][0], forms[0][1])


@pytest.mark.parametrize(
    ("knobs", "message"),
    [
        ({"board": "round"}, "JSON object of territories"),
        ({"board": json.dumps({k: v for k, v in list(STANDARD.items())[:9]})}, "exactly 10 territories"),
        ({"board": json.dumps({**STANDARD, "Kangaroo": ["Emu", "Goanna"]})}, "not symmetric"),
        ({"board": json.dumps({**STANDARD, "Moon": ["Foot", "Turtle", "Fish", "Atlantis"]})}, "unknown neighbour"),
        ({"board": json.dumps({**STANDARD, "Kangaroo": ["Emu", "Goanna", "Hands", "Kangaroo"]})}, "own neighbour"),
        ({"board": json.dumps({f"T{i}": [f"T{i ^ 1}"] for i in range(8)} | {"Hands": ["Foot"], "Foot": ["Hands"]})},
         "not connected"),
        ({"board": json.dumps({f"T{i}": [f"T{(i + 1) % 10}", f"T{(i - 1) % 10}"] for i in range(10)})}, "'Hands'"),
        ({"scorpion_track": "5/5"}, "three phase lengths"),
        ({"scorpion_track": "5/0/5"}, ">= 1"),
        ({"scorpion_track": "a/b/c"}, "whole number"),
        ({"ceremony_points": "2,3,4/3,4,5"}, "Ancestor, Elder, Ancestor-and-Elder"),
        ({"ceremony_points": "2,3,4/3,4,5/5,6,-7"}, "whole number"),
        ({"scorpion_track": 5}, "expected three phase lengths"),
    ],
)
def test_knob_validation_says_what_is_allowed(knobs: dict[str, object], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        GAME.new_state(4, seed=1, **knobs)


def test_board_knob_accepts_a_table_from_a_config_file() -> None:
    config = GAME.configure(3, None, {"board": dict(STANDARD)})
    assert json.loads(str(config.knobs["board"])) == STANDARD
    with pytest.raises(ConfigError, match="board.*not symmetric"):
        GAME.configure(3, None, {"board": {**STANDARD, "Moon": ["Foot"]}})


def test_knob_defaults_and_canonical_forms() -> None:
    config = GAME.configure(4, None, {"scorpion_track": " 4 / 5 / 6 ", "ceremony_points": "1,2,3/4,5,6/7,8,9"})
    assert config.variant == "basic"
    assert config.knobs == {
        "board": "standard", "scorpion_track": "4/5/6", "ceremony_points": "1,2,3/4,5,6/7,8,9",
    }
    assert GAME.configure(3).knobs["scorpion_track"] == "5/5/5"
    assert GAME.configure(3).knobs["ceremony_points"] == "2,3,4/3,4,5/5,6,7"
    assert GAME.key == "wongar@2"
