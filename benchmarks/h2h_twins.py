"""How alike the twin blocks of real deal pairs are: the correlation of the candidate's and the
baseline's block scores over the deal pairs of a stored ``arena test --fill`` run.

``benchmarks/h2h_power.py`` prints the same correlation for its model at each value of
``--shared``; the row whose correlation matches the real one is the row that applies. Also prints
the mean and spread of the differences ``d`` and the share of deal pairs with ``d = 0``.

Usage: python benchmarks/h2h_twins.py DB [DB ...]   (each with one ``arena test --fill`` run)
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

from arena.store.db import Store
from arena.tournament.config import config_from_plain
from arena.tournament.sprt import SprtMonitor


def twins(db: Path) -> tuple[str, list[tuple[float, float]]]:
    """The paired test's tournament in ``db`` and its complete deal pairs' block scores."""
    with Store(db) as store:
        row = next(t for t in store.tournaments() if t.name.startswith("test-"))
        config = config_from_plain(row.config, source=f"{db}: tournament {row.name!r}")
        if not config.paired:
            raise SystemExit(f"{db}: {row.name} is not a paired test (run arena test with --fill)")
        monitor = SprtMonitor(config)
        monitor.add_stored(store.games(row.name))
    bots = ", ".join(f"{b.name}={b.bot}" + (f"/{b.nodes}" if b.nodes else "") for b in config.bots)
    return bots, [(float(c), float(b)) for c, b in monitor.twins]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("db", type=Path, nargs="+")
    args = parser.parse_args()
    for db in args.db:
        bots, pairs = twins(db)
        scores = np.array(pairs)
        d = scores[:, 0] - scores[:, 1]
        r = float(np.corrcoef(scores[:, 0], scores[:, 1])[0, 1]) if len(pairs) > 2 else float("nan")
        print(f"{db} ({bots}): {len(pairs)} deal pairs; twin block correlation {r:.3f}; "
              f"block score sd {scores[:, 0].std(ddof=1):.4f} (candidate), "
              f"{scores[:, 1].std(ddof=1):.4f} (baseline); d mean {d.mean():+.4f}, sd "
              f"{d.std(ddof=1):.4f}, d = 0 in {100 * float((d == 0).mean()):.0f}%")


if __name__ == "__main__":
    main()
