"""The leaderboard as one self-contained HTML page (inline CSS and SVG; no scripts, no external assets).

Rendered from ``templates/index.html.j2`` with autoescaping, every text made inert
(:func:`arena.inert.terminal`) first; every number shown is formatted by
:mod:`leaderboards.format`, the same as in the terminal and Markdown.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from jinja2 import Environment, PackageLoader, select_autoescape

from arena.inert import terminal
from leaderboards import format as fmt
from leaderboards.model import Leaderboard


def _inert(value: object) -> object:
    """Every text the page shows, controls and bidi overrides made visible (then autoescaped)."""
    return terminal(value) if isinstance(value, str) else value


_environment = Environment(
    loader=PackageLoader("leaderboards", "templates"),
    autoescape=select_autoescape(["html", "j2"], default=True),
    finalize=_inert,
    trim_blocks=True,
    lstrip_blocks=True,
)

CHART_WIDTH = 720
"""Width of the ratings chart in SVG user units (pixels at 100%)."""
LABEL_WIDTH = 180
ROW_HEIGHT = 24


@dataclass(frozen=True, slots=True)
class ChartRow:
    """One bot's bar: the interval from ``low`` to ``high`` and the rating at ``mid`` (SVG x), at ``y``."""

    bot: str
    label: str
    low: float
    mid: float
    high: float
    y: float


@dataclass(frozen=True, slots=True)
class Chart:
    """The ratings chart: rows, axis ticks (x, label), size."""

    rows: tuple[ChartRow, ...]
    ticks: tuple[tuple[float, str], ...]
    width: int
    height: int


def render_html(board: Leaderboard) -> str:
    """The whole page as text."""
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
    last = step * -(-high // step)
    plot = CHART_WIDTH - LABEL_WIDTH - 20

    def x(value: float) -> float:
        return round(LABEL_WIDTH + plot * (value - first) / (last - first), 1)

    rows = tuple(
        ChartRow(
            s.bot,
            f"{s.rank}. {s.bot}",
            x(first if s.ci_low is None else s.ci_low),  # an unbounded end runs to the axis's end
            x(s.elo),
            x(last if s.ci_high is None else s.ci_high),
            ROW_HEIGHT * (i + 0.5) + 10,
        )
        for i, s in enumerate(board.standings)
    )
    count = round((last - first) / step)
    ticks = tuple((x(first + k * step), f"{first + k * step:.0f}") for k in range(count + 1))
    return Chart(rows, ticks, CHART_WIDTH, ROW_HEIGHT * len(rows) + 40)


def _tick_step(span: float) -> float:
    """A round tick spacing giving about five to ten ticks over ``span`` Elo points."""
    step = 1.0
    while span / step > 10:
        for factor in (2.0, 2.5, 2.0):
            step *= factor
            if span / step <= 10:
                break
    return step
