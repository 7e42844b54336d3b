"""Known answers of the published forms: hand-made boards (``lb_boards``) rendered as Markdown, the
Rich table, the HTML page and JSON, checked against the exact text a reader gets, and the files
``publish`` writes."""

from __future__ import annotations

import dataclasses
import io
import json
import math
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from rich.console import Console

from lb_boards import league, pair
from leaderboards.errors import LeaderboardError
from leaderboards.model import Flag, Leaderboard, Standing
from leaderboards.publish import publish
from leaderboards.render_html import render_html
from leaderboards.render_json import leaderboard_data, render_json
from leaderboards.render_markdown import render_markdown
from leaderboards.render_table import render_table

LEAGUE_MARKDOWN = r"""# Night \<League\> (provisional)

**Provisional:** the tournament is still running; these are the results so far.

14 games in 6 resampled blocks. Arena Elo is a Plackett–Luce fit of every finishing order (mean 1500); −/+ is the 90% bootstrap interval.

The field is split into 2 groups that never met; compare ratings only within a group.

**Note:** the rating fit did not converge (3 iterations): ratings may be off.

**swiss: 2 of 5 rounds played**
**SPRT Alpha \[0, 20\] alpha 0.05 beta 0.1: LLR 1.25 (-2.25, 2.89) after 7 blocks: running**

## Ratings

| rank | bot | Elo | −/+ 90% | pairwise Elo | games | score | avg place | win share | LOS next | faults | group |
|---|---|---|---|---|---|---|---|---|---|---|---|
| 1 | Alpha | 1612.3 | −22.3/+28.9 | 1608.8 | 12 | 75.0% | 1.50 | 50.0% | 81.2% | 0 | 1 |
| 2 | Beta\|x (winless, few-games) | 1550.0 | −∞/+20.0 | 1551.0 | 8 | 25.0% | 2.75 | 12.5% | — | 3 | 1 |
| 3 | Gamma (unbeaten, remote) | 1500.0 | −20.0/+∞ | 1500.0 | 2 | 100.0% | 1.00 | 100.0% | — | 21 | 2 |

## Head to head

Score of the row bot against the column bot (games).

|  | Alpha | Beta\|x | Gamma |
|---|---|---|---|
| Alpha | — | 75.0% (8) | — |
| Beta\|x | 25.0% (8) | — | — |
| Gamma | — | — | — |

## Seat advantage

| game | players | seat | games | avg place | win share | seat term (Elo) |
|---|---|---|---|---|---|---|
| wongar | 4 | 0 | 12 | 2.25 | 33.3% | +25.0 |
| wongar | 4 | 1 | 12 | 2.75 | 16.7% | −25.0 (prior-bound) |
| waroong | 2 | 0 | 2 | 1.00 | 100.0% | — |

## Faults

| bot | timeout | illegal | crash | malformed | start | forfeits | total |
|---|---|---|---|---|---|---|---|
| Alpha | 0 | 0 | 0 | 0 | 0 | 0 | 0 |
| Beta\|x | 0 | 0 | 1 | 0 | 0 | 2 | 3 |
| Gamma | 1 | 2 | 3 | 4 | 5 | 6 | 21 |

## Reply latency (ms)

| bot | replies | p50 | p90 | p99 |
|---|---|---|---|---|
| Alpha | 10 | 12.3 | 45.6 | 78.9 |
| Beta\|x | 3 | 500.0 | 1000.0 | 1250.0 |
| Gamma | 0 | — | — | — |

## Tournament settings

| setting | value |
|---|---|
| games | wongar |
| rounds | 5 |
| time | {"move": 1.5} |
"""


