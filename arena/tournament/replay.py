"""Rebuild a stored match step by step from its seed and decisions, for people to read."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass

from arena.record import MatchRecord
from arena.tournament import TournamentError
from engine.core import EngineError, IllegalAction, State
from engine.registry import get_game


@dataclass(frozen=True, slots=True)
class ReplayStep:
    """One moment of a replay: a heading, what happened since the last step, the board picture."""

    title: str
    happened: tuple[str, ...]
    picture: str
    final: bool


def replayed_otherwise(state: State, record: MatchRecord) -> str | None:
    """Why ``state``, rebuilt from ``record``'s seed and decisions, is not the match the record
    stores, or ``None`` if it is: a finished rebuild must end with the stored scores (a void
    record, with no result, is not compared). A difference means the game's engine played the
    same seed and decisions otherwise in this process, or the record was altered."""
    if record.void is not None or not state.is_over() or tuple(state.result().scores) == record.scores:
        return None
    return (f"it replays to the scores {list(state.result().scores)}, not the stored {list(record.scores)}: "
            "its engine played the same seed and decisions otherwise here (a deal or rule that depends on "
            "something beside the seed, such as the order of a set of strings), or the record was altered")


def replay_steps(record: MatchRecord, seat: int | None = None) -> Iterator[ReplayStep]:
    """The match as it went: the deal, then one step per decision, then the result.

    Omniscient when ``seat`` is ``None``; otherwise only what ``seat`` saw (its own decisions and
    the events of its view). Raises :class:`TournamentError` if the record does not replay, or
    replays to other scores than it stores (:func:`replayed_otherwise`).
    """
    if seat is not None and not 0 <= seat < record.players:
        raise TournamentError(f"seat {seat} is not in this game (seats 0-{record.players - 1})")
    try:
        game = get_game(f"{record.game}@{record.version}")
        state = game.start(record.config, record.seed)
    except EngineError as exc:
        raise TournamentError(f"cannot rebuild the game: {exc}") from None
    since = 0
    dealt: list[str] = []
    if seat is not None:
        events, since = state.events(seat, since)
        dealt = [json.dumps(e, default=str) for e in events]
    yield ReplayStep("deal", tuple(dealt), state.render(seat), not record.decisions)
    for ply, decision in enumerate(record.decisions):
        label = state.action_label(decision.action)
        try:
            state.apply_checked(decision.seat, decision.action)
        except IllegalAction as exc:
            raise TournamentError(f"decision {ply} does not replay: {exc}") from None
        who = f"seat {decision.seat} ({record.bots[decision.seat]})"
        if seat is None or seat == decision.seat:
            happened = [f"{who}: {label}" + (" [referee's fallback]" if decision.fallback else "")]
        else:
            happened = [f"{who} decided"]
        if seat is not None:
            events, since = state.events(seat, since)
            happened += [json.dumps(e, default=str) for e in events]
        last = ply == len(record.decisions) - 1
        yield ReplayStep(f"decision {ply + 1}/{len(record.decisions)}", tuple(happened),
                         state.render(seat), last and not state.is_over())
    differs = replayed_otherwise(state, record)
    if differs is not None:
        raise TournamentError(f"the game does not replay as stored: {differs}")
    if state.is_over():
        ranks = ", ".join(
            f"{bot}: {score} (rank {rank})"
            for bot, score, rank in zip(record.bots, record.scores, record.ranks)
        )
        yield ReplayStep("result", (ranks,), state.render(seat), True)
