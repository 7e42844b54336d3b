"""Ratings fixes: expanded intervals, notes for a fit that did not converge, prior-bound seat terms
and ratings shown unbounded, pairwise Elo with seat terms, a refused infinite prior, one minus sign."""

from __future__ import annotations

import io
import json
import math

import numpy as np
import pytest
from rich.console import Console
from json_schema import violations
from lb_records import duplicate_tournament, record

from leaderboards import format as fmt
from leaderboards.bootstrap import expanded_tail
from leaderboards.build import build_leaderboard
from leaderboards.errors import LeaderboardError
from leaderboards.model import RatingSettings
from leaderboards.render_html import render_html
from leaderboards.render_json import render_json, schema
from leaderboards.render_markdown import render_markdown
from leaderboards.render_table import render_table

FAST = RatingSettings(bootstrap_samples=50)
FIELD = {"A": 0.6, "B": 0.2, "C": 0.0, "D": -0.3, "E": -0.5}


def seat_heavy(edge: float, deals: int, seed: int) -> list:  # type: ignore[type-arg]
    """Three-seat duplicate deals where seat 0 has a strong edge (in θ units)."""
    rng = np.random.default_rng(seed)
    names = sorted(FIELD)
    games = []
    for deal in range(deals):
        table = [names[i] for i in rng.choice(len(names), 3, replace=False)]
        for shift in range(3):
            seated = table[shift:] + table[:shift]
            noisy = [FIELD[b] + rng.gumbel() + (edge if s == 0 else 0.0) for s, b in enumerate(seated)]
            ranks = [1 + sum(1 for other in noisy if other > mine) for mine in noisy]
            games.append(record(seated, ranks, seed=deal))
    return games


def test_the_expanded_interval_widens_most_for_few_blocks() -> None:
    plain = 0.025
    assert expanded_tail(0.95, 10) < expanded_tail(0.95, 40) < expanded_tail(0.95, 4000) < plain
    assert expanded_tail(0.95, 4000) == pytest.approx(plain, abs=5e-4)
    games = duplicate_tournament(FIELD, 12, 3, 1)
    board = build_leaderboard(games, settings=FAST)
    narrow = build_leaderboard(games, settings=FAST, block_key=lambda r: 0)  # one block: no expansion
    assert board.blocks == 12 and narrow.blocks == 1
    assert RatingSettings().bootstrap_samples == 1000


def test_a_seat_that_always_wins_is_flagged_prior_bound_with_a_note() -> None:
    games = [record(["A", "B", "C"], [1, 2, 3], seed=s) for s in range(6)]
    games += [record(["B", "C", "A"], [1, 3, 2], seed=s) for s in range(6, 12)]
    games += [record(["C", "A", "B"], [1, 2, 3], seed=s) for s in range(12, 18)]
    board = build_leaderboard(games, settings=FAST)
    seats = [a for a in board.seat_advantage if a.game == "wongar" and a.players == 3]
    assert all(a.prior_bound for a in seats)
    assert seats[0].elo is not None and seats[0].elo > 500, "seat 0 always won: only the prior stops it"
    assert "seat terms of wongar at 3 players are finite only because of the prior" in " ".join(board.notes)
    assert fmt.seat_term(seats[0]).endswith("(prior-bound)")
    assert "**Note:** seat terms of wongar at 3 players" in render_markdown(board)
    data = json.loads(render_json(board))
    assert data["seat_advantage"][0]["prior_bound"] is True and violations(data, schema(), schema()) == []
    normal = build_leaderboard(duplicate_tournament(FIELD, 20, 3, 2), settings=FAST)
    assert not any(a.prior_bound for a in normal.seat_advantage) and normal.notes == ()


def test_ratings_only_the_prior_bounds_are_shown_unbounded() -> None:
    games = duplicate_tournament({"B": 0.2, "C": 0.0, "D": -0.3}, 10, 3, 3)
    games += [record(["A", "B", "C"], [1, 2, 3], seed=100 + s) for s in range(3)]
    games += [record(["B", "A", "D"], [2, 1, 3], seed=200 + s) for s in range(3)]
    board = build_leaderboard(games, settings=FAST)
    top = next(s for s in board.standings if s.bot == "A")
    assert "unbeaten" in [f.value for f in top.flags]
    assert top.ci_high is None and top.ci_low is not None
    assert "prior-bound" in [f.value for f in top.flags] and fmt.margin(top) == fmt.TOO_FEW
    data = json.loads(render_json(board))
    line = next(s for s in data["standings"] if s["bot"] == "A")
    assert line["ci_high"] is None and violations(data, schema(), schema()) == []
    others = [s for s in board.standings if s.bot != "A"]
    assert all("prior-bound" in [f.value for f in s.flags] for s in others), "A splits the group"
    assert all(fmt.margin(s) == fmt.TOO_FEW and fmt.los(s) == fmt.MISSING for s in others)
    connected = build_leaderboard(duplicate_tournament(FIELD, 20, 3, 2), settings=FAST)
    assert all(s.ci_low is not None and s.ci_high is not None for s in connected.standings)
    assert all(fmt.los(s) == fmt.share(s.los_next) for s in connected.standings)