PAIR_MARKDOWN = r"""# Leaderboard

3 games in 3 resampled blocks. Arena Elo is a Plackett–Luce fit of every finishing order (mean 1500); −/+ is the 95% bootstrap interval.

## Ratings

| rank | bot | Elo | −/+ 95% | pairwise Elo | games | score | avg place | win share | LOS next | faults | group |
|---|---|---|---|---|---|---|---|---|---|---|---|
| 1 | One | 1520.5 | −40.2/+40.2 | 1519.5 | 3 | 66.7% | 1.33 | 66.7% | 70.0% | 0 | 1 |
| 2 | Two | 1479.5 | −39.5/+40.5 | 1480.5 | 3 | 33.3% | 1.67 | 33.3% | — | 0 | 1 |

## Head to head

Score of the row bot against the column bot (games).

|  | One | Two |
|---|---|---|
| One | — | 66.7% (3) |
| Two | 33.3% (3) | — |

## Seat advantage

| game | players | seat | games | avg place | win share | seat term (Elo) |
|---|---|---|---|---|---|---|
| wongar | 2 | 0 | 3 | 1.33 | 66.7% | +10.0 |
| wongar | 2 | 1 | 3 | 1.67 | 33.3% | −10.0 |

## Faults

| bot | timeout | illegal | crash | malformed | start | forfeits | total |
|---|---|---|---|---|---|---|---|
| One | 0 | 0 | 0 | 0 | 0 | 0 | 0 |
| Two | 0 | 0 | 0 | 0 | 0 | 0 | 0 |

## Reply latency (ms)

| bot | replies | p50 | p90 | p99 |
|---|---|---|---|---|
| One | 4 | 1.0 | 2.0 | 3.0 |
| Two | 4 | 4.0 | 5.0 | 6.0 |
"""


LEAGUE_TABLE = r"""                           Night <League> (provisional)

 rank  bot                  Elo      −/+ 90%  games   score  place    LOS  faults
 ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━
    1  Alpha [group 1]   1612.3  −22.3/+28.9     12   75.0%   1.50  81.2%       0
    2  Beta|x [group 1]  1550.0     −∞/+20.0      8   25.0%   2.75      —       3
    3  Gamma [group 2]   1500.0     −20.0/+∞      2  100.0%   1.00      —      21

                  14 games; Arena Elo (Plackett–Luce), mean 1500
                                 winless: Beta|x
                                few-games: Beta|x
                                 unbeaten: Gamma
                                  remote: Gamma
                   provisional: the tournament is still running
  the field is split into 2 groups that never met: compare ratings only within a
                                      group
                           swiss: 2 of 5 rounds played
  SPRT Alpha [0, 20] alpha 0.05 beta 0.1: LLR 1.25 (-2.25, 2.89) after 7 blocks:
                                     running
     note: the rating fit did not converge (3 iterations): ratings may be off
"""


PAIR_TABLE = r"""                            Leaderboard

 rank  bot     Elo      −/+ 95%  games  score  place    LOS  faults
 ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━
    1  One  1520.5  −40.2/+40.2      3  66.7%   1.33  70.0%       0
    2  Two  1479.5  −39.5/+40.5      3  33.3%   1.67      —       0

           3 games; Arena Elo (Plackett–Luce), mean 1500
"""


LONG_NAME_TABLE = r"""                            Leaderboard

 rank  bot                                Elo      −/+ 95%  faults
 ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━
    1  A-bot-name-thirty-letters-long  1520.5  −40.2/+40.2       0
    2  Two                             1479.5  −39.5/+40.5       0

           3 games; Arena Elo (Plackett–Luce), mean 1500
 left out to fit the terminal: place, score, LOS, games (widen it,
                          or --format md)
"""


EMPTY_TABLE = r"""                        Leaderboard

 rank  bot  Elo  −/+ 95%  games  score  place  LOS  faults
 ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━

       0 games; Arena Elo (Plackett–Luce), mean 1500
"""


