"""Head-to-head shares of built-in bots at tables played in this process, with node budgets.

Every table of PLAYERS bots drawn from those named plays every deal in every rotation of its
seats; prints, per bot, its mean final score, its processor time, and its share of the comparisons
won against each other bot it met (a comparison is one pair of seats in one game, by final rank;
a draw counts half), with the share's standard error. No referee, no processes: the bots' own
policies are called directly, so a table costs only the bots' thinking. With node budgets the
games, and so the shares, are the same on any machine; only the time depends on it.

Usage: python benchmarks/bot_tables.py GAME PLAYERS BOT BOT [BOT ...] [--deals N] [--seed S] [-j J]

A BOT is ``random``, ``greedy``, ``ismcts`` or ``expert``, with a node budget (``ismcts:400``) or
a level (``greedy@1``, :mod:`bots.shared.levels`); a bot named bare plays its budget in the game's
ladder config (``examples/ladder-GAME.toml``). A search may follow it with settings of its own
after a slash, ``name=value`` pairs of :class:`bots.shared.tree_search.Tuning`'s numbers
(``ismcts:100/widening=0,exploration=0.5``), the rest its game's (the same bot otherwise).

``sighted`` is no bot but a yardstick: ``ismcts``'s search (its settings and, named bare, its
budget) with every iteration on the true state, every hidden card and the order of every pile in
sight. What it wins beyond ``ismcts`` at the same budget is the most that knowing, or inferring,
the hidden information can buy that search.
"""

from __future__ import annotations

import argparse
import itertools
import math
import random
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, replace
from typing import Any

from strength_for_time import POLICIES as SEARCHING, VARIANTS, ladder_nodes, untimed_action

from arena_bot.sdk import Clock
from bots import expert, ismcts
from bots.heuristics import estimator, playout
from bots.shared.levels import LevelError, check_level, level_nodes
from bots.shared.match import Match, Policy
from bots.shared.tree_search import Tuning, search
from engine.core import State, WireMap
from engine.registry import get_game


def _random_policy(match: Match) -> Policy:
    def choose(observation: WireMap, legal: tuple[int, ...], clock: Clock) -> int:
        return match.rng.choice(legal)

    return choose


def _sighted_policy(match: Match, truth: Callable[[], State], tuning: Tuning) -> Policy:
    """``ismcts``'s search with ``tuning`` at ``match``'s node budget, every iteration on the true
    state ``truth()`` rather than on deals of what the seat can see."""
    game = match.config.game
    estimate, play_on, nodes = estimator(game), playout(game), match.nodes or 1

    def choose(observation: WireMap, legal: tuple[int, ...], clock: Clock) -> int:
        verdict = search(truth().clone(), match.seat, legal, estimate, play_on, lambda done: done < nodes,
                         match.rng, _in_sight, tuning)
        return verdict.action

    return choose


def _in_sight(root: State, seat: int, rng: random.Random) -> State:
    """A sighted search's dealer: the true state itself, nothing dealt anew."""
    return root


#: The bots a table can seat: random and the searching bots the strength-for-time benchmark times.
POLICIES: dict[str, Callable[[Match], Policy]] = {"random": _random_policy, **SEARCHING}
#: The yardstick that sees the true state (not a bot: see the module's docstring).
SIGHTED = "sighted"
#: The searches whose settings a table may change, and their settings in a game (by name).
TUNED: dict[str, Callable[[str], Tuning]] = {
    "ismcts": ismcts.tuning_for,
    "expert": expert.tuning_for,
    SIGHTED: ismcts.tuning_for,
}
#: The settings a table may change, and those of them that are whole numbers.
SETTING_NAMES = ("exploration", "widening", "answer_floor", "node_prior", "min_iterations")
WHOLE_SETTINGS = ("node_prior", "min_iterations")


@dataclass(frozen=True, slots=True)
class Entry:
    """A bot at a table: its name as given, the bot, and its node budget or level (or neither)."""

    spec: str
    bot: str
    nodes: int | None
    level: int | None
    settings: tuple[tuple[str, float], ...] = ()

    def match(self, game: str, base: Match) -> Match:
        """``base`` with this entry's node budget and level in ``game``."""
        nodes = self.nodes
        if nodes is None and self.level is not None:
            nodes = level_nodes(self.bot, game, self.level)
        elif nodes is None and self.bot != "random":
            nodes = ladder_nodes(game, "ismcts" if self.bot == SIGHTED else self.bot)
        return Match(base.game, base.config, base.seat, base.rng, nodes, self.level)

    def policy(self, match: Match, truth: Callable[[], State]) -> Policy:
        """This entry's bot for ``match``, its search with this entry's settings if it has any;
        ``truth()`` is the game's true state, which only :data:`SIGHTED` looks at."""
        if not self.settings and self.bot != SIGHTED:
            return POLICIES[self.bot](match)
        changes: dict[str, Any] = {name: int(value) if name in WHOLE_SETTINGS else value
                                   for name, value in self.settings}
        tuning = replace(TUNED[self.bot](match.config.game), **changes)
        if self.bot == SIGHTED:
            return _sighted_policy(match, truth, tuning)
        return ismcts.ismcts_policy(match, tuning)


