"""The values a leaderboard is made of: what was rated, how, and every table it publishes.

Ratings are on the Elo scale (points, mean 1500 within each connected group); shares are fractions in
0..1; places are fractional finishing places (1 best; tied seats share the mean of the places they
span); latencies are seconds.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field

from engine.core import Wire
from leaderboards.sprt import SprtResult


class Flag(str, enum.Enum):
    """Why a bot's rating deserves a second look."""

    UNBEATEN = "unbeaten"
    """It never finished below another bot: without the prior its rating would be infinite."""
    WINLESS = "winless"
    """It never finished above another bot: without the prior its rating would be minus infinity."""
    PRIOR_BOUND = "prior-bound"
    """Its group splits into parts one of which never finished below the other; the gap between
    them, and so this bot's rating, is finite only because of the prior."""
    FEW_GAMES = "few-games"
    """It played fewer games than the settings' ``few_games`` threshold."""
    REMOTE = "remote"
    """A remote entrant: it played from its owner's machine, where what it remembers, its hardware
    and any help it gets cannot be controlled (docs/remote.md)."""


@dataclass(frozen=True, slots=True)
class Rounds:
    """A swiss tournament's rounds: ``played`` (every game stored) of ``total``."""

    played: int
    total: int


@dataclass(frozen=True, slots=True)
class TournamentInfo:
    """What was rated: a name, the settings to publish (plain data), whether play is still going,
    and where a gauntlet's early-stopping test stands (``sprt``) or a swiss tournament's ``rounds``."""

    name: str
    settings: Mapping[str, Wire] = field(default_factory=dict)
    provisional: bool = False
    sprt: SprtResult | None = None
    rounds: Rounds | None = None
    #: The bots that played as remote entrants (flagged ``remote``).
    remote: tuple[str, ...] = ()


#: Resamples for the intervals: with the expanded percentile interval, enough for 95% intervals to
#: hold the true rating 95% of the time (benchmarks/ratings_coverage.py measures it).
DEFAULT_BOOTSTRAP_SAMPLES = 1000


@dataclass(frozen=True, slots=True)
class RatingSettings:
    """How ratings are fitted.

    ``prior_sd`` is the standard deviation (Elo points) of the Gaussian prior on every rating and
    seat term about the mean; ``anchor`` pins one bot at ``anchor_elo`` (its group shifts with it);
    ``bootstrap_samples`` resamples give ``confidence`` intervals; ``seed`` makes them repeatable.
    ``max_iterations`` bounds the Newton steps of each fit (the rating and the pairwise column);
    one that stops short of its tolerance is reported in the board's notes. ``prior_sd`` must be finite.
    """

    seat_terms: bool = True
    prior_sd: float = 1000.0
    anchor: str | None = None
    anchor_elo: float = 1500.0
    bootstrap_samples: int = DEFAULT_BOOTSTRAP_SAMPLES
    confidence: float = 0.95
    seed: int = 0
    few_games: int = 20
    max_iterations: int = 100


@dataclass(frozen=True, slots=True)
class Standing:
    """One bot's line: rating with its interval, the cross-check, and its results.

    ``score`` is the share of points against the opponents met (each other seat of each game: 1 for
    finishing above it, 1/2 for a tie); ``win_share`` the share of games won (a shared win split);
    ``los_next`` the likelihood that this bot is stronger than the next one down (``None`` for the
    last line or when the next is in another group); ``faults`` counts faults and forfeits.
    ``ci_low``/``ci_high`` are ``None`` where only the prior bounds the rating (flags ``unbeaten``:
    no upper end; ``winless``: no lower end; ``prior-bound``: neither).
    """

    rank: int
    bot: str
    elo: float
    ci_low: float | None
    ci_high: float | None
    pairwise_elo: float
    games: int
    score: float
    average_place: float
    win_share: float
    faults: int
    los_next: float | None
    group: int
    flags: tuple[Flag, ...]


@dataclass(frozen=True, slots=True)
class Meeting:
    """``bot`` against ``opponent``: ``points`` for ``bot`` over ``meetings`` seat pairs compared (one
    per shared game, unless a bot held several seats of it)."""

    bot: str
    opponent: str
    meetings: int
    points: float


@dataclass(frozen=True, slots=True)
class SeatAdvantage:
    """How seat ``seat`` fared at ``players``-seat tables of ``game``.

    ``elo`` is the fitted seat term in Elo points against the average seat of that table (``None``
    when seat terms are off); ``prior_bound``: the terms of that table are finite only because of
    the prior (see :mod:`leaderboards.seats`).
    """

    game: str
    players: int
    seat: int
    games: int
    average_place: float
    win_share: float
    elo: float | None
    prior_bound: bool = False


@dataclass(frozen=True, slots=True)
class FaultCounts:
    """A bot's faults by kind, and the games it forfeited."""

    bot: str
    timeout: int = 0
    illegal: int = 0
    crash: int = 0
    malformed: int = 0
    start: int = 0
    forfeits: int = 0

    @property
    def total(self) -> int:
        """Every fault and forfeit."""
        return self.timeout + self.illegal + self.crash + self.malformed + self.start + self.forfeits


@dataclass(frozen=True, slots=True)
class Latency:
    """A bot's reply times in seconds over its ``decisions`` (fallbacks excluded); ``None`` if none."""

    bot: str
    decisions: int
    p50: float | None
    p90: float | None
    p99: float | None


@dataclass(frozen=True, slots=True)
class Leaderboard:
    """Everything published about a set of results.

    ``standings`` are best first; ``los[i][j]`` is the likelihood that standing ``i`` is stronger than
    standing ``j`` (``None`` across groups); ``groups`` lists the bots of each group of the field
    connected through results (ratings compare only within a group); ``blocks`` counts the resampled
    units (duplicate blocks, or games); ``notes`` are warnings every published form shows (a fit
    that did not converge, seat terms only the prior bounds); ``clock`` is what timed the games'
    decisions: ``"cpu"``, ``"wall"``, ``"mixed"`` (games differ) or ``None`` (not recorded).
    """

    tournament: TournamentInfo | None
    settings: RatingSettings
    games: int
    blocks: int
    standings: tuple[Standing, ...]
    los: tuple[tuple[float | None, ...], ...]
    head_to_head: tuple[Meeting, ...]
    seat_advantage: tuple[SeatAdvantage, ...]
    faults: tuple[FaultCounts, ...]
    latency: tuple[Latency, ...]
    groups: tuple[tuple[str, ...], ...]
    notes: tuple[str, ...] = ()
    clock: str | None = None

    @property
    def provisional(self) -> bool:
        """Whether the tournament was still running when rated."""
        return self.tournament is not None and self.tournament.provisional

    @property
    def title(self) -> str:
        """A heading for the published forms."""
        name = self.tournament.name if self.tournament is not None else "Leaderboard"
        return f"{name} (provisional)" if self.provisional else name
