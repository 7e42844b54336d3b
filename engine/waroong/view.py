"""What a seat sees: the observation map for bots and the text picture for people."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.core import Wire, WireMap

from .cards import CUSTOMERS, GROCERIES, SAMBAL, expand, named
from .phases import (
    COOK_STEP,
    DISH,
    DRAFT,
    KEEP_STEP,
    OFFER,
    OVER,
    PHASES,
    SECURITY_STEP,
)

if TYPE_CHECKING:
    from .state import WaroongState


def _phase_seen(st: WaroongState, seat: int) -> int:
    """A pending Businesswoman offer is visible only to the seat asked; others see the turn begun."""
    if st.phase == OFFER and seat != st.offers[0]:
        return COOK_STEP
    return st.phase


def observation(st: WaroongState, seat: int) -> WireMap:
    """Exactly what ``seat`` may know (RULINGS "Information"); keys are documented in the package."""
    dishes = st.rules.dishes
    n = st.rules.players
    phase = _phase_seen(st, seat)
    cooking = phase in (COOK_STEP, DISH, KEEP_STEP, SECURITY_STEP, OFFER)
    dish: Wire = None
    if st.phase == DISH:
        dish = {
            "position": st.dish_pos,
            "dish": dishes[st.row[st.dish_pos]].name,
            "boss": [CUSTOMERS[k] for k in expand(st.dish_boss)],
            "supplements": [
                GROCERIES[SAMBAL + i] for i, on in enumerate(st.dish_sup) if on
            ],
        }
    security: Wire = None
    if st.phase == SECURITY_STEP:
        security = {
            "card": CUSTOMERS[st.react_card],
            "by": st.react_by,
            "target": st.react_target,
        }
    obs: WireMap = {
        "game": "waroong",
        "mode": st.config.variant,
        "seat": seat,
        "players": n,
        "phase": PHASES[phase],
        "round": st.rounds,
        "priority": st.priority,
        "turn": st.turn if cooking else None,
        "done": list(st.done) if cooking else [False] * n,
        "cooked_this_turn": st.cooked_now
        if st.phase in (COOK_STEP, DISH, KEEP_STEP, SECURITY_STEP)
        else 0,
        "dish": dish,
        "security": security,
        "offer": st.phase == OFFER and seat == st.offers[0],
        "row": [
            [dishes[d].name, dishes[d].points, list(dishes[d].groceries)]
            for d in st.row
        ],
        "menu_deck": len(st.menus),
        "boxed": [dishes[d].name for d in st.boxed],
        "cooked": [[[dishes[d].name, s, k] for d, s, k in c] for c in st.cooked],
        "grocery_deck": len(st.groceries),
        "grocery_discards": named(GROCERIES, st.discards),
        "hand": named(GROCERIES, st.hands[seat]),
        "hand_sizes": [sum(h) for h in st.hands],
        "picked": GROCERIES[st.pending[seat]]
        if st.phase == DRAFT and st.pending[seat] >= 0
        else None,
        "picks": named(GROCERIES, st.picks[seat]),
        "pick_counts": [sum(p) for p in st.picks],
        "kept": GROCERIES[st.kept[seat]] if st.kept[seat] >= 0 else None,
        "kept_counts": [int(k >= 0) for k in st.kept],
        "customers": named(CUSTOMERS, st.customers[seat]),
        "customer_counts": [sum(c) for c in st.customers],
        "customer_deck": len(st.customer_deck),
        "used_customers": named(CUSTOMERS, st.used),
        "menu_points": [
            sum(dishes[d].points + s + k for d, s, k in c) for c in st.cooked
        ],
    }
    return obs


def _counts_text(names: tuple[str, ...], counts: list[int]) -> str:
    parts = [
        f"{names[k]}x{c}" if c > 1 else names[k] for k, c in enumerate(counts) if c
    ]
    return ", ".join(parts) or "-"


def render(st: WaroongState, seat: int | None = None) -> str:
    """A text picture: omniscient (``seat=None``) or as ``seat`` sees it."""
    dishes = st.rules.dishes
    phase = st.phase if seat is None else _phase_seen(st, seat)
    lines = [
        f"Waroong Wars ({st.config.variant}), round {st.rounds}, phase {PHASES[phase]}, "
        f"priority seat {st.priority}"
        + (f", turn seat {st.turn}" if phase != DRAFT and phase != OVER else ""),
        "row (left to right): "
        + (" | ".join(f"{dishes[d].name} ({dishes[d].points})" for d in st.row) or "-"),
        (
            f"menu deck {len(st.menus)}, boxed {len(st.boxed)}; grocery deck {len(st.groceries)}, "
            f"discards {_counts_text(GROCERIES, st.discards)}"
        ),
    ]
    if st.rules.customers:
        lines.append(
            f"customer deck {len(st.customer_deck)}, used {_counts_text(CUSTOMERS, st.used)}"
        )
    for s in range(st.rules.players):
        cooked = ", ".join(
            dishes[d].name + ("+sambal" if a else "") + ("+kerupuk" if b else "")
            for d, a, b in st.cooked[s]
        )
        lines.append(f"seat {s}: cooked [{cooked or '-'}]")
        if seat is None or seat == s:
            lines.append(
                f"  hand {_counts_text(GROCERIES, st.hands[s])}; picks {_counts_text(GROCERIES, st.picks[s])}"
            )
            kept = GROCERIES[st.kept[s]] if st.kept[s] >= 0 else "-"
            lines.append(
                f"  kept {kept}"
                + (
                    f"; customers {_counts_text(CUSTOMERS, st.customers[s])}"
                    if st.rules.customers
                    else ""
                )
            )
        else:
            lines.append(
                f"  hand {sum(st.hands[s])} cards; picks {sum(st.picks[s])}; kept {int(st.kept[s] >= 0)}"
                + (f"; customers {sum(st.customers[s])}" if st.rules.customers else "")
            )
    if st.phase == OVER:
        lines.append("final scores: " + ", ".join(str(x) for x in st.scores()))
    return "\n".join(lines)
