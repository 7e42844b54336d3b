"""Golden playthroughs: a whole seeded game written out for people, and compared on every check.

A playthrough is a text file: a header line with everything needed to play it again (game key,
variant, players, knobs, seed), then each decision: who is to move, who decides, the legal actions
by label, the action a seeded random policy chose, and what every seat then saw (its new events, and
the parts of its observation that changed), and the final result. The same engine writes the same
text, so a stored file that no longer matches shows, as a unified diff, where the rules changed.

A game keeps its playthroughs in the folder ``playthroughs/`` beside the module that defines its
:class:`~engine.core.Game` class (:func:`playthrough_dir`).
"""

from __future__ import annotations

import difflib
import inspect
import json
import random
import re
from dataclasses import dataclass
from pathlib import Path

from arena.gamekit.setups import PLAYOUT_LIMIT, random_decision
from engine.core import ConfigError, Game, MatchConfig, State, derive_seed

_HEADER = re.compile(r"^# arena playthrough (?P<key>\S+) variant=(?P<variant>\S+) players=(?P<players>\d+) "
                     r"seed=(?P<seed>-?\d+) knobs=(?P<knobs>\{.*\})$")


@dataclass(frozen=True, slots=True)
class PlaythroughSetup:
    """What a stored playthrough says it plays."""

    key: str
    variant: str
    players: int
    seed: int
    knobs: dict[str, object]


def _json(value: object) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


def header(config: MatchConfig, seed: int) -> str:
    """The first line of a playthrough: enough to play it again."""
    return (f"# arena playthrough {config.key} variant={config.variant} players={config.players} "
            f"seed={seed} knobs={_json(dict(config.knobs))}")


def parse_header(line: str) -> PlaythroughSetup:
    """The setup a playthrough's first line names; ``ValueError`` if it is not a playthrough."""
    found = _HEADER.match(line.rstrip("\n"))
    if found is None:
        raise ValueError("the first line is not an arena playthrough header")
    knobs = json.loads(found["knobs"])
    if not isinstance(knobs, dict):
        raise ValueError("the header's knobs are not a JSON object")
    return PlaythroughSetup(found["key"], found["variant"], int(found["players"]), int(found["seed"]), knobs)


def _changes(before: object, after: object, path: str = "") -> list[str]:
    """``path: value`` lines for what is new or changed from ``before`` to ``after``, going into
    maps key by key (``a.b``) and into lists of unchanged length item by item (``a[2]``); any other
    value is shown whole."""
    if before is after or before == after:
        return []
    if isinstance(before, dict) and isinstance(after, dict):
        lines: list[str] = []
        for key, value in after.items():
            inner = f"{path}.{key}" if path else str(key)
            lines += _changes(before[key], value, inner) if key in before else [f"{inner}: {_json(value)}"]
        return lines + [f"{path}.{key}: (gone)" if path else f"{key}: (gone)" for key in before if key not in after]
    if isinstance(before, list) and isinstance(after, list) and len(before) == len(after) and path:
        return [line for i, (old, new) in enumerate(zip(before, after)) for line in _changes(old, new, f"{path}[{i}]")]
    return [f"{path or '(all)'}: {_json(after)}"]


def _who(seats: list[int], players: int) -> str:
    if len(seats) == players and players > 1:
        return "all"
    return f"seat {seats[0]}" if len(seats) == 1 else "seats " + ",".join(str(s) for s in seats)


def _grouped(plural: str, singular: str, per_seat: list[list[str]]) -> list[str]:
    """Each line once per time it was seen, naming every seat that saw it: a seat's lines keep
    their order (a line new to a seat goes before the next line it shares with seats before it),
    and a line a seat sees twice is two lines."""
    order: list[tuple[str, int]] = []
    seats: dict[tuple[str, int], list[int]] = {}
    for seat, lines in enumerate(per_seat):
        keys = [(line, lines[:i].count(line)) for i, line in enumerate(lines)]
        shared = [key in seats for key in keys]
        for i, key in enumerate(keys):
            if shared[i]:
                seats[key].append(seat)
                continue
            seats[key] = [seat]
            later = next((k for k, known in zip(keys[i + 1:], shared[i + 1:]) if known), None)
            order.insert(order.index(later) if later is not None else len(order), key)
    return [f"  {_who(seats[key], len(per_seat))} {singular if len(seats[key]) == 1 else plural} {key[0]}"
            for key in order]


