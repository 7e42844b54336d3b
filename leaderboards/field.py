"""Flags from how the results connect the field: who finished above whom, what that leaves unbounded.

Plackett–Luce maximum likelihood is finite for a group of bots exactly when, however the group is
split in two, someone in each part finished at or above someone in the other (the "beat" graph is
strongly connected). A tie counts both ways.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import connected_components

from leaderboards.model import Flag

IndexArray = NDArray[np.intp]
BoolArray = NDArray[np.bool_]


def flags(
    beat: BoolArray, components: IndexArray, games: Sequence[int], few_games: int
) -> list[tuple[Flag, ...]]:
    """Every bot's flags from ``beat[i, j]`` (bot ``i`` finished at or above bot ``j`` at least
    once), the connected ``components`` and every bot's number of games."""
    _, strong = connected_components(csr_matrix(beat), directed=True, connection="strong")
    group_size = np.bincount(components)
    strong_size = np.bincount(strong)
    result: list[tuple[Flag, ...]] = []
    for i, played in enumerate(games):
        found: list[Flag] = []
        met = bool(beat[i].any() or beat[:, i].any())
        if met and not beat[:, i].any():
            found.append(Flag.UNBEATEN)
        if met and not beat[i].any():
            found.append(Flag.WINLESS)
        if met and strong_size[strong[i]] < group_size[components[i]]:
            found.append(Flag.PRIOR_BOUND)
        if played < few_games:
            found.append(Flag.FEW_GAMES)
        result.append(tuple(found))
    return result
