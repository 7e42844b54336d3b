"""Tournaments: configs, schedules, the runner that plays them into the results store."""

from arena.errors import ArenaError


class TournamentError(ArenaError):
    """A tournament config, schedule or run problem the user can act on."""
