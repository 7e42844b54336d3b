"""The jail of an untrusted bot: bubblewrap namespaces, an identity of its own, control groups.

:mod:`arena.sandbox.jail` builds the bubblewrap command, :mod:`arena.sandbox.cgroups` owns the
bot's control groups, :mod:`arena.sandbox.identity` chooses who the bot runs as, and
:mod:`arena.sandbox.probe` says what this machine provides. :mod:`arena.launch` carries out what
they decide in the bot's process before ``exec``; only :mod:`arena.process` and ``arena doctor``
use them.
"""

from arena.errors import ArenaError


class SandboxError(ArenaError):
    """A sandbox that cannot be set up on this machine."""