LEAGUE_HTML_BODY = r"""<body>
<nav class="site"><a href="index.html">Leaderboard</a> <a href="games.html">Games</a></nav>
<h1>Night &lt;League&gt; (provisional)</h1>
<p class="provisional" id="provisional">Provisional: the tournament is still running; these are the results so far.</p>
<p class="note">14 games in 6 resampled blocks. Arena Elo is a Plackett–Luce fit of every finishing order (mean 1500); −/+ is the 90% bootstrap interval; LOS is the likelihood of superiority over the next bot down.</p>
<p class="note">Note: the rating fit did not converge (3 iterations): ratings may be off.</p>
<p class="note progress"><strong>swiss: 2 of 5 rounds played</strong></p>
<p class="note progress"><strong>SPRT Alpha [0, 20] alpha 0.05 beta 0.1: LLR 1.25 (-2.25, 2.89) after 7 blocks: running</strong></p>
<p class="note" id="groups">The field is split into 2 groups that never met; compare ratings only within a group.</p>

<h2>Ratings</h2>
<div class="chart" id="chart" role="img" aria-label="Ratings with 90% intervals">
  <div class="row" data-bot="Alpha"><span class="label">1. Alpha</span><span class="track"><span class="tick" style="left: 0.0%"></span><span class="tick" style="left: 11.11%"></span><span class="tick" style="left: 22.22%"></span><span class="tick" style="left: 33.33%"></span><span class="tick" style="left: 44.44%"></span><span class="tick" style="left: 55.56%"></span><span class="tick" style="left: 66.67%"></span><span class="tick" style="left: 77.78%"></span><span class="tick" style="left: 88.89%"></span><span class="tick" style="left: 100.0%"></span><span class="bar" style="left: 61.11%; width: 12.41%"></span><span class="bar" style="left: 73.52%; width: 16.07%"></span><span class="dot" style="left: 73.52%"></span></span></div>
  <div class="row open" data-bot="Beta|x"><span class="label">2. Beta|x</span><span class="track"><span class="tick" style="left: 0.0%"></span><span class="tick" style="left: 11.11%"></span><span class="tick" style="left: 22.22%"></span><span class="tick" style="left: 33.33%"></span><span class="tick" style="left: 44.44%"></span><span class="tick" style="left: 55.56%"></span><span class="tick" style="left: 66.67%"></span><span class="tick" style="left: 77.78%"></span><span class="tick" style="left: 88.89%"></span><span class="tick" style="left: 100.0%"></span><span class="bar open-low" style="left: 0.0%; width: 38.91%"></span><span class="bar" style="left: 38.91%; width: 11.09%"></span><span class="dot" style="left: 38.91%"></span><span class="open-note" style="left: 0">too few games: no lower bound</span></span></div>
  <div class="row open" data-bot="Gamma"><span class="label">3. Gamma</span><span class="track"><span class="tick" style="left: 0.0%"></span><span class="tick" style="left: 11.11%"></span><span class="tick" style="left: 22.22%"></span><span class="tick" style="left: 33.33%"></span><span class="tick" style="left: 44.44%"></span><span class="tick" style="left: 55.56%"></span><span class="tick" style="left: 66.67%"></span><span class="tick" style="left: 77.78%"></span><span class="tick" style="left: 88.89%"></span><span class="tick" style="left: 100.0%"></span><span class="bar" style="left: 0.02%; width: 11.09%"></span><span class="bar open-high" style="left: 11.11%; width: 88.89%"></span><span class="dot" style="left: 11.11%"></span><span class="open-note" style="right: 0">too few games: no upper bound</span></span></div>
  <div class="row axis"><span class="label"></span><span class="track"><span class="tick" style="left: 0.0%">1480</span><span class="tick not-on-phone" style="left: 11.11%">1500</span><span class="tick not-on-phone" style="left: 22.22%">1520</span><span class="tick" style="left: 33.33%">1540</span><span class="tick not-on-phone" style="left: 44.44%">1560</span><span class="tick not-on-phone" style="left: 55.56%">1580</span><span class="tick" style="left: 66.67%">1600</span><span class="tick not-on-phone" style="left: 77.78%">1620</span><span class="tick not-on-phone" style="left: 88.89%">1640</span><span class="tick" style="left: 100.0%">1660</span></span></div>
</div>
<p class="note" id="open-ends">A dashed bar ending in an arrow is an open interval: too few games to bound that end, so only the prior keeps the rating finite; the table shows it as ∞.</p>

<div class="wide">
<table id="ratings">
<thead><tr><th>rank</th><th class="name">bot</th><th>Elo</th><th>−/+ 90%</th><th class="hide-narrow">pairwise Elo</th><th>games</th><th>score</th><th>avg place</th><th class="hide-narrow">win share</th><th>LOS next</th><th>faults</th><th>group</th></tr></thead>
<tbody>
<tr><td>1</td><td class="name"><a href="bots/alpha.html">Alpha</a></td><td>1612.3</td><td>−22.3/+28.9</td><td class="hide-narrow">1608.8</td><td>12</td><td>75.0%</td><td>1.50</td><td class="hide-narrow">50.0%</td><td>81.2%</td><td>0</td><td>1</td></tr>
<tr><td>2</td><td class="name">Beta|x <span class="flags">winless, few-games</span></td><td>1550.0</td><td>−∞/+20.0</td><td class="hide-narrow">1551.0</td><td>8</td><td>25.0%</td><td>2.75</td><td class="hide-narrow">12.5%</td><td>—</td><td>3</td><td>1</td></tr>
<tr><td>3</td><td class="name">Gamma <span class="flags">unbeaten, remote</span></td><td>1500.0</td><td>−20.0/+∞</td><td class="hide-narrow">1500.0</td><td>2</td><td>100.0%</td><td>1.00</td><td class="hide-narrow">100.0%</td><td>—</td><td>21</td><td>2</td></tr>
</tbody>
</table>
</div>

<h2>Head to head</h2>
<p class="note">Score of the row bot against the column bot, and the games they shared.</p>
<div class="wide">
<table id="crosstable" class="crosstable">
<thead><tr><th class="name"></th><th class="bot"><span>Alpha</span></th><th class="bot"><span>Beta|x</span></th><th class="bot"><span>Gamma</span></th></tr></thead>
<tbody>
<tr><th class="name">Alpha</th><td class="self">—</td><td>75.0% (8)</td><td class="self">—</td></tr>
<tr><th class="name">Beta|x</th><td>25.0% (8)</td><td class="self">—</td><td class="self">—</td></tr>
<tr><th class="name">Gamma</th><td class="self">—</td><td class="self">—</td><td class="self">—</td></tr>
</tbody>
</table>
</div>

<h2>Seat advantage</h2>
<div class="wide">
<table id="seats">
<thead><tr><th class="name">game</th><th>players</th><th>seat</th><th>games</th><th>avg place</th><th>win share</th><th>seat term (Elo)</th></tr></thead>
<tbody>
<tr><td class="name">wongar</td><td>4</td><td>0</td><td>12</td><td>2.25</td><td>33.3%</td><td>+25.0</td></tr>
<tr><td class="name">wongar</td><td>4</td><td>1</td><td>12</td><td>2.75</td><td>16.7%</td><td>−25.0 (prior-bound)</td></tr>
<tr><td class="name">waroong</td><td>2</td><td>0</td><td>2</td><td>1.00</td><td>100.0%</td><td>—</td></tr>
</tbody>
</table>
</div>

<h2>Faults</h2>
<div class="wide">
<table id="faults">
<thead><tr><th class="name">bot</th><th>timeout</th><th>illegal</th><th>crash</th><th>malformed</th><th>start</th><th>forfeits</th><th>total</th></tr></thead>
<tbody>
<tr><td class="name">Alpha</td><td>0</td><td>0</td><td>0</td><td>0</td><td>0</td><td>0</td><td>0</td></tr>
<tr><td class="name">Beta|x</td><td>0</td><td>0</td><td>1</td><td>0</td><td>0</td><td>2</td><td>3</td></tr>
<tr><td class="name">Gamma</td><td>1</td><td>2</td><td>3</td><td>4</td><td>5</td><td>6</td><td>21</td></tr>
</tbody>
</table>
</div>

<h2>Reply latency</h2>
<p class="note">Milliseconds per reply, fallback decisions excluded.</p>
<div class="wide">
<table id="latency">
<thead><tr><th class="name">bot</th><th>replies</th><th>p50</th><th>p90</th><th>p99</th></tr></thead>
<tbody>
<tr><td class="name">Alpha</td><td>10</td><td>12.3</td><td>45.6</td><td>78.9</td></tr>
<tr><td class="name">Beta|x</td><td>3</td><td>500.0</td><td>1000.0</td><td>1250.0</td></tr>
<tr><td class="name">Gamma</td><td>0</td><td>—</td><td>—</td><td>—</td></tr>
</tbody>
</table>
</div>

<h2>Settings</h2>
<div class="wide">
<table id="settings">
<tbody>
<tr><th class="name">games</th><td class="value">wongar</td></tr>
<tr><th class="name">rounds</th><td class="value">5</td></tr>
<tr><th class="name">time</th><td class="value">{&#34;move&#34;: 1.5}</td></tr>
<tr><th class="name">rating seat terms</th><td class="value">on</td></tr>
<tr><th class="name">rating prior sd (Elo)</th><td class="value">1000.0</td></tr>
<tr><th class="name">bootstrap samples</th><td class="value">200</td></tr>
<tr><th class="name">anchor</th><td class="value">Alpha = 1600.0</td></tr>
</tbody>
</table>
</div>
</body>
</html>"""


