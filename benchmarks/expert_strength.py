"""The expert bot's strength: expert, ismcts (at its ladder budget) and greedy, with node budgets.

Plays ``benchmarks/expert-<game>.toml`` (one table of three, every deal in duplicate; with
``--players 4``, ``expert-<game>-4p.toml``, random in the fourth seat) through
``arena tournament run`` for each game asked for, then prints each bot's Elo with its 95% interval,
whether the intervals are disjoint, how far expert stands above ismcts, and each searching bot's
thinking: the mean nodes and milliseconds of a decision it searched (from its own ``info``), so its
decisions per second and nodes per second. The wall time depends on the machine and its load; the
games and ratings do not (node budgets).

Usage: python benchmarks/expert_strength.py [--game wongar --game waroong] [--players 3] [--deals N]
                                           [--db-folder DIR]
--deals defaults to the config's. With --db-folder each game's database is kept there, named like
its config (a run already stored there is resumed: only its missing games are played).
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import tomllib
from pathlib import Path

from ladder_reproducibility import play, report, results

from arena.store.db import Store

HERE = Path(__file__).resolve().parent


def thinking(db: Path) -> dict[str, tuple[int, float, float]]:
    """Per bot that searched: the decisions it searched, their mean nodes and mean milliseconds."""
    store = Store(db)
    try:
        seen: dict[str, list[tuple[float, float]]] = {}
        for game in store.games(store.tournament(None).name):
            for d in game.record.decisions:
                info = d.info or {}
                nodes, spent = info.get("nodes"), info.get("spent_ms")
                if isinstance(nodes, int) and nodes > 0 and isinstance(spent, (int, float)):
                    seen.setdefault(game.record.bots[d.seat], []).append((float(nodes), float(spent)))
    finally:
        store.close()
    return {bot: (len(rows), statistics.fmean(n for n, _ in rows), statistics.fmean(s for _, s in rows))
            for bot, rows in seen.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", action="append", choices=["wongar", "waroong"])
    parser.add_argument("--players", type=int, choices=[3, 4], default=3)
    parser.add_argument("--deals", type=int, help="deals per game (each played once per seat); default: the config's")
    parser.add_argument("--db-folder", type=Path, help="keep (and resume) the databases here")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        folder = args.db_folder or Path(scratch)
        for game in args.game or ["wongar", "waroong"]:
            name = f"expert-{game}" + ("" if args.players == 3 else f"-{args.players}p")
            db = folder / f"{name}.db"
            config = HERE / f"{name}.toml"
            seconds = play(config, db, args.deals or tomllib.loads(config.read_text())["deals"])
            moves, cut, board = results(db)
            print(name)
            report("node budgets", seconds, len(moves), cut, board)
            elo = {row["bot"]: row["elo"] for row in board}
            print(f"    expert - ismcts: {elo['expert'] - elo['ismcts']:+.1f} Elo")
            for bot, (searched, nodes, ms) in sorted(thinking(db).items()):
                print(f"    {bot:7} {searched} decisions searched, {nodes:.0f} nodes and {ms:.1f} ms each: "
                      f"{1000 / ms:.1f} decisions/s, {1000 * nodes / ms:.0f} nodes/s")


if __name__ == "__main__":
    main()
