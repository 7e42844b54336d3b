"""What the built-in bots share: the match and clock handling (:mod:`.match`) and the search (:mod:`.tree_search`).

Kept in a subpackage so that only the bots themselves are top-level modules of :mod:`bots`, which the
arena lists as built-in bot names.
"""
