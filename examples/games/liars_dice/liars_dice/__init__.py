"""Liar's Dice for Arena, 2-6 players: hidden dice, rising bids, "liar!" (docs/games/liars_dice.md).

Variants: ``standard`` (default: a die counts only as its own face; bids name faces 1-6) and
``wild-ones`` (a one counts as every face; bids name faces 2-6). Knob: ``dice``, the dice each
seat starts with (default 5, 1-10).

Flow: every round each seat still in rolls its dice in secret. The opener bids; then, clockwise
over the seats still in, each either raises the bid or challenges it. A bid ``q x f`` claims that
at least ``q`` dice on the whole table count as face ``f``; a raise has a larger quantity, or the
same quantity and a higher face (at most the number of dice on the table). A challenge reveals
every die: if at least ``q`` count, the challenger loses a die, else the bidder does. The loser
opens the next round (if out, the next seat clockwise still in). A seat without dice is out; the
last seat with dice wins. Seat 0 opens the first round.

Actions (``GAME.action_table(config)``): id 0 ``("challenge",)``; ids 1.. ``("bid", q, f)`` in
ascending strength, so the legal bids are every id above the standing bid's, up to the strongest
bid the dice on the table allow. A seat to act holds at least one legal action.

Observation keys: ``game``, ``variant``, ``seat``, ``players``, ``dice_each``, ``round``,
``dice`` (own dice, ascending), ``dice_counts``, ``to_move``, ``bid`` (``[q, f]`` or ``None``),
``bidder``, ``history`` (this round's bids, ``[seat, q, f]``), ``eliminated`` (seats in the order
they went out), ``last_challenge`` (the latest challenge: ``round seat bidder quantity face count
loser dice``, every seat's dice as revealed, or ``None``).

Events: ``round`` (public), ``rolled`` (private: the seat's own dice), ``bid``, ``challenge``
(with every die revealed), ``eliminated`` (with the place), ``end``. :func:`describe_event` gives
each in words.

Result: a seat's score is the number of seats it outlasted (the winner ``players - 1``), so the
ranks are the elimination order reversed; ``detail`` holds ``rounds``, ``end``, ``winner`` and
``eliminated``.

Chance: round ``r``'s roll of seat ``s`` is drawn from its own stream of the match seed, so a match
replays exactly from its decisions. ``determinize`` rolls the other seats' dice anew and reseeds
future rolls; bids are claims, not information, so every such roll is consistent with them.
"""

from __future__ import annotations

from .game import LiarsDiceGame
from .words import describe_event

GAME = LiarsDiceGame()

__all__ = ["GAME", "LiarsDiceGame", "describe_event"]
