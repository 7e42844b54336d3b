"""The leaderboard as one self-contained HTML page (inline CSS; no scripts, no external assets),
readable from a 390 px phone up: wide tables scroll inside their own box, never the page.

Rendered from ``templates/index.html.j2`` with autoescaping, every text made inert
(:func:`leaderboards.inert.terminal`) first; every number shown is formatted by
:mod:`leaderboards.format`, the same as in the terminal and Markdown.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass

from leaderboards import format as fmt
from leaderboards.inert import html_templates
from leaderboards.model import Leaderboard

_environment = html_templates("leaderboards")


@dataclass(frozen=True, slots=True)
class ChartRow:
    """One bot's bar: the interval from ``low`` to ``high`` and the rating at ``mid``, each as a
    percentage of the chart's axis. An end only the prior bounds (too few games to bound it) is
    open: ``open_low`` or ``open_high``, and the bar runs from the rating towards the axis's end,
    drawn dashed with an arrow instead of as a measured interval."""

    bot: str
    label: str
    low: float
    mid: float
    high: float
    open_low: bool = False
    open_high: bool = False


@dataclass(frozen=True, slots=True)
class Chart:
    """The ratings chart: rows and axis ticks (percentage along the axis, label, and whether the
    label is also shown on a phone: at most :data:`PHONE_LABELS` of them, evenly spaced)."""

    rows: tuple[ChartRow, ...]
    ticks: tuple[tuple[float, str, bool], ...]


#: The most axis labels shown on a narrow screen, so that they never overlap.
PHONE_LABELS = 4


def render_html(board: Leaderboard, bot_pages: Mapping[str, str] | None = None) -> str:
    """The whole page as text; ``bot_pages`` (bot name to a relative link) makes each bot's name a
    link to its page and adds the site's navigation."""
    template = _environment.get_template("index.html.j2")
    meetings = {(m.bot, m.opponent): m for m in board.head_to_head}
    names = [s.bot for s in board.standings]
    crosstable = [
        (
            row,
            [
                (
                    f"{fmt.share(meetings[row, col].points / meetings[row, col].meetings)}",
                    meetings[row, col].meetings,
                )
                if (row, col) in meetings
                else None
                for col in names
            ],
        )
        for row in names
    ]
    settings = (
        [(key, _value(value)) for key, value in board.tournament.settings.items()]
        if board.tournament is not None
        else []
    )
    return template.render(
        board=board,
        fmt=fmt,
        chart=_chart(board),
        names=names,
        crosstable=crosstable,
        tournament_settings=settings,
        confidence=round(100 * board.settings.confidence),
        bot_pages=dict(bot_pages or {}),
    )


def _value(value: object) -> str:
    return value if isinstance(value, str) else json.dumps(value)


def _chart(board: Leaderboard) -> Chart:
    """Place every interval on a shared Elo axis with round-numbered ticks."""
    ends = [v for s in board.standings for v in (s.ci_low, s.elo, s.ci_high) if v is not None]
    low, high = min(ends), max(ends)
    span = max(high - low, 1.0)
    step = _tick_step(span)
    first = step * (low // step)
    last = max(step * -(-high // step), first + step)  # never an empty axis

    def x(value: float) -> float:
        return round(100 * (value - first) / (last - first), 2)

    rows = tuple(
        ChartRow(
            s.bot,
            f"{s.rank}. {s.bot}",
            x(first if s.ci_low is None else s.ci_low),  # an unbounded end runs to the axis's end
            x(s.elo),
            x(last if s.ci_high is None else s.ci_high),
            s.ci_low is None,
            s.ci_high is None,
        )
        for s in board.standings
    )
    count = round((last - first) / step)
    stride = -(-(count + 1) // PHONE_LABELS)
    ticks = tuple(
        (x(first + k * step), f"{first + k * step:.0f}", k % stride == 0) for k in range(count + 1)
    )
    return Chart(rows, ticks)


def _tick_step(span: float) -> float:
    """A round tick spacing giving about five to ten ticks over ``span`` Elo points."""
    step = 1.0
    while span / step > 10:
        for factor in (2.0, 2.5, 2.0):
            step *= factor
            if span / step <= 10:
                break
    return step
