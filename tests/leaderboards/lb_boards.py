"""Hand-made leaderboards with every kind of line, for the known-answer tests of the published forms."""

from __future__ import annotations

from leaderboards.model import (
    FaultCounts,
    Flag,
    Latency,
    Leaderboard,
    Meeting,
    RatingSettings,
    Rounds,
    SeatAdvantage,
    Standing,
    TournamentInfo,
)
from leaderboards.sprt import SprtResult, SprtSettings


def league() -> Leaderboard:
    """A provisional swiss league with a running SPRT, a field split in two groups, an anchor, flags,
    unbounded interval ends, a note, seat terms with and without a prior bound, and faults."""
    sprt = SprtResult("Alpha", SprtSettings(0.0, 20.0, 0.05, 0.1), blocks=7, score=0.75, llr=1.25, verdict=None)
    info = TournamentInfo(
        "Night <League>",
        {"games": "wongar", "rounds": 5, "time": {"move": 1.5}},
        provisional=True,
        sprt=sprt,
        rounds=Rounds(2, 5),
    )
    return Leaderboard(
        tournament=info,
        settings=RatingSettings(bootstrap_samples=200, confidence=0.9, anchor="Alpha", anchor_elo=1600.0),
        games=14,
        blocks=6,
        standings=(
            Standing(1, "Alpha", 1612.34, 1590.0, 1641.26, 1608.76, 12, 0.75, 1.5, 0.5, 0, 0.8123, 0, ()),
            Standing(2, "Beta|x", 1550.04, None, 1570.0, 1551.0, 8, 0.25, 2.75, 0.125, 3, None, 0,
                     (Flag.WINLESS, Flag.FEW_GAMES)),
            Standing(3, "Gamma", 1500.0, 1480.04, None, 1500.0, 2, 1.0, 1.0, 1.0, 21, None, 1,
                     (Flag.UNBEATEN, Flag.REMOTE)),
        ),
        los=((0.5, 0.8123, None), (0.1877, 0.5, None), (None, None, 0.5)),
        head_to_head=(Meeting("Alpha", "Beta|x", 8, 6.0), Meeting("Beta|x", "Alpha", 8, 2.0)),
        seat_advantage=(
            SeatAdvantage("wongar", 4, 0, 12, 2.25, 1 / 3, 25.04, False),
            SeatAdvantage("wongar", 4, 1, 12, 2.75, 1 / 6, -25.04, True),
            SeatAdvantage("waroong", 2, 0, 2, 1.0, 1.0, None),
        ),
        faults=(
            FaultCounts("Alpha"),
            FaultCounts("Beta|x", crash=1, forfeits=2),
            FaultCounts("Gamma", timeout=1, illegal=2, crash=3, malformed=4, start=5, forfeits=6),
        ),
        latency=(
            Latency("Alpha", 10, 0.0123, 0.0456, 0.0789),
            Latency("Beta|x", 3, 0.5, 1.0, 1.25),
            Latency("Gamma", 0, None, None, None),
        ),
        groups=(("Alpha", "Beta|x"), ("Gamma",)),
        notes=("the rating fit did not converge (3 iterations): ratings may be off",),
    )


def pair() -> Leaderboard:
    """The plainest board: two bots in one group, no tournament, default settings, nothing flagged."""
    return Leaderboard(
        tournament=None,
        settings=RatingSettings(),
        games=3,
        blocks=3,
        standings=(
            Standing(1, "One", 1520.5, 1480.3, 1560.7, 1519.5, 3, 2 / 3, 1.3333, 2 / 3, 0, 0.7, 0, ()),
            Standing(2, "Two", 1479.5, 1440.0, 1519.96, 1480.5, 3, 1 / 3, 1.6667, 1 / 3, 0, None, 0, ()),
        ),
        los=((0.5, 0.7), (0.3, 0.5)),
        head_to_head=(Meeting("One", "Two", 3, 2.0), Meeting("Two", "One", 3, 1.0)),
        seat_advantage=(SeatAdvantage("wongar", 2, 0, 3, 1.3333, 2 / 3, 10.0),
                        SeatAdvantage("wongar", 2, 1, 3, 1.6667, 1 / 3, -10.0)),
        faults=(FaultCounts("One"), FaultCounts("Two")),
        latency=(Latency("One", 4, 0.001, 0.002, 0.003), Latency("Two", 4, 0.004, 0.005, 0.006)),
        groups=(("One", "Two"),),
    )