def table_text(board: Leaderboard, width: int) -> str:
    console = Console(width=width, record=True, color_system=None, file=io.StringIO())
    console.print(render_table(board))
    return "\n".join(line.rstrip() for line in console.export_text().splitlines()) + "\n"


def with_standings(board: Leaderboard, *standings: Standing) -> Leaderboard:
    return dataclasses.replace(board, standings=standings)


def test_markdown_of_a_league_reads_exactly() -> None:
    assert render_markdown(league()) == LEAGUE_MARKDOWN


def test_markdown_of_a_plain_pair_reads_exactly() -> None:
    assert render_markdown(pair()) == PAIR_MARKDOWN


def test_markdown_of_empty_tournament_settings_has_no_settings_section() -> None:
    info = league().tournament
    assert info is not None
    board = dataclasses.replace(league(), tournament=dataclasses.replace(info, settings={}))
    text = render_markdown(board)
    assert "## Tournament settings" not in text and text.endswith("| Gamma | 0 | — | — | — |\n")


def test_table_of_a_league_reads_exactly() -> None:
    assert table_text(league(), 100) == LEAGUE_TABLE


def test_table_of_a_plain_pair_reads_exactly() -> None:
    assert table_text(pair(), 100) == PAIR_TABLE


def test_table_on_a_narrow_console_leaves_out_columns_and_never_cuts_a_name() -> None:
    plain = pair()
    long = dataclasses.replace(plain.standings[0], bot="A-bot-name-thirty-letters-long")
    board = with_standings(plain, long, plain.standings[1])
    assert table_text(board, 70) == LONG_NAME_TABLE
    assert "left out" not in table_text(board, 100) and "…" not in table_text(board, 100)
    narrowest = table_text(board, 40)
    assert "…" not in narrowest and "A-bot-name-" in narrowest and "ers-long" in narrowest  # folded
    assert "−40.2/+40.2" in narrowest and "place, score, LOS, games, faults" in narrowest.replace("\n", " ")