def test_a_fit_stopped_short_is_reported() -> None:
    games = duplicate_tournament(FIELD, 15, 3, 4)
    short = build_leaderboard(games, settings=RatingSettings(bootstrap_samples=5, max_iterations=1))
    assert short.notes == (
        "the rating fit did not converge (1 iterations): ratings may be off",
        "the pairwise Elo fit did not converge: that column may be off",
    )
    assert build_leaderboard(games, settings=FAST).notes == ()
    with pytest.raises(LeaderboardError, match="max_iterations"):
        build_leaderboard(games, settings=RatingSettings(max_iterations=0))


def test_pairwise_elo_fits_seat_terms_so_a_strong_first_seat_does_not_compress_it() -> None:
    games = seat_heavy(edge=1.2, deals=400, seed=5)
    with_seats = build_leaderboard(games, settings=RatingSettings(bootstrap_samples=5))
    without = build_leaderboard(games, settings=RatingSettings(bootstrap_samples=5, seat_terms=False))
    arena = {s.bot: s.elo for s in with_seats.standings}

    def slope(board) -> float:  # type: ignore[no-untyped-def]
        """How pairwise Elo grows with Arena Elo (with seat terms): 1 when it is not compressed."""
        x = np.array([arena[s.bot] for s in board.standings])
        y = np.array([s.pairwise_elo for s in board.standings])
        return float(np.polyfit(x - x.mean(), y - y.mean(), 1)[0])

    assert slope(with_seats) == pytest.approx(1.0, abs=0.06)
    assert slope(without) < 0.9, "without seat terms, pairwise Elo is compressed (about 0.82 here)"


@pytest.mark.parametrize("prior", [math.inf, math.nan, 0.0, -5.0])
def test_an_infinite_or_non_positive_prior_is_refused_clearly(prior: float) -> None:
    with pytest.raises(LeaderboardError, match="prior_sd must be a positive, finite number of Elo points"):
        build_leaderboard(duplicate_tournament(FIELD, 5, 3, 6), settings=RatingSettings(prior_sd=prior))


def test_every_signed_number_uses_the_true_minus() -> None:
    board = build_leaderboard(duplicate_tournament(FIELD, 20, 3, 7), settings=FAST)
    page = render_markdown(board)
    seat_lines = [line for line in page.splitlines() if line.startswith("| wongar |")]
    assert seat_lines and all("-" not in line.split("|")[-2] for line in seat_lines)
    assert any("−" in line for line in seat_lines)


def test_a_board_too_small_to_rank_its_bots_says_so_plainly() -> None:
    """Two deals of three bots in duplicate: the order stays open, and every published form says
    'too few games' instead of showing infinite intervals or a likelihood of superiority."""
    games = [record(["A", "B", "C"], [1, 2, 3], seed=1), record(["B", "C", "A"], [2, 3, 1], seed=1),
             record(["C", "A", "B"], [3, 1, 2], seed=1), record(["A", "B", "C"], [1, 3, 2], seed=2),
             record(["B", "C", "A"], [3, 2, 1], seed=2), record(["C", "A", "B"], [2, 1, 3], seed=2)]
    board = build_leaderboard(games, settings=FAST)
    assert all("prior-bound" in [f.value for f in s.flags] for s in board.standings)
    sentence = fmt.too_few_games(board)
    assert sentence is not None and sentence.startswith("too few games to rank these bots")
    console = Console(file=io.StringIO(), width=100)
    console.print(render_table(board))
    table = console.file.getvalue()  # type: ignore[attr-defined]
    assert "∞" not in table and "+0.0" not in table and table.count("too few games") == 4
    rows = [line.split() for line in table.splitlines() if "too few games" in line and line.split()[0].isdigit()]
    assert len(rows) == 3 and all(row[-2] == fmt.MISSING for row in rows)  # no LOS
    text = render_markdown(board)
    assert "**Too few games to rank these bots" in text and "∞" not in text.split("## Head to head")[0]
    html = render_html(board)
    assert 'id="too-few"' in html and "∞" not in html.split('id="ratings"')[1].split("</table>")[0]
    ranked = build_leaderboard(duplicate_tournament(FIELD, 20, 3, 2), settings=FAST)
    assert fmt.too_few_games(ranked) is None and "too few" not in render_markdown(ranked)
