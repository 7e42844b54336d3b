"""The results store: an embedded SQLite database (WAL) of tournaments, bots and games."""

from arena.errors import ArenaError


class StoreError(ArenaError):
    """The database cannot be used: not an arena store, corrupt, too new, or a conflicting write."""
