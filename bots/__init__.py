"""Built-in bots: each a program speaking the protocol, run as ``python -m bots.<name>``.

``random`` (uniform over legal actions), ``greedy`` (one step of look-ahead on sampled states,
scored by :mod:`bots.heuristics`), ``ismcts`` (Information-Set Monte Carlo Tree Search, in
:mod:`bots.shared.tree_search`) and ``expert`` (the same search, more focused, on a larger
budget). Every top-level module here is a bot: shared code lives in the
subpackages.
"""
