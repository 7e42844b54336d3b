"""A full Liar's Dice state from one seat's observation, the other seats' dice rolled at random.

Copied from the observation: the round, whose turn, the standing bid and bidder, this round's
bids, every dice count, the elimination order, the latest challenge and the seat's own dice.
Sampled: every other seat's dice (their counts kept) and the seed of future rolls. The event
log of a sample starts empty.
"""

from __future__ import annotations

import random

from engine.core import MatchConfig, WireMap
from engine.wire import as_int, as_list, as_map

from .rules import FACES, rules_of
from .state import NOBODY, LiarsDiceState
from .view import GAME_NAME


def sample_state(config: MatchConfig, seat: int, observation: WireMap, rng: random.Random) -> LiarsDiceState:
    """A state whose ``observation(seat)`` is ``observation``; ``ValueError`` if none can be."""
    try:
        return _sample(config, seat, observation, rng)
    except (KeyError, TypeError, IndexError) as exc:
        raise ValueError(f"not a Liar's Dice observation for this setup: {type(exc).__name__} {exc}") from None


def _sample(config: MatchConfig, seat: int, obs: WireMap, rng: random.Random) -> LiarsDiceState:
    rules = rules_of(config)
    n = rules.players
    if (obs["game"], obs["variant"], obs["seat"], obs["players"], obs["dice_each"]) != (
        GAME_NAME, config.variant, seat, n, rules.dice
    ):
        raise ValueError("the observation is of another game, setup or seat")
    st = LiarsDiceState.empty(rules, config, rng.getrandbits(63))
    counts = [as_int(c) for c in as_list(obs["dice_counts"])]
    own = [as_int(d) for d in as_list(obs["dice"])]
    if len(counts) != n or min(counts) < 0 or max(counts) > rules.dice or len(own) != counts[seat]:
        raise ValueError("the dice counts of the observation do not add up")
    if any(not 1 <= d <= FACES for d in own):
        raise ValueError("a die shows no face 1-6")
    st.dice = [own if s == seat else [rng.randint(1, FACES) for _ in range(c)] for s, c in enumerate(counts)]
    st.round = as_int(obs["round"])
    st.turn = NOBODY if obs["to_move"] is None else as_int(obs["to_move"])
    bid = obs["bid"]
    if bid is not None:
        quantity, face = (as_int(v) for v in as_list(bid))
        st.bid = rules.bid_id(quantity, face)
        st.bidder = as_int(obs["bidder"])
    st.history = [[as_int(v) for v in as_list(entry)] for entry in as_list(obs["history"])]
    st.out = [as_int(s) for s in as_list(obs["eliminated"])]
    last = obs["last_challenge"]
    st.last_challenge = None if last is None else as_map(last)
    if st.turn != NOBODY and not st.dice[st.turn]:
        raise ValueError("the seat to act holds no dice")
    return st
