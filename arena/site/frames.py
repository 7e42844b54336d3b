"""A stored game as replay data for the viewer: every state from the deal to the end, rebuilt
through the engine from the seed and the decisions, written as small changes step by step.

Each step holds what changed since the step before, on separate channels: ``pub`` (what every
seat saw alike) and ``priv[s]`` (what only seat ``s`` saw: its hand, a choice shown to it alone).
The omniscient view joins every channel; "as seat N saw it" joins ``pub`` and ``priv[N]`` only, so
the page never has another seat's hidden cards to show. A change is ``[path, value]`` (set) or
``[path]`` (remove), ``path`` a list of keys and list indexes. A step also holds the running
scores when they changed (``score``) and the events of the step in the game's own words
(``ev``: ``[seats, text]``, ``seats`` null when every seat saw it), and the decision log holds
each action in the game's own words: both from the game's presentation (:mod:`engine.presentation`).
A finished game also carries where its final scores came from (``breakdown``, see
:func:`final_breakdown`).
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

from arena.record import MatchRecord
from arena.tournament import TournamentError
from arena.tournament.replay import replayed_otherwise
from engine.core import EngineError, Game, IllegalAction, MatchConfig, State
from engine.presentation import Presentation, seat_names
from engine.registry import get_game

Change = list[Any]


def diff(old: Any, new: Any, path: list[Any] | None = None) -> list[Change]:
    """The changes that turn ``old`` into ``new``: maps and equal-length lists are entered, any
    other difference replaces the value whole."""
    at = path or []
    if old == new:
        return []
    if isinstance(old, Mapping) and isinstance(new, Mapping):
        changes: list[Change] = []
        for key in old:
            if key not in new:
                changes.append([[*at, key]])
        for key, value in new.items():
            if key in old:
                changes += diff(old[key], value, [*at, key])
            else:
                changes.append([[*at, key], value])
        return changes
    if isinstance(old, list) and isinstance(new, list) and len(old) == len(new):
        changes = []
        for index, (was, now) in enumerate(zip(old, new)):
            changes += diff(was, now, [*at, index])
        return changes
    return [[at, new]]


def private_keys(steps: Sequence[Sequence[Mapping[str, Any]]]) -> set[str]:
    """The keys some seat saw differently from another (or alone) at any step of ``steps`` (each
    step: every seat's observation). Keeping them private for the whole game means a key never
    moves between channels, which keeps the changes few."""
    private: set[str] = set()
    for views in steps:
        for key in {k for view in views for k in view}:
            first = views[0].get(key, _ABSENT)
            if first is _ABSENT or any(view.get(key, _ABSENT) != first for view in views[1:]):
                private.add(key)
    return private


#: Random playouts that :func:`game_private_keys` looks through.
PLAYOUTS = 3


def game_private_keys(game: Game, config: MatchConfig) -> frozenset[str]:
    """The keys ``game`` keeps private to a seat in a match of ``config``, as found in a few seeded
    random playouts: for following a game in play, where the seats' values may be alike now and
    still secret (every hand empty, or the same)."""
    return _game_private_keys(game, config.variant, config.players, json.dumps(dict(config.knobs), sort_keys=True))


@cache
def _game_private_keys(game: Game, variant: str, players: int, knobs: str) -> frozenset[str]:
    config = MatchConfig(game.name, game.version, variant, players, json.loads(knobs))
    found: set[str] = set()
    for seed in range(PLAYOUTS):
        state = game.start(config, seed)
        rng = random.Random(seed)
        steps = []
        while not state.is_over():
            steps.append([state.observation(s) for s in range(players)])
            seat = state.to_move()[0]
            state.apply(seat, rng.choice(state.legal_actions(seat)))
        found |= private_keys(steps)
    return frozenset(found)


def split_views(
    views: Sequence[Mapping[str, Any]], private_keys: set[str] | frozenset[str] | None = None
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Each seat's observation split into what all seats saw alike and what each saw alone
    (``seat`` itself is left out: the viewer knows whose view it draws). ``private_keys`` go to
    the seats' own channels whatever their values; without it, a key is private when the seats'
    values differ now."""
    keys = {k for view in views for k in view if k != "seat"}
    public: dict[str, Any] = {}
    private: list[dict[str, Any]] = [{} for _ in views]
    for key in sorted(keys):
        first = views[0].get(key, _ABSENT)
        alike = first is not _ABSENT and all(view.get(key, _ABSENT) == first for view in views[1:])
        if alike and (private_keys is None or key not in private_keys):
            public[key] = first
        else:
            for seat, view in enumerate(views):
                if key in view:
                    private[seat][key] = view[key]
    return public, private


_ABSENT = object()


def final_breakdown(presentation: Presentation, state: State) -> list[list[Any]] | None:
    """``[label, points by seat]`` rows of where the finished ``state``'s final scores came from
    (:meth:`Presentation.score_breakdown`, given every event of the match), or ``None`` while the
    game is not over. Rows whose columns do not sum to the final scores, or that do not hold a
    whole number for every seat, are not shown as a breakdown: the single row of the final scores
    takes their place."""
    if not state.is_over():
        return None
    scores = list(state.result().scores)
    rows = [[str(label), list(points)] for label, points in
            presentation.score_breakdown(state, [event.data for event in state.log])]
    whole = all(len(points) == len(scores) and all(type(p) is int for p in points) for _, points in rows)
    if not rows or not whole or [sum(column) for column in zip(*(points for _, points in rows))] != scores:
        return [[label, points] for label, points in Presentation().score_breakdown(state, [])]
    return rows


def replay_data(
    record: MatchRecord, game_id: str, about: Mapping[str, Any] | None = None, game: Game | None = None
) -> dict[str, Any]:
    """The replay of ``record`` as plain data for the viewer (see the module docstring).

    ``about`` adds facts for the page (tournament, placement); ``game`` is the record's game (the
    registered one of the record's key when ``None``). Raises :class:`TournamentError` if the
    record does not replay through its engine, or replays to other scores than it stores.
    """
    try:
        game = get_game(f"{record.game}@{record.version}") if game is None else game
        state = game.start(record.config, record.seed)
    except EngineError as exc:
        raise TournamentError(f"game {game_id}: cannot rebuild it: {exc}") from None
    presentation = game.presentation()
    names = seat_names(record.bots)
    players = record.players
    steps: list[dict[str, Any]] = []
    log: list[list[Any]] = []
    previous_public: dict[str, Any] = {}
    previous_private: list[dict[str, Any]] = [{} for _ in range(players)]
    previous_scores: list[int] = []

    moments: list[tuple[list[Mapping[str, Any]], list[int], list[list[Any]]]] = []
    seen_events = 0

    def look() -> None:
        nonlocal seen_events
        events = [[None if e.seats is None else sorted(e.seats), presentation.event_text(e.data, names)]
                  for e in state.log[seen_events:]]
        seen_events = len(state.log)
        moments.append(([state.observation(s) for s in range(players)], presentation.running_scores(state), events))

    look()
    for ply, decision in enumerate(record.decisions):
        label = presentation.action_text(state, decision.seat, decision.action)
        try:
            state.apply_checked(decision.seat, decision.action)
        except IllegalAction as exc:
            raise TournamentError(f"game {game_id}: decision {ply} does not replay: {exc}") from None
        log.append([decision.seat, label, round(decision.elapsed * 1000, 1), decision.info, decision.fallback])
        look()
    differs = replayed_otherwise(state, record)
    if differs is not None:
        raise TournamentError(f"game {game_id}: {differs}")
    hidden = private_keys([views for views, _, _ in moments]) | game_private_keys(game, record.config)
    for views, scores, events in moments:
        public, private = split_views(views, hidden)
        step: dict[str, Any] = {"pub": diff(previous_public, public)}
        private_changes = [diff(was, now) for was, now in zip(previous_private, private)]
        if any(private_changes):
            step["priv"] = private_changes
        if scores != previous_scores:
            step["score"] = scores
        if events:
            step["ev"] = events
        steps.append(step)
        previous_public, previous_private, previous_scores = public, private, scores
    return {
        "id": game_id,
        "game": record.game,
        "title": game.title,
        "version": record.version,
        "variant": record.variant,
        "knobs": dict(record.knobs),
        "bots": list(record.bots),
        "scores": list(record.scores),
        "ranks": list(record.ranks),
        "forfeited": list(record.forfeited),
        "faults": [[f.seat, f.kind.value, f.ply, f.detail] for f in record.faults],
        "duration": round(record.duration, 2),
        "complete": state.is_over(),
        "breakdown": final_breakdown(presentation, state),
        "about": dict(about or {}),
        "log": log,
        "steps": steps,
    }
