"""The leaderboard as a Markdown document: ratings, crosstable, seats, faults, latency, settings."""

from __future__ import annotations

import json
from collections.abc import Sequence

from leaderboards.inert import markdown
from leaderboards import format as fmt
from leaderboards.model import Leaderboard


def render_markdown(board: Leaderboard) -> str:
    """The whole document; the title and every table cell (bot names, settings) are inert Markdown
    (:func:`arena.inert.markdown`)."""
    confidence = round(100 * board.settings.confidence)
    parts = [f"# {markdown(board.title)}", ""]
    if board.provisional:
        parts += ["**Provisional:** the tournament is still running; these are the results so far.", ""]
    parts += [
        f"{board.games} games in {board.blocks} resampled blocks. Arena Elo is a Plackett–Luce fit "
        f"of every finishing order (mean 1500); −/+ is the {confidence}% bootstrap interval.",
        "",
    ]
    clock = fmt.clock_line(board)
    if clock:
        parts += [f"{clock[0].upper()}{clock[1:]}.", ""]
    too_few = fmt.too_few_games(board)
    if too_few:
        parts += [f"**{markdown(too_few[0].upper() + too_few[1:])}.**", ""]
    if len(board.groups) > 1:
        parts += [
            f"The field is split into {len(board.groups)} groups that never met; compare ratings "
            "only within a group.",
            "",
        ]
    parts += [f"**Note:** {note}." for note in board.notes] + ([""] if board.notes else [])
    progress = fmt.progress_lines(board)
    parts += [f"**{markdown(line)}**" for line in progress] + ([""] if progress else [])
    parts += ["## Ratings", ""]
    parts += _table(
        ["rank", "bot", "Elo", f"−/+ {confidence}%", "pairwise Elo", "games", "score",
         "avg place", "win share", "LOS next", "faults", "group"],
        [
            [str(s.rank), fmt.bot_label(s), fmt.elo(s.elo), fmt.margin(s), fmt.elo(s.pairwise_elo),
             str(s.games), fmt.share(s.score), fmt.place(s.average_place), fmt.share(s.win_share),
             fmt.los(s), str(s.faults), str(s.group + 1)]
            for s in board.standings
        ],
    )
    names = [s.bot for s in board.standings]
    meetings = {(m.bot, m.opponent): m for m in board.head_to_head}
    parts += ["", "## Head to head", "", "Score of the row bot against the column bot (games).", ""]
    parts += _table(
        ["", *names],
        [
            [row, *(
                f"{fmt.share(meetings[row, col].points / meetings[row, col].meetings)} "
                f"({meetings[row, col].meetings})" if (row, col) in meetings else fmt.MISSING
                for col in names
            )]
            for row in names
        ],
    )
    parts += ["", "## Seat advantage", ""]
    parts += _table(
        ["game", "players", "seat", "games", "avg place", "win share", "seat term (Elo)"],
        [
            [a.game, str(a.players), str(a.seat), str(a.games), fmt.place(a.average_place),
             fmt.share(a.win_share), fmt.seat_term(a)]
            for a in board.seat_advantage
        ],
    )
    parts += ["", "## Faults", ""]
    parts += _table(
        ["bot", "timeout", "illegal", "crash", "malformed", "start", "forfeits", "total"],
        [
            [f.bot, str(f.timeout), str(f.illegal), str(f.crash), str(f.malformed), str(f.start),
             str(f.forfeits), str(f.total)]
            for f in board.faults
        ],
    )
    parts += ["", "## Reply latency (ms)", ""]
    parts += _table(
        ["bot", "replies", "p50", "p90", "p99"],
        [
            [t.bot, str(t.decisions), fmt.milliseconds(t.p50), fmt.milliseconds(t.p90),
             fmt.milliseconds(t.p99)]
            for t in board.latency
        ],
    )
    if board.tournament is not None and board.tournament.settings:
        parts += ["", "## Tournament settings", ""]
        parts += _table(
            ["setting", "value"],
            [[key, _value(value)] for key, value in board.tournament.settings.items()],
        )
    return "\n".join(parts) + "\n"


def _value(value: object) -> str:
    return value if isinstance(value, str) else json.dumps(value)


def _table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    lines = ["| " + " | ".join(markdown(h) for h in header) + " |"]
    lines.append("|" + "|".join("---" for _ in header) + "|")
    lines += ["| " + " | ".join(markdown(c) for c in row) + " |" for row in rows]
    return lines
