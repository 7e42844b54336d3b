"""What the built-in bots share: the match and clock handling (:mod:`.match`), the search
(:mod:`.tree_search`) and the Waroong Wars draft memory (:mod:`.draft_memory`).

Kept in a subpackage so that only the bots themselves are top-level modules of :mod:`bots`, which the
arena lists as built-in bot names.
"""
