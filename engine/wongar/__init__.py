"""Wongar for the arena: the basic game and the Game for the Initiated, 3-5 players.

Decision flow (one seat decides at a time; everything automatic happens inside ``apply``):

1. Initiated only, before round 1: ``setup_place`` - from the Ancestor's owner clockwise, each seat
   places one of its 12 opening pieces (4 per kind) with ``("place", kind, territory)``.
2. Each round: start-player rule and reveals (round 2 on), then the Elder's privilege (basic: a blind
   draw, automatic; Initiated: ``choose_ritual``, ``("choose", kind)``), then from the start player
   clockwise one ``take`` decision each: ``("take", territory)`` or, Initiated,
   ``("play_card", "Ancestor" | "Elder")``. A seat with nothing to take is skipped.
3. The taken card resolves through small steps:
   * piece card: the first piece goes into the card's territory automatically; then up to two
     ``piece_extra`` steps: ``("place", kind, territory)`` (the card's kind), ``("draw_ritual",)``
     (basic, blind) or ``("choose", kind)`` (Initiated), or ``("stop",)`` to forgo the rest;
   * Triple: ``triple`` steps of ``("place", kind, territory)``, up to 3 pieces, the kind fixed by the
     first; Four ritual cards: 4 blind draws (basic) or 4 ``choose_ritual`` steps (Initiated);
   * Ancestor / Elder (card or Initiated figure card): ``ancestor_move`` ``("ancestor_to", t)``
     (adjacent) or ``elder_move`` ``("elder_to", t)`` (distance 1-2), then a ceremony there;
     Ancestor-and-Elder: both figures to the card's territory, ceremony there.
4. Ceremony: from the Ancestor's owner clockwise, each active participant gets ``ceremony_play``:
   ``("play", card)`` or ``("pass",)`` (which drops them out). A participant who has lost its last
   piece there drops out automatically; one with no card that could do anything is skipped (event
   ``skip``) but stays in, since the board may change. After ``("play", card)`` comes
   ``ceremony_effect``: ``("remove", kind, seat)`` (A), ``("move_out", kind, t)`` (B) or
   ``("move_in", kind, t)`` (C) - a single card fixes the kind; a Double takes two such steps of one
   kind and one mode (the second only if one fits). When no active participant can play, the
   majorities score.

Choices where the rules leave room: a ritual card is offered only if it can do something there
(a participant with no such card is skipped, docs/games/wongar.md W10); a Double's second piece is compulsory when
one fits; ``("stop",)`` forgoes both remaining piece-card extras at once; a blind draw that finds
nothing but Scorpions (all other cards in hands) resolves the Scorpion it draws and then gives no card;
a seat with nothing to take in its turn is skipped.

Every action id is listed once in the fixed table (:mod:`engine.wongar.actions`); the observation
(:mod:`engine.wongar.view`) carries a ``pending`` map naming the decision and its context.

Information: a seat sees its own ritual hand, every hand size, the pile size, discards, the whole
board, face-up cards, the territory cards in front of every player, scores, the Scorpion and figure
owners. Stack orders and other hands stay hidden. The one exception: in the Game for the Initiated a
seat sees the draw pile's contents (``pile``) while it is choosing from it (``choose_ritual``, and
``piece_extra`` where choosing is one of the options), since the rules let it look through the pile.
"""

from engine.wongar.game import WongarGame

GAME = WongarGame()

__all__ = ["GAME", "WongarGame"]
