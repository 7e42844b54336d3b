"""Pebbles: a tiny real game that provides no presentation of its own, for the generic view.

Each of three rounds, every seat at once secretly takes one or two pebbles; once all have taken,
the takes are revealed and added to the seats' piles. The most pebbles wins.
"""

from __future__ import annotations

import random

from engine.core import ActionTable, Event, Game, MatchConfig, Result, State, Variant, WireMap, ranks_from_keys

ROUNDS = 3
TABLE = ActionTable([(("take", 1), "take 1"), (("take", 2), "take 2")])


class PebblesState(State):
    """The piles, the round, and this round's secret takes so far."""

    def __init__(self, config: MatchConfig) -> None:
        self.config = config
        self.log = []
        self.round = 1
        self.piles = [0] * config.players
        self.takes: dict[int, int] = {}

    def to_move(self) -> tuple[int, ...]:
        if self.is_over():
            return ()
        return tuple(s for s in range(self.config.players) if s not in self.takes)

    def legal_actions(self, seat: int) -> list[int]:
        return [0, 1] if seat in self.to_move() else []

    def apply(self, seat: int, action: int) -> None:
        self.takes[seat] = action + 1
        self.log.append(Event(frozenset({seat}), {"type": "took", "seat": seat, "pebbles": action + 1}))
        if len(self.takes) == self.config.players:
            for taker, count in self.takes.items():
                self.piles[taker] += count
            self.log.append(Event(None, {"type": "revealed", "takes": [self.takes[s] for s in sorted(self.takes)]}))
            self.takes = {}
            self.round += 1

    def observation(self, seat: int) -> WireMap:
        return {"seat": seat, "round": self.round, "piles": list(self.piles), "mine": self.takes.get(seat)}

    def is_over(self) -> bool:
        return self.round > ROUNDS

    def result(self) -> Result:
        return Result(tuple(self.piles), ranks_from_keys([(p,) for p in self.piles]))

    def clone(self) -> PebblesState:
        copy = PebblesState(self.config)
        copy.log, copy.round, copy.piles, copy.takes = list(self.log), self.round, list(self.piles), dict(self.takes)
        return copy

    def determinize(self, seat: int, rng: random.Random) -> PebblesState:
        copy = self.clone()
        copy.takes = {s: t if s == seat else rng.choice((1, 2)) for s, t in self.takes.items()}
        return copy

    def render(self, seat: int | None = None) -> str:
        return f"round {min(self.round, ROUNDS)} of {ROUNDS}; piles {self.piles}"

    def table(self) -> ActionTable:
        return TABLE


class PebblesGame(Game):
    """Pebbles for two or three seats, no variants, no knobs, no presentation."""

    name = "pebbles"
    version = 1
    title = "Pebbles"
    min_players = 2
    max_players = 3
    variants = (Variant("plain", "the only way"),)
    knobs = ()

    def action_table(self, config: MatchConfig) -> ActionTable:
        return TABLE

    def _new_state(self, config: MatchConfig, seed: int) -> PebblesState:
        return PebblesState(config)

    def sample_state(self, config: MatchConfig, seat: int, observation: WireMap, rng: random.Random) -> PebblesState:
        state = PebblesState(config)
        state.round = int(str(observation["round"]))
        piles = observation["piles"]
        if not isinstance(piles, list):
            raise ValueError("piles must be a list")
        state.piles = [int(str(p)) for p in piles]
        if isinstance(observation["mine"], int):
            state.takes[seat] = observation["mine"]
        return state


GAME = PebblesGame()