def parse_settings(bot: str, text: str) -> tuple[tuple[str, float], ...]:
    """``name=value,...`` as settings of ``bot``'s search; argparse's error otherwise."""
    if bot not in TUNED:
        raise argparse.ArgumentTypeError(f"only {' and '.join(TUNED)} take settings, not {bot!r}")
    settings = []
    for pair in text.split(","):
        name, _, text_value = pair.partition("=")
        name = name.strip()
        if name not in SETTING_NAMES:
            raise argparse.ArgumentTypeError(f"{pair!r}: the settings are {', '.join(SETTING_NAMES)}")
        try:
            value = float(text_value)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{pair!r}: not a number") from None
        whole = name in WHOLE_SETTINGS
        if value < 0 or (whole and not value.is_integer()):
            raise argparse.ArgumentTypeError(f"{pair!r}: not a {'whole ' if whole else ''}number from 0")
        settings.append((name, value))
    return tuple(settings)


def parse_entry(spec: str) -> Entry:
    """``bot``, ``bot:NODES`` or ``bot@LEVEL``, then optionally ``/SETTINGS``, as an
    :class:`Entry`; argparse's error otherwise."""
    spec_bot, slash, settings_text = spec.partition("/")
    bot, at, level_text = spec_bot.partition("@")
    bot, colon, nodes_text = bot.partition(":")
    if bot not in POLICIES and bot != SIGHTED:
        raise argparse.ArgumentTypeError(f"{spec!r}: the bots are {', '.join([*POLICIES, SIGHTED])}")
    if colon and at:
        raise argparse.ArgumentTypeError(f"{spec!r}: a node budget or a level, not both")
    nodes = level = None
    if colon:
        if not nodes_text.isdigit() or int(nodes_text) < 1:
            raise argparse.ArgumentTypeError(f"{spec!r}: a node budget is a whole number from 1")
        nodes = int(nodes_text)
    if at:
        try:
            level = check_level(bot, int(level_text) if level_text.isdigit() else level_text)
        except LevelError as exc:
            raise argparse.ArgumentTypeError(f"{spec!r}: {exc}") from None
    settings = parse_settings(bot, settings_text) if slash else ()
    return Entry(spec, bot, nodes, level, settings)


@dataclass(frozen=True, slots=True)
class Game:
    """One game to play: the game, its deal's seed, and the entries by seat."""

    game: str
    seed: int
    seats: tuple[Entry, ...]


def play(job: Game) -> tuple[tuple[str, ...], tuple[int, ...], tuple[int, ...], tuple[float, ...]]:
    """Play ``job`` to its end: the seats' specs, final scores, ranks and processor seconds."""
    game = get_game(job.game)
    config = game.configure(len(job.seats), VARIANTS[job.game], {})
    state = game.start(config, job.seed)
    choosers = [entry.policy(entry.match(job.game, Match(game, config, seat, random.Random(job.seed * 31 + seat))),
                             lambda: state) for seat, entry in enumerate(job.seats)]
    spent = [0.0] * len(job.seats)
    while not state.is_over():
        seat = state.to_move()[0]
        legal = tuple(state.legal_actions(seat))
        action = legal[0]
        if len(legal) > 1:
            started = time.process_time()
            action = untimed_action(choosers[seat], state.observation(seat), legal)
            spent[seat] += time.process_time() - started
        state.apply(seat, action)
    result = state.result()
    return tuple(e.spec for e in job.seats), result.scores, result.ranks, tuple(spent)


def schedule(game: str, players: int, entries: Sequence[Entry], deals: int, seed: int) -> Iterator[Game]:
    """Every table of ``players`` entries, every deal, every rotation of the seats."""
    for deal in range(deals):
        for table in itertools.combinations(entries, players):
            for turn in range(players):
                yield Game(game, seed + deal, table[turn:] + table[:turn])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", choices=sorted(VARIANTS))
    parser.add_argument("players", type=int, choices=[3, 4, 5])
    parser.add_argument("bots", type=parse_entry, nargs="+", metavar="BOT")
    parser.add_argument("--deals", type=int, default=6, help="deals each table plays in every rotation")
    parser.add_argument("--seed", type=int, default=2000, help="the first deal's seed")
    parser.add_argument("-j", "--jobs", type=int, default=1, help="processes playing at once")
    args = parser.parse_args()
    if len({e.spec for e in args.bots}) != len(args.bots) or len(args.bots) < args.players:
        parser.error(f"name at least {args.players} different bots")
    won: dict[tuple[str, str], list[float]] = {}
    scores: dict[str, list[int]] = {e.spec: [] for e in args.bots}
    seconds = dict.fromkeys(scores, 0.0)
    started = time.time()
    jobs = list(schedule(args.game, args.players, args.bots, args.deals, args.seed))
    with ProcessPoolExecutor(args.jobs) as pool:
        for seats, final, ranks, spent in pool.map(play, jobs):
            for i, a in enumerate(seats):
                scores[a].append(final[i])
                seconds[a] += spent[i]
                for j, b in enumerate(seats):
                    if i != j:
                        won.setdefault((a, b), []).append(1.0 if ranks[i] < ranks[j] else 0.5 if ranks[i] == ranks[j] else 0.0)
    print(f"{args.game}, tables of {args.players}, {args.deals} deals in every rotation: "
          f"{len(jobs)} games in {time.time() - started:.0f} s")
    for a in scores:
        shares = []
        for b in scores:
            results = won.get((a, b))
            if results:
                p = sum(results) / len(results)
                shares.append(f"{b} {100 * p:.0f}% ±{100 * math.sqrt(p * (1 - p) / len(results)):.0f}")
        print(f"  {a:12} mean score {sum(scores[a]) / len(scores[a]):6.1f}, {seconds[a]:6.0f} s processor; "
              f"won against " + ", ".join(shares))


if __name__ == "__main__":
    main()
