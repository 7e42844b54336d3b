"""Which kinds of table have seat terms that only the prior keeps finite.

The seat terms of a kind of table (game and table size) have a finite maximum-likelihood value only
if, however its seats are split in two, a seat of each part finished at or above a seat of the other
in some game (the seats' "beat" graph is strongly connected): a seat that always won, for one, would
have a term of +∞ without the prior.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import connected_components

from leaderboards.stats import TableResults


def prior_bound_tables(
    tables: Sequence[TableResults], kinds: Iterable[tuple[str, int]]
) -> set[tuple[str, int]]:
    """The ``(game, players)`` among ``kinds`` whose seat terms are finite only because of the prior."""
    wanted = set(kinds)
    bound: set[tuple[str, int]] = set()
    for table in tables:
        for game in np.unique(table.game):
            kind = (str(game), table.players)
            if kind not in wanted:
                continue
            ranks = table.ranks[table.game == game]
            beat = (ranks[:, :, None] <= ranks[:, None, :]).any(axis=0)
            np.fill_diagonal(beat, False)
            parts, _ = connected_components(csr_matrix(beat), directed=True, connection="strong")
            if parts > 1:
                bound.add(kind)
    return bound