def test_table_caption_lists_every_bot_with_a_flag() -> None:
    plain = pair()
    few = [dataclasses.replace(s, flags=(Flag.FEW_GAMES,)) for s in plain.standings]
    lines = table_text(with_standings(plain, *few), 100).splitlines()
    assert lines[-1].strip() == "few-games: One, Two"


def test_table_of_no_standings_keeps_its_header() -> None:
    assert table_text(dataclasses.replace(pair(), standings=(), games=0), 80) == EMPTY_TABLE


def test_html_body_of_a_league_reads_exactly() -> None:
    page = render_html(league(), {"Alpha": "bots/alpha.html"})
    assert page[page.index("<body>"):] == LEAGUE_HTML_BODY


def test_html_of_a_plain_pair_has_no_navigation_group_column_or_anchor() -> None:
    page = render_html(pair())
    assert "<nav" not in page and "<th>group</th>" not in page and "anchor" not in page
    assert '<tr><th class="name">rating seat terms</th><td class="value">on</td></tr>' in page
    assert '<tr><th class="name">One</th><td class="self">—</td><td>66.7% (3)</td></tr>' in page
    assert page.index('<table id="settings">\n<tbody>\n<tr><th class="name">rating seat terms</th>') > 0


def axis(board: Leaderboard) -> list[tuple[str, str]]:
    """The chart's axis ticks in the page: (position, label)."""
    page = render_html(board)
    row = re.search(r'<div class="row axis">(.*)</div>', page)
    assert row is not None
    return re.findall(r'<span class="tick(?: not-on-phone)?" style="left: ([0-9.]+)%">([0-9]+)</span>', row.group(1))


