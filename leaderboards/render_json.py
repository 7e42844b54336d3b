"""The leaderboard as plain JSON data, following ``leaderboards/schema.json``.

Ratings in Elo points, shares as fractions 0..1, latencies in seconds, full float precision.
"""

from __future__ import annotations

import json
from dataclasses import asdict
from importlib.resources import files
from typing import Any

from leaderboards.model import Leaderboard
from leaderboards.sprt import SprtResult

#: Names the layout of the JSON document; bumped on any incompatible change.
SCHEMA_ID = "arena-leaderboard/2"


def leaderboard_data(board: Leaderboard) -> dict[str, Any]:
    """The document as plain data (maps, lists, strings, numbers, booleans and nulls)."""
    tournament = board.tournament
    return {
        "schema": SCHEMA_ID,
        "title": board.title,
        "provisional": board.provisional,
        "tournament": None
        if tournament is None
        else {
            "name": tournament.name,
            "settings": dict(tournament.settings),
            "sprt": None if tournament.sprt is None else sprt_data(tournament.sprt),
            "rounds": None if tournament.rounds is None else asdict(tournament.rounds),
        },
        "settings": asdict(board.settings),
        "games": board.games,
        "blocks": board.blocks,
        "standings": [
            {**asdict(s), "flags": [flag.value for flag in s.flags]} for s in board.standings
        ],
        "los": [list(row) for row in board.los],
        "head_to_head": [asdict(m) for m in board.head_to_head],
        "seat_advantage": [asdict(s) for s in board.seat_advantage],
        "faults": [{**asdict(f), "total": f.total} for f in board.faults],
        "latency": [asdict(entry) for entry in board.latency],
        "groups": [list(group) for group in board.groups],
        "notes": list(board.notes),
        "clock": board.clock,
    }


def sprt_data(result: SprtResult) -> dict[str, Any]:
    """The early-stopping test as plain data."""
    return {
        "candidate": result.candidate,
        **result.settings.to_plain(),
        "blocks": result.blocks,
        "score": result.score,
        "elo": result.elo,
        "llr": result.llr,
        "lower": result.lower,
        "upper": result.upper,
        "verdict": result.verdict,
    }


def render_json(board: Leaderboard) -> str:
    """The document as indented, strict JSON text, all ASCII (so no character of a name can act on a
    terminal it is printed to)."""
    return json.dumps(leaderboard_data(board), indent=2, allow_nan=False) + "\n"


def schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) the document follows."""
    text = files("leaderboards").joinpath("schema.json").read_text(encoding="utf-8")
    loaded: dict[str, Any] = json.loads(text)
    return loaded
