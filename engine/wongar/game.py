"""The registered Wongar game: metadata, variants, knobs, action table, state factory."""

from __future__ import annotations

import random

from engine.core import ActionTable, Game, MatchConfig, State, Variant, WireMap
from engine.encoding import Encoder
from engine.wongar.actions import layout
from engine.wongar.board import board_from_knob
from engine.wongar.encoding import WongarEncoder
from engine.wongar.knobs import KNOBS
from engine.wongar.presentation import WongarPresentation
from engine.wongar.sampling import sample_state
from engine.wongar.state import WongarState, build_table_for


class WongarGame(Game):
    """Wongar (Alan R. Moon and Richard Borg), 3-5 players, basic game and Game for the Initiated."""

    name = "wongar"
    version = 2
    title = "Wongar"
    min_players = 3
    max_players = 5
    variants = (
        Variant("basic", "the basic game"),
        Variant(
            "initiated",
            "the Game for the Initiated: figure cards in hand, opening placement by choice, "
            "one Double each, ritual draws chosen from the pile, no ritual Scorpions",
        ),
    )
    knobs = KNOBS

    def encoder(self, config: MatchConfig) -> Encoder:
        """Observations as vectors for learning agents (see :mod:`engine.wongar.encoding`)."""
        return WongarEncoder(config, self.start(config, 0).observation(0))

    def presentation(self) -> WongarPresentation:
        """Wongar's words and its board picture on the site."""
        return WongarPresentation()

    def action_table(self, config: MatchConfig) -> ActionTable:
        """Every action of this configuration (see :mod:`engine.wongar.actions`)."""
        board = board_from_knob(str(config.knobs["board"]))
        lay = layout(len(board.names), config.players, config.variant == "initiated")
        return build_table_for(lay, board)

    def _new_state(self, config: MatchConfig, seed: int) -> State:
        state = WongarState(config, seed)
        state.begin()
        return state

    def sample_state(self, config: MatchConfig, seat: int, observation: WireMap, rng: random.Random) -> State:
        """A state consistent with ``seat``'s observation (see :mod:`engine.wongar.sampling`)."""
        return sample_state(config, seat, observation, rng)
