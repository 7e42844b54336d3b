"""A full Waroong Wars state from one seat's observation, the hidden information sampled (for search bots).

Copied from the observation: the phase and whose turn, the row, boxed and cooked menus, discards, used
customer cards, every count, the dish under construction, a pending Security, and the seat's own
hand, pick, picks, kept card and customer cards. Sampled: the other seats' hands, picks, kept cards
and customer cards and the deck orders, from the cards not accounted for (a dish under construction
keeps the groceries and Boss cards it needs, the target of a Thief/Charmer keeps its Security), the
menu deck order, and future chance. Whether another seat has already picked in this draft step is
invisible, so in the sample no other seat has; likewise a Businesswoman offer the seat is not asked
is invisible to it, so the sample then shows the turn begun.
"""

from __future__ import annotations

import random

from engine.core import MatchConfig, WireMap
from engine.wire import as_int, as_list, counts_by_name

from .cards import (
    BUSINESSWOMAN,
    CUSTOMER_COUNTS,
    CUSTOMERS,
    GROCERIES,
    GROCERY_COUNTS,
    KERUPUK,
    SAMBAL,
    SECURITY,
)
from .phases import DISH, OFFER, PHASES, SECURITY_STEP
from .rules import rules_of
from .state import NO_CARD, WaroongState


def sample_state(config: MatchConfig, seat: int, observation: WireMap, rng: random.Random) -> WaroongState:
    """A state whose ``observation(seat)`` is ``observation``; raises ``ValueError`` if none can be."""
    try:
        return _sample(config, seat, observation, rng)
    except (KeyError, TypeError, IndexError, AttributeError) as exc:
        raise ValueError(f"not a Waroong Wars observation for this setup: {type(exc).__name__} {exc}") from None


def _sample(config: MatchConfig, seat: int, obs: WireMap, rng: random.Random) -> WaroongState:
    rules = rules_of(config)
    n = rules.players
    if obs["players"] != n or obs["seat"] != seat or obs["mode"] != config.variant:
        raise ValueError("the observation is of another setup or seat")
    st = WaroongState.empty(rules, config, rng.getrandbits(63))
    st.chance = rng.getrandbits(63)
    dish_ids = {d.name: i for i, d in enumerate(rules.dishes)}
    st.phase = PHASES.index(str(obs["phase"]))
    st.rounds = as_int(obs["round"])
    st.priority = as_int(obs["priority"])
    st.turn = 0 if obs["turn"] is None else as_int(obs["turn"])
    st.done = [bool(v) for v in as_list(obs["done"])]
    st.cooked_now = as_int(obs["cooked_this_turn"])
    st.row = [dish_ids[str(as_list(entry)[0])] for entry in as_list(obs["row"])]
    st.boxed = [dish_ids[str(name)] for name in as_list(obs["boxed"])]
    st.cooked = [
        [(dish_ids[str(d)], as_int(s), as_int(k)) for d, s, k in (as_list(c) for c in as_list(cooked))]
        for cooked in as_list(obs["cooked"])
    ]
    st.menus = list(rules.menu_deck)
    for seen in st.row + st.boxed + [d for c in st.cooked for d, _, _ in c]:
        st.menus.remove(seen)
    rng.shuffle(st.menus)
    st.discards = counts_by_name(obs["grocery_discards"], GROCERIES)
    st.used = counts_by_name(obs["used_customers"], CUSTOMERS)
    st.hands[seat] = counts_by_name(obs["hand"], GROCERIES)
    st.picks[seat] = counts_by_name(obs["picks"], GROCERIES)
    kept = obs["kept"]
    st.kept[seat] = NO_CARD if kept is None else GROCERIES.index(str(kept))
    st.customers[seat] = counts_by_name(obs["customers"], CUSTOMERS)
    picked = obs["picked"]
    if picked is not None:
        st.pending[seat] = GROCERIES.index(str(picked))
    grocery_need = [[0] * len(GROCERIES) for _ in range(n)]
    customer_need = [[0] * len(CUSTOMERS) for _ in range(n)]
    dish = obs["dish"]
    if isinstance(dish, dict):
        st.dish_pos = as_int(dish["position"])
        st.dish_boss = [0] * len(st.dish_boss)
        for boss in as_list(dish["boss"]):
            st.dish_boss[CUSTOMERS.index(str(boss))] += 1
        supplements = [str(v) for v in as_list(dish["supplements"])]
        st.dish_sup = [int("sambal" in supplements), int("kerupuk" in supplements)]
        for kind, count in rules.dishes[st.row[st.dish_pos]].needs:
            grocery_need[st.turn][kind] = count - st.dish_boss[kind]
        grocery_need[st.turn][SAMBAL], grocery_need[st.turn][KERUPUK] = st.dish_sup
        customer_need[st.turn][: len(st.dish_boss)] = st.dish_boss
    security = obs["security"]
    if isinstance(security, dict):
        st.react_card = CUSTOMERS.index(str(security["card"]))
        st.react_by, st.react_target = as_int(security["by"]), as_int(security["target"])
        customer_need[st.react_target][SECURITY] = 1
    if st.phase not in (DISH, SECURITY_STEP) and (dish is not None or security is not None):
        raise ValueError("a dish or a Security answer outside its phase")
    cooked_supplements = [0] * len(GROCERIES)
    for cooked_by in st.cooked:
        for _, sambal, kerupuk in cooked_by:
            cooked_supplements[SAMBAL] += sambal
            cooked_supplements[KERUPUK] += kerupuk
    _deal_groceries(st, seat, obs, grocery_need, cooked_supplements, rng)
    _deal_customers(st, seat, obs, customer_need, rng)
    if st.phase == OFFER:
        order = [(st.turn + d) % n for d in range(1, n)]
        later = order[order.index(seat) + 1:]
        st.offers = [seat] + [o for o in later if not st.done[o] and st.customers[o][BUSINESSWOMAN]]
        st.offer_for = st.turn
    return st


