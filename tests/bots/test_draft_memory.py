"""The ISMCTS bot's draft memory in Waroong Wars: deals that agree with the hands a seat saw pass by."""

from __future__ import annotations

import random

import pytest

from bots.shared.draft_memory import DraftMemory
from engine.core import WireMap
from engine.waroong import GAME
from engine.waroong.phases import DRAFT
from engine.waroong.state import WaroongState


def _decisions(players: int, seed: int, drafting: bool) -> list[tuple[WaroongState, WireMap, DraftMemory]]:
    """Seat 0's decisions of a random game in the draft (``drafting``) or after it: the true state,
    its observation, and the memory then."""
    config = GAME.configure(players)
    state = GAME.start(config, seed)
    rng = random.Random(seed)
    memory = DraftMemory(0)
    decisions = []
    while not state.is_over():
        if 0 in state.to_move():
            observation = state.observation(0)
            memory.observe(observation)
            if (state.phase == DRAFT) == drafting:
                decisions.append((state.clone(), observation, _copy(memory)))
        for seat in state.to_move():
            state.apply(seat, rng.choice(state.legal_actions(seat)))
    return decisions


def _copy(memory: DraftMemory) -> DraftMemory:
    copy = DraftMemory(memory.seat)
    copy.round, copy.hands, copy.picks = memory.round, list(memory.hands), list(memory.picks)
    return copy


@pytest.mark.parametrize("players", [3, 4, 5])
def test_constrained_deals_keep_the_observation_and_know_the_left_hand(players: int) -> None:
    """A constrained deal shows the seat exactly what it observed, holds every card once, and gives
    the left neighbour the very hand the seat passed it (less nothing: it has not picked yet)."""
    rng = random.Random(players)
    later_steps = 0
    for seed in range(3):
        for truth, observation, memory in _decisions(players, 9100 + seed, drafting=True):
            deal = memory.constrain(GAME.sample_state(truth.config, 0, observation, rng), rng)
            assert deal.observation(0) == observation
            assert deal.inventory() == truth.inventory()
            redeal = memory.constrain(deal.determinize(0, rng), rng)
            assert redeal.observation(0) == observation
            if len(memory.hands) > 1:
                later_steps += 1
                assert deal.hands[1] == truth.hands[1]
                assert redeal.hands[1] == truth.hands[1]
    assert later_steps > 0


def test_returned_hand_reveals_what_the_others_took() -> None:
    """Three players: once a hand has come back, the two cards missing from it are among the
    other seats' picks in every constrained deal."""
    rng = random.Random(5)
    checked = 0
    for truth, observation, memory in _decisions(3, 9200, drafting=True):
        step = len(memory.hands) - 1
        if step < 3:
            continue
        mine = [b - a for a, b in zip(memory.picks[0], memory.picks[1])]
        taken = [h - m - back for h, m, back in zip(memory.hands[0], mine, memory.hands[3])]
        deal = memory.constrain(GAME.sample_state(truth.config, 0, observation, rng), rng)
        others = [a + b for a, b in zip(deal.picks[1], deal.picks[2])]
        assert all(o >= t for o, t in zip(others, taken))
        checked += 1
    assert checked > 0


def test_memory_forgets_a_round_it_did_not_see_from_the_start() -> None:
    """A memory that joins a draft midway constrains nothing: the sampled state is returned as is."""
    steps = _decisions(3, 9300, drafting=True)
    truth, observation, _ = next(s for s in steps if len(s[2].hands) == 3)
    fresh = DraftMemory(0)
    fresh.observe(observation)
    rng = random.Random(1)
    deal = GAME.sample_state(truth.config, 0, observation, rng)
    before = [h.copy() for h in deal.hands]
    assert fresh.constrain(deal, rng).hands == before


def _play_out(state: WaroongState, rng: random.Random) -> None:
    while not state.is_over():
        for seat in state.to_move():
            state.apply(seat, rng.choice(state.legal_actions(seat)))


@pytest.mark.parametrize("players", [3, 4, 5])
def test_deals_after_the_draft_keep_the_observation_and_play_on(players: int) -> None:
    """In the cooking phases a constrained deal shows the seat what it observed, holds every card
    once, and plays on to the end (a dish under construction keeps what it needs)."""
    rng = random.Random(players)
    for seed in range(4):
        for truth, observation, memory in _decisions(players, 9400 + seed, drafting=False):
            deal = memory.constrain(GAME.sample_state(truth.config, 0, observation, rng), rng)
            assert deal.observation(0) == observation
            assert deal.inventory() == truth.inventory()
            redeal = memory.constrain(deal.determinize(0, rng), rng)
            assert redeal.observation(0) == observation
            _play_out(redeal, rng)


def test_after_the_draft_the_seats_that_have_not_cooked_hold_what_was_seen_them_take() -> None:
    """Three players, seat 0 cooking first: the card seat 0 passed at the draft's second-to-last
    step is seat 1's, and the cards taken from every hand seat 0 saw are among seats 1 and 2's
    picks, in every constrained deal."""
    rng = random.Random(7)
    checked = 0
    for seed in range(20):
        for truth, observation, memory in _decisions(3, 9500 + seed, drafting=False):
            size = len(memory.hands)
            if any(truth.done) or sum(truth.picks[1]) != size or sum(truth.picks[2]) != size:
                continue
            final_picks = [a + b for a, b in zip(memory.picks[-1], memory.hands[-1])]
            after = [*memory.picks[1:], final_picks]
            left = [[h - (b - a) for h, a, b in zip(memory.hands[step], memory.picks[step], after[step])]
                    for step in range(size)]  # each hand seen, less seat 0's pick from it
            backs = [*memory.hands[3:], [0] * len(memory.hands[0])]
            passed_last = left[size - 2]
            taken = [sum(left[step][kind] - backs[step][kind] for step in range(size - 2))
                     for kind in range(len(passed_last))]
            for _ in range(5):
                deal = memory.constrain(GAME.sample_state(truth.config, 0, observation, rng), rng)
                assert all(have >= want for have, want in zip(deal.picks[1], passed_last))
                both = [a + b for a, b in zip(deal.picks[1], deal.picks[2])]
                assert all(have >= want for have, want in zip(both, taken))
            checked += 1
    assert checked > 0