def spanning(low: float, high: float) -> Leaderboard:
    """A pair whose chart runs from ``low`` to ``high`` (both bots' intervals inside)."""
    plain = pair()
    one = dataclasses.replace(plain.standings[0], elo=(low + high) / 2, ci_low=low, ci_high=high)
    two = dataclasses.replace(plain.standings[1], elo=(low + high) / 2, ci_low=low, ci_high=high)
    return with_standings(plain, one, two)


@pytest.mark.parametrize(
    ("low", "high", "labels"),
    [
        (1500.0, 1510.0, [str(v) for v in range(1500, 1511)]),  # span 10: ticks of 1
        (1500.0, 1520.0, [str(v) for v in range(1500, 1521, 2)]),  # span 20: ticks of 2, not 5
        (1500.0, 1510.5, [str(v) for v in range(1500, 1513, 2)]),  # just over 10: ticks of 2, to 1512
        (1500.0, 1520.5, [str(v) for v in range(1500, 1526, 5)]),  # over 20: ticks of 5 (2 × 2.5)
        (1500.0, 1550.5, [str(v) for v in range(1500, 1561, 10)]),  # over 50: ticks of 10
        (1500.0, 1500.0, ["1500", "1501"]),  # no spread: one step, never an empty axis
        (1499.5, 1500.5, ["1499", "1500", "1501"]),  # ends between ticks round outwards
    ],
)
def test_chart_ticks_are_round_and_cover_every_interval(low: float, high: float, labels: list[str]) -> None:
    ticks = axis(spanning(low, high))
    assert [label for _, label in ticks] == labels
    assert float(ticks[0][0]) == 0.0 and float(ticks[-1][0]) == 100.0


def test_chart_bar_of_an_unbounded_end_is_open_to_the_axis_end_and_marked() -> None:
    page = render_html(league())
    assert ('<span class="bar open-low" style="left: 0.0%; width: 38.91%"></span>'
            '<span class="bar" style="left: 38.91%; width: 11.09%"></span><span class="dot" style="left: 38.91%">'
            '</span><span class="open-note" style="left: 0">too few games: no lower bound</span>') in page
    assert ('<span class="bar" style="left: 0.02%; width: 11.09%"></span>'
            '<span class="bar open-high" style="left: 11.11%; width: 88.89%"></span>') in page
    assert '<span class="open-note" style="right: 0">too few games: no upper bound</span>' in page
    assert page.count('<div class="row open"') == 2 and 'id="open-ends"' in page
    assert "open" not in render_html(pair()).split('id="chart"')[1].split("</div>\n</div>")[0]


def test_a_phone_shows_at_most_four_evenly_spaced_axis_labels() -> None:
    page = render_html(league())
    row = re.search(r'<div class="row axis">(.*)</div>', page)
    assert row is not None
    shown = re.findall(r'<span class="tick" style="left: [0-9.]+%">([0-9]+)</span>', row.group(1))
    assert shown == ["1480", "1540", "1600", "1660"]


def test_json_is_indented_ascii_text_ending_in_a_newline() -> None:
    text = render_json(league())
    assert text.splitlines()[:3] == ["{", '  "schema": "arena-leaderboard/2",', '  "title": "Night <League> (provisional)",']
    assert text.endswith("\n}\n") and text.isascii()
    assert '"bot": "Beta|x",' in text.splitlines()[text.splitlines().index('      "rank": 2,') + 1]


