"""The root of every error the leaderboards layer raises on purpose."""


class LeaderboardError(Exception):
    """Results that cannot be rated or published as asked; the message says why and what to do."""
