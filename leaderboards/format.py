"""How numbers read in every published form (terminal, Markdown, HTML): one place, one style."""

from __future__ import annotations

from leaderboards.model import Flag, Leaderboard, SeatAdvantage, Standing

MISSING = "—"

#: The interval of a rating that only the prior keeps finite (:attr:`Flag.PRIOR_BOUND`).
TOO_FEW = "too few games"


def elo(value: float) -> str:
    """A rating in Elo points, one decimal."""
    return f"{value:.1f}"


def margin(standing: Standing) -> str:
    """The interval's ends as signed distances from the rating: ``−12.3/+14.0``; an end only the
    prior bounds is ``−∞`` or ``+∞``. A prior-bound bot, whose games leave its place in the order
    open, gets :data:`TOO_FEW` instead: its rating and interval rest on the prior alone.

    A bootstrap interval need not contain the estimate; an end on the other side keeps its sign
    (``+0.4/+30.2``)."""
    if Flag.PRIOR_BOUND in standing.flags:
        return TOO_FEW
    low = "−∞" if standing.ci_low is None else _offset(standing.ci_low - standing.elo)
    high = "+∞" if standing.ci_high is None else _offset(standing.ci_high - standing.elo)
    return f"{low}/{high}"


def _offset(value: float) -> str:
    """A signed distance, one decimal, with a true minus sign and no negative zero."""
    rounded = round(value, 1) + 0.0
    return f"{rounded:+.1f}".replace("-", "−")


def share(value: float | None) -> str:
    """A fraction as a percentage, one decimal; a dash if unknown."""
    return MISSING if value is None else f"{100 * value:.1f}%"


def los(standing: Standing) -> str:
    """The likelihood of superiority over the next bot down; a dash if unknown or if the bot is
    prior-bound (the prior alone would decide it)."""
    return MISSING if Flag.PRIOR_BOUND in standing.flags else share(standing.los_next)


def place(value: float) -> str:
    """A mean finishing place, two decimals."""
    return f"{value:.2f}"


def milliseconds(seconds: float | None) -> str:
    """A duration given in seconds, shown in milliseconds with one decimal; a dash if unknown."""
    return MISSING if seconds is None else f"{1000 * seconds:.1f}"


def seat_term(advantage: SeatAdvantage) -> str:
    """A seat term with its sign (a true minus), marked when only the prior bounds it; a dash if
    seat terms are off."""
    if advantage.elo is None:
        return MISSING
    return _offset(advantage.elo) + (" (prior-bound)" if advantage.prior_bound else "")


def too_few_games(board: Leaderboard) -> str | None:
    """A plain sentence naming the prior-bound bots, which the games so far cannot rank (``None``
    if there are none)."""
    bots = [s.bot for s in board.standings if Flag.PRIOR_BOUND in s.flags]
    if not bots:
        return None
    every = len(bots) == len(board.standings)
    return (
        f"{TOO_FEW} to rank {'these bots' if every else ', '.join(bots)}: the results so far leave "
        f"{'their' if len(bots) > 1 else 'its'} order open (one side never finished below the "
        "other), so the ratings shown rest on the prior alone; play more deals"
    )


#: What each board clock (:attr:`Leaderboard.clock`) charged decisions.
CLOCKS = {
    "cpu": "each bot's own CPU time",
    "wall": "elapsed time",
    "mixed": "CPU time in some games, elapsed time in others",
}


def clock_line(board: Leaderboard) -> str | None:
    """What timed the rated games' decisions, e.g. ``clock: cpu (decisions timed by each bot's own
    CPU time)``; ``None`` where the games do not record it."""
    if board.clock is None:
        return None
    return f"clock: {board.clock} (decisions timed by {CLOCKS[board.clock]})"


def bot_label(standing: Standing) -> str:
    """The bot's name followed by its flags, if any."""
    if not standing.flags:
        return standing.bot
    return f"{standing.bot} ({', '.join(flag.value for flag in standing.flags)})"


def progress_lines(board: Leaderboard) -> list[str]:
    """Where a swiss tournament's rounds and a gauntlet's early-stopping test stand (none for
    other formats)."""
    info = board.tournament
    lines: list[str] = []
    if info is not None and info.rounds is not None:
        lines.append(f"swiss: {info.rounds.played} of {info.rounds.total} rounds played")
    if info is not None and info.sprt is not None:
        lines.append(info.sprt.describe())
    return lines
