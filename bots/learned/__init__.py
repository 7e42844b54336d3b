"""A learned policy as a bot: ``python -m bots.learned --policy FILE.npz`` (docs/rl.md).

:mod:`.network` holds the numpy network and its policy file; :mod:`.play` turns any vector policy
(a callable from the encoded observation and the action mask to an action id) into a bot speaking
the protocol. Kept in a subpackage of :mod:`bots`, which the sandbox shows to every bot, so that a
sandboxed entrant can run it; as a subpackage it is not a built-in bot name.
"""
