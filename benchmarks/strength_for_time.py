"""Strength for time: each searching built-in bot thinking by the clock, and its decisions a second.

For each searching bot (``greedy``, ``ismcts``, and ``expert`` when it is installed) and each time
control of ``--tc`` (20 ms, 100 ms and 1 s a move), plays a round-robin at tables of 3 of the bot
thinking by its clock (no node budget), the reference ``greedy`` at level 3 (4 sampled states, a
node budget, so it plays the same whatever the clock) and ``random``, every deal in duplicate,
under the CPU clock (``--clock cpu``: a busy machine charges a bot only its own processor time).
Prints the bot's Elo with its 95% interval, the reference anchored at 1500. (``greedy`` against
itself shows what its clock buys over its node budget.)

Then each bot's decisions a second at its ladder budget (its ``nodes`` in
``examples/ladder-GAME.toml``: level 3 of :mod:`bots.shared.levels` for ``greedy`` and ``ismcts``,
``expert``'s own budget), measured in this process on processor time: ``--decisions`` decisions
(with a choice: a forced one is not counted) of a seat of the bot at tables of random seats.

Usage: python benchmarks/strength_for_time.py [--game wongar] [--bot expert] [--deals 8] [--tc 20ms --tc 100ms]
       [--skip-strength] [--decisions 200] [-j 2]
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import tempfile
import time
import tomllib
from collections.abc import Callable
from pathlib import Path

from ladder_reproducibility import ARENA, EXAMPLES, _bound, results

from arena.manifest import builtin_bots
from arena_bot.sdk import Choice, Clock, clock_reading
from bots.expert import expert_policy
from bots.greedy import greedy_policy
from bots.ismcts import ismcts_policy
from bots.shared.levels import level_nodes
from bots.shared.match import Match, Policy
from engine.core import WireMap
from engine.registry import get_game

VARIANTS = {"wongar": "basic", "waroong": "five-stars"}
#: The reference and the filler of every table, and the searching bots measured.
REFERENCE = "greedy"
SEARCHERS = ("greedy", "ismcts", "expert")
#: A clock an in-process bot with a node budget never nears.
UNTIMED = 3600.0


def untimed_action(choose: Policy, observation: WireMap, legal: tuple[int, ...]) -> int:
    """The action ``choose`` (a bot's policy in this process, on a node budget) takes, asked on a
    CPU clock of :data:`UNTIMED` seconds it never nears."""
    picked = choose(observation, legal, Clock(UNTIMED, 0.0, 0.0, "cpu", clock_reading("cpu")))
    return picked.action if isinstance(picked, Choice) else picked


def config_text(game: str, bot: str, tc: str, deals: int) -> str:
    """A round-robin of ``bot`` by its clock, the reference at level 3 and random."""
    return f"""name = "time-{bot}"
game = "{game}"
variant = "{VARIANTS[game]}"
table_size = 3
format = "round-robin"
deals = {deals}
time_control = "{tc}"
clock = "cpu"
strikes = 1000
seed = 11
trusted = true

[[bots]]
name = "{bot}-clock"
bot = "{bot}"

[[bots]]
name = "reference"
bot = "{REFERENCE}"
nodes = {level_nodes(REFERENCE, game, 3)}

[[bots]]
name = "random"
bot = "random"
"""


def strength(game: str, bot: str, tc: str, deals: int, jobs: int, folder: str) -> str:
    """One line: ``bot``'s rating by its clock at ``tc``, the reference at 1500."""
    config = Path(folder, f"{game}-{bot}-{tc}.toml")
    config.write_text(config_text(game, bot, tc, deals))
    db = Path(folder, f"{game}-{bot}-{tc}.db")
    started = time.monotonic()
    subprocess.run([*ARENA, "tournament", "run", str(config), "--db", str(db), "-j", str(jobs)],
                   check=True, stdout=subprocess.DEVNULL)
    board = subprocess.run([*ARENA, "leaderboard", "--db", str(db), "--format", "json",
                            "--anchor", "reference"], check=True, capture_output=True, text=True)
    rows = {row["bot"]: row for row in json.loads(board.stdout)["standings"]}
    moves, _, _ = results(db)
    row = rows[f"{bot}-clock"]
    low, high = _bound(row["ci_low"], -float("inf")), _bound(row["ci_high"], float("inf"))
    return (f"  {bot:7} {tc:>6}: {row['elo']:7.1f}  95% [{low:7.1f}, {high:7.1f}]  "
            f"({len(moves)} games, {time.monotonic() - started:.0f} s)")


POLICIES: dict[str, Callable[[Match], Policy]] = {
    "greedy": greedy_policy, "ismcts": ismcts_policy, "expert": expert_policy,
}


def ladder_nodes(game: str, bot: str) -> int:
    """``bot``'s node budget in the ladder config of ``game`` at tables of 3."""
    ladder = tomllib.loads((EXAMPLES / f"ladder-{game}.toml").read_text())
    (nodes,) = [int(entry["nodes"]) for entry in ladder["bots"] if entry["name"] == bot]
    return nodes


def decisions_per_second(game_name: str, bot: str, nodes: int, decisions: int) -> float:
    """Decisions with a choice a processor second of ``bot`` at ``nodes``, one seat at tables of
    random seats."""
    game = get_game(game_name)
    config = game.configure(3, VARIANTS[game_name], {})
    spent, made, seed = 0.0, 0, 0
    while made < decisions:
        state = game.start(config, seed)
        rng = random.Random(seed)
        choose = POLICIES[bot](Match(game, config, 0, random.Random(seed), nodes))
        while not state.is_over() and made < decisions:
            seat = state.to_move()[0]
            legal = state.legal_actions(seat)
            if seat != 0 or len(legal) == 1:
                state.apply(seat, rng.choice(legal))
                continue
            before = time.process_time()
            action = untimed_action(choose, state.observation(0), tuple(legal))
            spent += time.process_time() - before
            made += 1
            state.apply(0, action)
        seed += 1
    return made / spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", action="append", choices=sorted(VARIANTS))
    parser.add_argument("--deals", type=int, default=8, help="deals per bot and clock (each played 3 times)")
    parser.add_argument("--tc", action="append", help="time controls (default 20ms, 100ms, 1s)")
    parser.add_argument("--bot", action="append", choices=SEARCHERS, help="bots measured (default all)")
    parser.add_argument("--decisions", type=int, default=200, help="decisions timed per bot")
    parser.add_argument("--skip-strength", action="store_true", help="only the decisions a second")
    parser.add_argument("-j", "--concurrency", type=int, default=2, help="matches in parallel")
    args = parser.parse_args()
    searchers = [bot for bot in args.bot or SEARCHERS if bot in builtin_bots()]
    with tempfile.TemporaryDirectory() as folder:
        for game in args.game or sorted(VARIANTS):
            print(f"{game}:" if args.skip_strength else f"{game}: Elo by the CPU clock, reference "
                  f"{REFERENCE} (level 3) at 1500, random the third seat")
            for bot in [] if args.skip_strength else searchers:
                for tc in args.tc or ["20ms", "100ms", "1s"]:
                    print(strength(game, bot, tc, args.deals, args.concurrency, folder), flush=True)
            for bot in searchers:
                nodes = ladder_nodes(game, bot)
                rate = decisions_per_second(game, bot, nodes, args.decisions)
                print(f"  {bot:7} at its ladder budget ({nodes} nodes): {rate:8.1f} decisions/s", flush=True)


if __name__ == "__main__":
    main()
