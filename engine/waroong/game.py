"""The Waroong Wars game object: metadata, variants, knobs, action table and the state factory."""

from __future__ import annotations

import random

from engine.core import ActionTable, Game, Knob, MatchConfig, Variant, WireMap, choice_knob

from engine.encoding import Encoder

from .actions import action_table
from .cards import MENU_LISTS
from .encoding import WaroongEncoder
from .presentation import WaroongPresentation
from .rules import FIVE_STARS, KEEP_ALWAYS, KEEP_IF_NO_COOK, STREET_VENDOR, rules_of
from .sampling import sample_state
from .state import WaroongState


class WaroongGame(Game):
    """Waroong Wars for 3-5 players: Five Stars (with customer cards) and Street Vendor (without)."""

    name = "waroong"
    version = 2
    title = "Waroong Wars"
    min_players = 3
    max_players = 5
    variants = (
        Variant(
            FIVE_STARS,
            "Waroong Bintang Lima: the regular game, with the 20 customer cards.",
        ),
        Variant(
            STREET_VENDOR, "Waroong Kali Lima: the basic game, without customer cards."
        ),
    )
    knobs: tuple[Knob, ...] = (
        choice_knob(
            "menus",
            "standard",
            tuple(MENU_LISTS),
            "the menu list: 'standard' is the project's table (10 dishes, 2 copies each)",
        ),
        choice_knob(
            "keep_rule",
            KEEP_IF_NO_COOK,
            (KEEP_IF_NO_COOK, KEEP_ALWAYS),
            "who may keep one grocery at the end of a cooking turn: "
            "'only-if-no-cook' (a player who cooked nothing) or 'always'",
        ),
    )

    def encoder(self, config: MatchConfig) -> Encoder:
        """Observations as vectors for learning agents (see :mod:`engine.waroong.encoding`)."""
        return WaroongEncoder(config, self.start(config, 0).observation(0))

    def presentation(self) -> WaroongPresentation:
        """Waroong Wars' words and its table picture on the site."""
        return WaroongPresentation()

    def action_table(self, config: MatchConfig) -> ActionTable:
        return action_table(config.players, config.variant == FIVE_STARS)

    def _new_state(self, config: MatchConfig, seed: int) -> WaroongState:
        return WaroongState.deal(rules_of(config), config, seed)

    def sample_state(self, config: MatchConfig, seat: int, observation: WireMap, rng: random.Random) -> WaroongState:
        """A state consistent with ``seat``'s observation (see :mod:`engine.waroong.sampling`)."""
        return sample_state(config, seat, observation, rng)
