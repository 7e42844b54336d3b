"""Waroong Wars (Harian Kompas 2015), 3-5 players, as the rulebook and the rulings of
docs/games/waroong.md settle it.

Variants: ``five-stars`` (default, with the 20 customer cards) and ``street-vendor`` (without).
Knobs: ``menus`` (the menu list; ``"standard"`` is the table of docs/games/waroong.md, the only list so far) and
``keep_rule`` (``"only-if-no-cook"``, default: only a player who cooked nothing this turn may keep one
grocery; ``"always"``: any player may).

Cards (ids used in observations are names): groceries ``beras daging sayur tahu petis`` (main) and
``sambal kerupuk`` (supplements); customers ``boss-beras .. boss-petis thief security charmer
businesswoman vip celebrity``; dishes by name (the row lists ``[name, points, groceries]``).

Action table (``GAME.action_table(config)``; ids fixed per player count and mode)
--------------------------------------------------------------------------------
=======  =====================================  ==============================================
ids      form                                   when
=======  =====================================  ==============================================
0-6      ``("pick", grocery)``                  draft, a kind in one's hand
7-12     ``("cook", position)``                 own turn, main step: start a dish at row pos
13-14    ``("add", "sambal"|"kerupuk")``        dish under construction
15       ``("serve",)``                         dish under construction
16       ``("end-turn",)``                      own turn, main step
17-23    ``("keep", grocery)``                  after ``end-turn``, if allowed to keep
24       ``("keep", "nothing")``                likewise
25-29    ``("boss", grocery)``                  Five Stars, dish under construction
30-      ``("thief", d)``, ``("charmer", d)``   Five Stars, main step; ``d`` = 1 .. players-1
then     ``("vip",)``                           Five Stars, main step
then     ``("security", "use"|"pass")``         Five Stars, the target of a Thief/Charmer
then     ``("businesswoman", "use"|"pass")``    Five Stars, offered at the start of a turn
=======  =====================================  ==============================================

Decision flow
-------------
1. Shopping (no decision): one menu opens at the left of the row (a row over 6 boxes its far-right
   card; with the menu deck empty the far-right card is boxed instead); 6 groceries are dealt to each.
2. Draft, **simultaneous**: ``to_move()`` lists every seat that has not picked in this step; each
   plays ``("pick", grocery)`` (by kind: the 7 kinds, only kinds in its hand). When all have picked,
   the picks are revealed to their owners only, and every hand passes to the left neighbour
   (seat ``s`` receives from ``s - 1``). Six steps.
3. Cooking, one turn per seat from the priority seat clockwise. At the start of each turn, in Five
   Stars, every seat that has not had its turn this phase and holds a Businesswoman is asked in turn
   (clockwise from the seat after the one about to cook) ``("businesswoman", "use"|"pass")``; the
   first to use it cooks now, and its own later turn this phase is skipped; then the offer is made
   again for the waiting seat. On a turn, the cooking seat chooses among:
   ``("cook", position)`` for each open menu it can make (0 is the left end), ``("end-turn",)``, and
   in Five Stars ``("thief", d)``, ``("charmer", d)`` (target: the seat ``d`` places to the left) and
   ``("vip",)``. After ``cook`` the dish is under construction: ``("add", "sambal"|"kerupuk")``
   (at most one of each per dish), ``("boss", grocery)`` (use a Boss in place of a grocery it could
   also pay with; where the groceries fall short the Boss is used automatically) and ``("serve",)``.
   Serving takes the menu card, discards the groceries, draws 1 customer card (Five Stars, while
   any are left), shifts the row right and opens a new menu at the left. After ``end-turn`` a seat
   allowed to keep (``keep_rule``) that still holds groceries chooses ``("keep", grocery)`` or
   ``("keep", "nothing")``; everything else is discarded face up.
4. Thief and Charmer aimed at a seat that holds a Security ask that seat ``("security",
   "use"|"pass")``; using it cancels the theft (both cards are used).
5. When every seat has cooked, the discards are shuffled under the grocery deck and priority passes
   left. The game ends the moment the menu deck and the row are both empty.

Settled where the rules are vague
---------------------------------
* Groceries of one kind are interchangeable, so cooking needs no choice of *which* cards: a dish
  spends its listed main groceries, Boss cards only where chosen or where groceries fall short.
* A Boss replaces one grocery of its own kind; a dish may be cooked from Boss cards alone.
* Supplements are optional, at most one of each kind per dish, and stay with the menu card (they
  leave the grocery cycle); each is +1 point.
* A kept card joins the holder's groceries when the next cooking phase starts (at most one kept).
* Thief steals uniformly from the target's picks plus kept card, and only targets a seat holding a
  grocery; Charmer steals uniformly from the target's customer cards, only from a seat holding one.
  The stolen card is the thief's at once. Customer cards are played only at the main step of one's
  own turn (never while a dish is under construction).
* "Has not cooked this phase" (Businesswoman) means has not had its cooking turn yet. Several
  holders are asked one at a time, clockwise; Businesswoman does not change who holds priority,
  which always passes left.
* With the customer deck empty nothing is drawn; with the grocery deck short, each is dealt
  ``deck // players`` (at most 6). Used customer cards score nothing; unused ones score 1,
  Celebrity 3. Ties: most menus cooked, then shared.

Observation (``observation(seat)``: a dict, keys as below)
----------------------------------------------------------
Public: ``phase`` (``draft cook dish keep security businesswoman over``; a pending Businesswoman
offer shows as ``businesswoman`` only to the seat asked, others see ``cook``), ``round``,
``priority``, ``turn``, ``done``, ``cooked_this_turn``, ``dish`` (the dish under construction),
``security`` (a Thief/Charmer awaiting an answer), ``row``, ``menu_deck`` (count), ``boxed``,
``cooked`` (per seat ``[dish, sambal, kerupuk]``), ``menu_points``, ``grocery_deck`` (count),
``grocery_discards``, ``hand_sizes``, ``pick_counts``, ``kept_counts``, ``customer_counts``,
``customer_deck`` (count), ``used_customers``. Own only: ``hand`` (draft hand), ``picked`` (this
step's pick while others still choose), ``picks``, ``kept``, ``customers``, ``offer``.

Chance and determinization
--------------------------
Each deck is shuffled from its own seed derived from the match seed; the first priority too. Chance in
play (Thief/Charmer steals, VIP reshuffle, discards under the deck) draws a fresh stream per event
from a chance seed and a running count, so a match replays exactly from its decisions.
``determinize(seat, rng)`` redeals everything ``seat`` cannot see among the places it cannot see
(other seats' hands, picks, pending picks, kept cards and customer cards, the grocery and customer
decks), keeping every count, reshuffles the menu deck, and reseeds future chance. It keeps what a
pending decision needs (a dish's groceries, a Security or Businesswoman being asked) but does not
remember the draft hands the seat saw pass by, nor which cards it saw stolen.
"""

from __future__ import annotations

from .game import WaroongGame

GAME = WaroongGame()

__all__ = ["GAME", "WaroongGame"]
