"""What a seat sees: the observation map for bots and the text picture for people."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.core import Wire, WireMap

from engine.parts import copy_first, copy_rows

from .cards import CUSTOMERS, GROCERIES, SAMBAL, Dish, expand, named
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
    """Exactly what ``seat`` may know (docs/games/waroong.md, K8); keys are documented in the package.

    Read-only to callers: parts are kept in ``st.parts`` and handed out again while unchanged (see
    :mod:`engine.parts`), so a part that is the same object as in an earlier observation has not
    changed since.
    """
    parts = st.parts
    dishes = st.rules.dishes
    n = st.rules.players
    phase = _phase_seen(st, seat)
    cooking = phase in (COOK_STEP, DISH, KEEP_STEP, SECURITY_STEP, OFFER)
    dish: Wire = None
    if st.phase == DISH:
        dish = parts.same("dish", {
            "position": st.dish_pos,
            "dish": dishes[st.row[st.dish_pos]].name,
            "boss": [CUSTOMERS[k] for k in expand(st.dish_boss)],
            "supplements": [GROCERIES[SAMBAL + i] for i, on in enumerate(st.dish_sup) if on],
        })  # fmt: skip
    security: Wire = None
    if st.phase == SECURITY_STEP:
        security = parts.same("security", {
            "card": CUSTOMERS[st.react_card], "by": st.react_by, "target": st.react_target,
        })  # fmt: skip
    obs: WireMap = {
        "game": "waroong",
        "mode": st.config.variant,
        "seat": seat,
        "players": n,
        "phase": PHASES[phase],
        "round": st.rounds,
        "priority": st.priority,
        "turn": st.turn if cooking else None,
        "done": parts.same("done", list(st.done) if cooking else [False] * n),
        "cooked_this_turn": st.cooked_now
        if st.phase in (COOK_STEP, DISH, KEEP_STEP, SECURITY_STEP)
        else 0,
        "dish": dish,
        "security": security,
        "offer": st.phase == OFFER and seat == st.offers[0],
        "row": parts.get("row", (st.row, dishes), copy_first, _row_view),
        "menu_deck": len(st.menus),
        "boxed": parts.get("boxed", (st.boxed, dishes), copy_first, _dish_names),
        "cooked": parts.get("cooked", (st.cooked, dishes), _copy_cooked, _cooked_view),
        "grocery_deck": len(st.groceries),
        "grocery_discards": parts.get("grocery_discards", st.discards, list.copy, _groceries),
        "hand": parts.get(("hand", seat), st.hands[seat], list.copy, _groceries),
        "hand_sizes": parts.get("hand_sizes", st.hands, copy_rows, _sums),
        "picked": GROCERIES[st.pending[seat]]
        if st.phase == DRAFT and st.pending[seat] >= 0
        else None,
        "picks": parts.get(("picks", seat), st.picks[seat], list.copy, _groceries),
        "pick_counts": parts.get("pick_counts", st.picks, copy_rows, _sums),
        "kept": GROCERIES[st.kept[seat]] if st.kept[seat] >= 0 else None,
        "kept_counts": parts.get("kept_counts", st.kept, list.copy, _kept_counts),
        "customers": parts.get(("customers", seat), st.customers[seat], list.copy, _customers),
        "customer_counts": parts.get("customer_counts", st.customers, copy_rows, _sums),
        "customer_deck": len(st.customer_deck),
        "used_customers": parts.get("used_customers", st.used, list.copy, _customers),
        "menu_points": parts.get("menu_points", (st.cooked, dishes), _copy_cooked, _menu_points),
    }
    return obs


Cooked = tuple[list[list[tuple[int, int, int]]], tuple[Dish, ...]]


def _copy_cooked(source: Cooked) -> Cooked:
    return copy_rows(source[0]), source[1]


def _row_view(source: tuple[list[int], tuple[Dish, ...]]) -> list[Wire]:
    row, dishes = source
    return [[dishes[d].name, dishes[d].points, list(dishes[d].groceries)] for d in row]


def _dish_names(source: tuple[list[int], tuple[Dish, ...]]) -> list[Wire]:
    ids, dishes = source
    return [dishes[d].name for d in ids]


def _cooked_view(source: Cooked) -> list[Wire]:
    cooked, dishes = source
    return [[[dishes[d].name, s, k] for d, s, k in menus] for menus in cooked]


def _menu_points(source: Cooked) -> list[Wire]:
    cooked, dishes = source
    return [sum(dishes[d].points + s + k for d, s, k in menus) for menus in cooked]


def _groceries(counts: list[int]) -> dict[str, Wire]:
    return named(GROCERIES, counts)


def _customers(counts: list[int]) -> dict[str, Wire]:
    return named(CUSTOMERS, counts)


def _sums(rows: list[list[int]]) -> list[Wire]:
    return [sum(row) for row in rows]


def _kept_counts(kept: list[int]) -> list[Wire]:
    return [int(k >= 0) for k in kept]


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
