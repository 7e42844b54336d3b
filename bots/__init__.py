"""Built-in bots: each a program speaking the protocol, run as ``python -m bots.<name>``.

``random`` (uniform over legal actions), ``greedy`` (one step of look-ahead on sampled states,
scored by :mod:`bots.heuristics`) and ``ismcts`` (Information-Set Monte Carlo Tree Search, in
:mod:`bots.shared.tree_search`). Every top-level module here is a bot: shared code lives in the
subpackages.
"""
