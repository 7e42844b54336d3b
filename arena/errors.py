"""The root of every error the arena layer raises on purpose."""


class ArenaError(Exception):
    """A problem the user can act on; its message says what went wrong and what to do."""