class _Views:
    """What each seat saw last, to write only what is new: events since, and changed observation."""

    def __init__(self, players: int) -> None:
        self.cursors = [0] * players
        self.seen: list[object] = [{} for _ in range(players)]

    def news(self, state: State) -> list[str]:
        events: list[list[str]] = []
        changes: list[list[str]] = []
        for seat in range(len(self.cursors)):
            new, self.cursors[seat] = state.events(seat, self.cursors[seat])
            events.append([_json(event) for event in new])
            now = state.observation(seat)
            changes.append(_changes(self.seen[seat], now))
            self.seen[seat] = now
        return _grouped("get event", "gets event", events) + _grouped("see", "sees", changes)


def playthrough_text(game: Game, config: MatchConfig, seed: int) -> str:
    """The playthrough of the deal of ``seed``, decided by a random policy seeded from ``seed``."""
    state = game.start(config, seed)
    rng = random.Random(derive_seed(seed, "playthrough"))
    defaults = game.configure(config.players, config.variant).knobs
    knobs = "".join(f" -k {name}={value}" for name, value in config.knobs.items() if value != defaults[name])
    lines = [header(config, seed), f"# {game.title}: regenerate with: arena game playthrough {game.name} "
             f"--seed {seed} --players {config.players} --variant {config.variant}{knobs}", "", "start"]
    views = _Views(config.players)
    lines += views.news(state)
    last_offered: dict[int, tuple[int, str]] = {}
    step = 0
    while not state.is_over():
        if step >= PLAYOUT_LIMIT:
            raise ConfigError(f"no end after {PLAYOUT_LIMIT} decisions")
        step += 1
        seat, action = random_decision(state, rng)
        legal = " | ".join(f"{a} {state.action_label(a)}" for a in state.legal_actions(seat))
        offered = last_offered.get(seat)
        if offered is not None and offered[1] == legal:
            shown = f"as at step {offered[0]}"
        else:
            shown, last_offered[seat] = legal, (step, legal)
        lines += ["", f"step {step}: to move {list(state.to_move())}; seat {seat} decides",
                  f"  legal: {shown}", f"  chosen: {action} {state.action_label(action)}"]
        state.apply(seat, action)
        lines += views.news(state)
    result = state.result()
    lines += ["", f"end after {step} decisions", f"  scores: {list(result.scores)}",
              f"  ranks: {list(result.ranks)}", f"  detail: {_json(result.detail)}"]
    return "\n".join(lines) + "\n"


def playthrough_dir(game: Game) -> Path:
    """The folder of ``game``'s stored playthroughs: ``playthroughs/`` beside its class's module."""
    return Path(inspect.getfile(type(game))).parent / "playthroughs"


def file_name(config: MatchConfig, seed: int) -> str:
    """The stored name of a playthrough: ``VARIANT-Np-seedS.txt``."""
    return f"{config.variant}-{config.players}p-seed{seed}.txt"


def stored_playthroughs(game: Game) -> list[Path]:
    """``game``'s stored playthroughs, sorted by name (none if it has no folder)."""
    folder = playthrough_dir(game)
    return sorted(folder.glob("*.txt")) if folder.is_dir() else []


def difference(game: Game, path: Path, context: int = 3) -> str | None:
    """A unified diff from the stored playthrough at ``path`` to what ``game`` plays now, or ``None``
    if they are the same. Raises ``ValueError`` for a file that is not a playthrough of ``game``."""
    stored = path.read_text(encoding="utf-8")
    setup = parse_header(stored.partition("\n")[0])
    if setup.key != game.key:
        raise ValueError(f"it is a playthrough of {setup.key}, not {game.key}: regenerate it")
    config = game.configure(setup.players, setup.variant, setup.knobs)
    now = playthrough_text(game, config, setup.seed)
    if now == stored:
        return None
    diff = difflib.unified_diff(stored.splitlines(keepends=True), now.splitlines(keepends=True),
                                f"{path.name} (stored)", f"{path.name} (engine now)", n=context)
    return "".join(diff)