def test_json_of_a_league_carries_the_tournament_sprt_and_rounds() -> None:
    data = json.loads(render_json(league()))
    assert data["tournament"] == {
        "name": "Night <League>",
        "settings": {"games": "wongar", "rounds": 5, "time": {"move": 1.5}},
        "sprt": {
            "candidate": "Alpha", "elo0": 0.0, "elo1": 20.0, "alpha": 0.05, "beta": 0.1, "blocks": 7,
            "score": 0.75, "elo": pytest.approx(190.84850188786498), "llr": 1.25,
            "lower": pytest.approx(math.log(0.1 / 0.95)), "upper": pytest.approx(math.log(18.0)),
            "verdict": None,
        },
        "rounds": {"played": 2, "total": 5},
    }
    assert data["standings"][1]["flags"] == ["winless", "few-games"]
    assert data["faults"][2] == {"bot": "Gamma", "timeout": 1, "illegal": 2, "crash": 3, "malformed": 4,
                                 "start": 5, "forfeits": 6, "total": 21}
    assert data["los"] == [[0.5, 0.8123, None], [0.1877, 0.5, None], [None, None, 0.5]]
    assert data["groups"] == [["Alpha", "Beta|x"], ["Gamma"]]
    assert data["notes"] == ["the rating fit did not converge (3 iterations): ratings may be off"]


def test_json_of_a_pair_has_no_tournament() -> None:
    data = leaderboard_data(pair())
    assert data["tournament"] is None and data["provisional"] is False and data["title"] == "Leaderboard"
    assert data["settings"]["bootstrap_samples"] == 1000 and data["blocks"] == 3


def test_json_refuses_a_rating_that_is_not_a_number() -> None:
    plain = pair()
    broken = with_standings(plain, dataclasses.replace(plain.standings[0], elo=math.nan), plain.standings[1])
    with pytest.raises(ValueError, match="not JSON compliant"):
        render_json(broken)


def test_publish_names_the_three_files_and_replaces_them(tmp_path: Path) -> None:
    out = tmp_path / "site"
    out.mkdir()
    (out / "index.html").write_text("old", encoding="utf-8")
    pages = {"Alpha": "bots/alpha.html"}
    written = publish(league(), out, pages)
    again = publish(league(), out, pages)
    assert again == written
    assert (written.html, written.markdown, written.json) == (
        out / "index.html", out / "leaderboard.md", out / "leaderboard.json"
    )
    assert sorted(p.name for p in out.iterdir()) == ["index.html", "leaderboard.json", "leaderboard.md"]
    assert written.html.read_text(encoding="utf-8") == render_html(league(), pages)


def test_publish_refusal_gives_the_reason(tmp_path: Path) -> None:
    blocker = tmp_path / "taken"
    blocker.write_text("not a directory")
    with pytest.raises(LeaderboardError) as refused:
        publish(pair(), blocker)
    assert str(refused.value) == f"cannot write the leaderboard to {blocker}: File exists"


def test_published_files_are_utf8_under_an_ascii_locale(tmp_path: Path) -> None:
    """Names and signs outside ASCII (−, –, ∞) are written as UTF-8 whatever the locale says: the
    files published under an ASCII locale are those published here, byte for byte."""
    here = publish(league(), tmp_path / "here")
    script = (
        "import sys; from pathlib import Path; sys.path.insert(0, sys.argv[1]);"
        "from lb_boards import league; from leaderboards.publish import publish;"
        "publish(league(), Path(sys.argv[2]))"
    )
    env = {**os.environ, "LC_ALL": "C", "LANG": "C", "PYTHONUTF8": "0", "PYTHONCOERCECLOCALE": "0"}
    subprocess.run([sys.executable, "-c", script, str(Path(__file__).parent), str(tmp_path / "ascii")],
                   env=env, check=True, capture_output=True, timeout=60)
    assert here.html.read_bytes() == render_html(league()).encode("utf-8")
    for name in ("index.html", "leaderboard.md", "leaderboard.json"):
        assert (tmp_path / "ascii" / name).read_bytes() == (tmp_path / "here" / name).read_bytes()
