"""The Liar's Dice game object: metadata, variants, the dice knob, action table and state factory."""

from __future__ import annotations

import random

from engine.core import ActionTable, Game, Knob, MatchConfig, Variant, WireMap
from engine.encoding import Encoder
from engine.presentation import Presentation

from .encoding import LiarsDiceEncoder
from .presentation import LiarsDicePresentation
from .rules import STANDARD, WILD_ONES, rules_of
from .sampling import sample_state
from .state import LiarsDiceState

#: Most dice a seat may start with (the ``dice`` knob).
MAX_DICE = 10


def parse_dice(raw: object) -> int:
    """The ``dice`` knob: a whole number 1-10 (a number, or its digits as text)."""
    if isinstance(raw, bool):
        raise ValueError(f"expected a whole number 1-{MAX_DICE}, got {raw!r}")
    if isinstance(raw, str) and raw.strip().isdigit():
        raw = int(raw.strip())
    if not isinstance(raw, int) or not 1 <= raw <= MAX_DICE:
        raise ValueError(f"expected a whole number 1-{MAX_DICE}, got {raw!r}")
    return raw


class LiarsDiceGame(Game):
    """Liar's Dice for 2-6 players: plain faces, or ones wild."""

    name = "liars_dice"
    version = 1
    title = "Liar's Dice"
    min_players = 2
    max_players = 6
    contract = 1
    variants = (
        Variant(STANDARD, "every face counts only as itself; bids name faces 1-6"),
        Variant(WILD_ONES, "a one counts as every face; bids name faces 2-6"),
    )
    knobs: tuple[Knob, ...] = (
        Knob("dice", 5, f"dice each seat starts with (1-{MAX_DICE})", parse=parse_dice),
    )

    def action_table(self, config: MatchConfig) -> ActionTable:
        """``("challenge",)`` then every bid in ascending strength (see :mod:`liars_dice.rules`)."""
        return rules_of(config).table

    def _new_state(self, config: MatchConfig, seed: int) -> LiarsDiceState:
        return LiarsDiceState.deal(rules_of(config), config, seed)

    def presentation(self) -> Presentation:
        """Events in sentences naming the seats, and its own viewer on the site."""
        return LiarsDicePresentation()

    def encoder(self, config: MatchConfig) -> Encoder:
        """Observations as vectors for learning agents (see :mod:`liars_dice.encoding`)."""
        return LiarsDiceEncoder(config)

    def sample_state(self, config: MatchConfig, seat: int, observation: WireMap, rng: random.Random) -> LiarsDiceState:
        """A state consistent with ``seat``'s observation (see :mod:`liars_dice.sampling`)."""
        return sample_state(config, seat, observation, rng)