def _deal_groceries(
    st: WaroongState,
    seat: int,
    obs: WireMap,
    need: list[list[int]],
    cooked_supplements: list[int],
    rng: random.Random,
) -> None:
    """The other seats' hands, picks and kept cards and the deck, from the groceries not seen."""
    n = st.rules.players
    pool_counts = [
        total - st.hands[seat][k] - st.picks[seat][k] - int(st.kept[seat] == k) - st.discards[k]
        - cooked_supplements[k] - sum(need[o][k] for o in range(n) if o != seat)
        for k, total in enumerate(GROCERY_COUNTS)
    ]  # fmt: skip
    if min(pool_counts) < 0:
        raise ValueError("the groceries of the observation do not add up")
    pool = [k for k, c in enumerate(pool_counts) for _ in range(c)]
    rng.shuffle(pool)
    hand_sizes = [as_int(v) for v in as_list(obs["hand_sizes"])]
    pick_counts = [as_int(v) for v in as_list(obs["pick_counts"])]
    kept_counts = [as_int(v) for v in as_list(obs["kept_counts"])]
    for o in range(n):
        if o == seat:
            continue
        st.hands[o] = _take(pool, hand_sizes[o], len(GROCERIES))
        free = _take(pool, pick_counts[o] - sum(need[o]), len(GROCERIES))
        st.picks[o] = [a + b for a, b in zip(free, need[o])]
        st.kept[o] = pool.pop() if kept_counts[o] else NO_CARD
    if len(pool) != as_int(obs["grocery_deck"]):
        raise ValueError("the groceries of the observation do not add up")
    st.groceries = pool


def _deal_customers(
    st: WaroongState, seat: int, obs: WireMap, need: list[list[int]], rng: random.Random
) -> None:
    """The other seats' customer cards and the customer deck, from the cards not seen."""
    n = st.rules.players
    totals = CUSTOMER_COUNTS if st.rules.customers else (0,) * len(CUSTOMERS)
    pool_counts = [
        total - st.customers[seat][k] - st.used[k] - sum(need[o][k] for o in range(n) if o != seat)
        for k, total in enumerate(totals)
    ]
    if min(pool_counts) < 0:
        raise ValueError("the customer cards of the observation do not add up")
    pool = [k for k, c in enumerate(pool_counts) for _ in range(c)]
    rng.shuffle(pool)
    counts = [as_int(v) for v in as_list(obs["customer_counts"])]
    for o in range(n):
        if o != seat:
            free = _take(pool, counts[o] - sum(need[o]), len(CUSTOMERS))
            st.customers[o] = [a + b for a, b in zip(free, need[o])]
    if len(pool) != as_int(obs["customer_deck"]):
        raise ValueError("the customer cards of the observation do not add up")
    st.customer_deck = pool


def _take(pool: list[int], size: int, kinds: int) -> list[int]:
    if size < 0 or size > len(pool):
        raise ValueError("the card counts of the observation do not add up")
    counts = [0] * kinds
    for _ in range(size):
        counts[pool.pop()] += 1
    return counts
