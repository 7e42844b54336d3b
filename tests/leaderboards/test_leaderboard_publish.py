"""Published forms: JSON against its schema, the HTML parsed and checked against the JSON,
Markdown, the Rich table, and writing the files."""

from __future__ import annotations

import json
from dataclasses import replace
from html.parser import HTMLParser
from pathlib import Path

import pytest
from rich.console import Console

from arena.inert import markdown
from arena.record import DecisionRecord, Fault, FaultKind
from leaderboards import format as fmt
from leaderboards.build import build_leaderboard
from leaderboards.errors import LeaderboardError
from leaderboards.model import Leaderboard, RatingSettings, TournamentInfo
from leaderboards.publish import publish
from leaderboards.render_html import render_html
from leaderboards.render_json import leaderboard_data, render_json, schema
from leaderboards.render_markdown import render_markdown
from leaderboards.render_table import render_table
from json_schema import SUPPORTED, keywords_used, violations
from lb_records import duplicate_tournament, ordered, record


# --- boards to publish ------------------------------------------------------------------------------

SETTINGS = RatingSettings(bootstrap_samples=30)


@pytest.fixture(scope="module")
def board() -> Leaderboard:
    games = duplicate_tournament({"Alpha": 0.7, "Beta": 0.2, "Gamma": -0.1, "<Delta & co>": -0.8}, 20, 3, 4)
    slow = [DecisionRecord(0, 1, 0.02 * i) for i in range(1, 30)] + [DecisionRecord(1, 0, 3.0, fallback=True)]
    games.append(
        record(["Alpha", "Beta", "Gamma"], [1, 2, 3], seed=500, decisions=slow,
               faults=[Fault(1, FaultKind.TIMEOUT, 29, "late")], forfeited=[1])
    )
    info = TournamentInfo("League | night", {"games": "wongar", "rounds": 3, "time": {"move": 1.5}}, True)
    return build_leaderboard(games, info, SETTINGS)


@pytest.fixture(scope="module")
def split_board() -> Leaderboard:
    games = [ordered(["A", "B"], seed=i) for i in range(3)] + [ordered(["B", "A"], seed=9)]
    games += [ordered(["C", "D"], seed=20 + i) for i in range(2)] + [ordered(["D", "C"], seed=29)]
    return build_leaderboard(games, None, replace(SETTINGS, anchor="A", anchor_elo=1600.0))


def test_schema_is_draft_2020_12_and_uses_only_checked_keywords() -> None:
    document = schema()
    assert document["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert keywords_used(document) <= SUPPORTED


@pytest.mark.parametrize("name", ["board", "split_board"])
def test_json_follows_its_schema(name: str, request: pytest.FixtureRequest) -> None:
    data = json.loads(render_json(request.getfixturevalue(name)))
    assert violations(data, schema(), schema()) == []


def test_the_validator_catches_a_broken_document(board: Leaderboard) -> None:
    data = leaderboard_data(board)
    data["standings"][0]["score"] = 1.5
    data["faults"][0]["timeout"] = "one"
    del data["games"]
    data["extra"] = True
    found = violations(json.loads(json.dumps(data)), schema(), schema())
    assert len(found) == 4


def test_json_carries_the_leaderboard(board: Leaderboard) -> None:
    data = json.loads(render_json(board))
    assert data["provisional"] is True and data["title"].endswith("(provisional)")
    assert [s["bot"] for s in data["standings"]] == [s.bot for s in board.standings]
    assert data["tournament"]["settings"]["time"] == {"move": 1.5}
    elos = [s["elo"] for s in data["standings"]]
    assert elos == sorted(elos, reverse=True)
    assert len(data["los"]) == len(data["standings"]) == len(data["los"][0])


class Tables(HTMLParser):
    """Cell texts of every table by id, the chart's rows (where each bot's dot sits along the axis,
    in percent), and anything that would load from outside."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: dict[str, list[list[str]]] = {}
        self.table: str | None = None
        self.cell: list[str] | None = None
        self.chart: dict[str, float] = {}
        self.group: str | None = None
        self.external: list[str] = []
        self.ids: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if "id" in values and values["id"]:
            self.ids.add(values["id"])
        if tag in ("script", "link", "img", "iframe") or any(
            k in ("src", "href") for k in values
        ):
            self.external.append(tag)
        if tag == "table":
            self.table = values.get("id") or ""
            self.tables[self.table] = []
        elif tag == "tr" and self.table is not None:
            self.tables[self.table].append([])
        elif tag in ("td", "th") and self.table is not None:
            self.cell = []
        elif "data-bot" in values:
            self.group = values["data-bot"]
        elif values.get("class") == "dot" and self.group is not None:
            self.chart[self.group] = float((values["style"] or "").removeprefix("left: ").rstrip("%"))

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self.cell is not None and self.table is not None:
            self.tables[self.table][-1].append("".join(self.cell).strip())
            self.cell = None
        elif tag == "table":
            self.table = None
        elif tag == "div":
            self.group = None

    def handle_data(self, data: str) -> None:
        if self.cell is not None:
            self.cell.append(data)


def parsed(board: Leaderboard) -> Tables:
    parser = Tables()
    parser.feed(render_html(board))
    parser.close()
    return parser


def test_html_ratings_table_matches_the_json(board: Leaderboard) -> None:
    page = parsed(board)
    data = json.loads(render_json(board))
    rows = page.tables["ratings"][1:]
    assert len(rows) == len(data["standings"])
    for row, s in zip(rows, data["standings"], strict=True):
        rank, bot, elo, margin, pairwise, games, score, place, win, los, faults = row
        assert int(rank) == s["rank"]
        assert bot.split(" ")[0] == s["bot"].split(" ")[0] and bot.startswith(s["bot"])
        assert float(elo) == pytest.approx(s["elo"], abs=0.05)
        below, above = margin.removeprefix("−").split("/+")
        assert float(below) == pytest.approx(s["elo"] - s["ci_low"], abs=0.05)
        assert float(above) == pytest.approx(s["ci_high"] - s["elo"], abs=0.05)
        assert float(pairwise) == pytest.approx(s["pairwise_elo"], abs=0.05)
        assert int(games) == s["games"]
        assert float(score.rstrip("%")) == pytest.approx(100 * s["score"], abs=0.05)
        assert float(place) == pytest.approx(s["average_place"], abs=0.005)
        assert float(win.rstrip("%")) == pytest.approx(100 * s["win_share"], abs=0.05)
        if s["los_next"] is None:
            assert los == fmt.MISSING
        else:
            assert float(los.rstrip("%")) == pytest.approx(100 * s["los_next"], abs=0.05)
        assert int(faults) == s["faults"]


def test_html_other_tables_match_the_json(board: Leaderboard) -> None:
    page = parsed(board)
    data = json.loads(render_json(board))
    names = [s["bot"] for s in data["standings"]]
    cross = page.tables["crosstable"]
    assert cross[0][1:] == names
    meetings = {(m["bot"], m["opponent"]): m for m in data["head_to_head"]}
    for row in cross[1:]:
        for col, cell in zip(names, row[1:], strict=True):
            if (row[0], col) in meetings:
                m = meetings[row[0], col]
                assert cell == f"{fmt.share(m['points'] / m['meetings'])} ({m['meetings']})"
            else:
                assert cell == fmt.MISSING
    faults = {row[0]: [int(v) for v in row[1:]] for row in page.tables["faults"][1:]}
    for f in data["faults"]:
        kinds = ["timeout", "illegal", "crash", "malformed", "start", "forfeits", "total"]
        assert faults[f["bot"]] == [f[k] for k in kinds]
    assert faults["Beta"][0] == 1 and faults["Beta"][5] == 1
    latency = {row[0]: row[1:] for row in page.tables["latency"][1:]}
    for t in data["latency"]:
        assert int(latency[t["bot"]][0]) == t["decisions"]
        assert latency[t["bot"]][1] == fmt.milliseconds(t["p50"])
        assert latency[t["bot"]][3] == fmt.milliseconds(t["p99"])
    seats = page.tables["seats"][1:]
    assert len(seats) == len(data["seat_advantage"])
    for row, a in zip(seats, data["seat_advantage"], strict=True):
        assert (row[0], int(row[1]), int(row[2]), int(row[3])) == (a["game"], a["players"], a["seat"], a["games"])
        assert row[6].startswith(("+", "−")) and "-" not in row[6], "a true minus, as in the ratings"
        assert float(row[6].replace("−", "-")) == pytest.approx(a["elo"], abs=0.05)
    settings = {row[0]: row[1] for row in page.tables["settings"]}
    assert settings["rounds"] == "3" and settings["time"] == '{"move": 1.5}'


def test_html_is_self_contained_escaped_and_labelled(board: Leaderboard) -> None:
    page = parsed(board)
    html = render_html(board)
    assert page.external == []
    assert "<Delta" not in html and "&lt;Delta &amp; co&gt;" in html
    assert "provisional" in page.ids
    xs = [page.chart[s.bot] for s in board.standings]
    assert len(xs) == len(board.standings)
    assert xs == sorted(xs, reverse=True)  # the best rating furthest right


def test_html_of_a_split_field_says_so(split_board: Leaderboard) -> None:
    page = parsed(split_board)
    assert "groups" in page.ids and "provisional" not in page.ids
    assert {row[1].split()[0] for row in page.tables["ratings"][1:] if row[2] == "1600.0"} == {"A"}


def test_markdown_has_every_section_and_escapes_cells(board: Leaderboard) -> None:
    text = render_markdown(board)
    assert text.startswith("# League \\| night (provisional)")
    assert "**Provisional:**" in text
    for heading in ["## Ratings", "## Head to head", "## Seat advantage", "## Faults",
                    "## Reply latency (ms)", "## Tournament settings"]:
        assert heading in text
    for s in board.standings:
        assert f"| {s.rank} | {markdown(fmt.bot_label(s))} | {fmt.elo(s.elo)} | {fmt.margin(s)} |" in text
    assert "\\<Delta \\& co\\>" in text


def test_rich_table_lists_every_standing(board: Leaderboard) -> None:
    console = Console(width=200, record=True, color_system=None)
    console.print(render_table(board))
    text = console.export_text()
    assert "(provisional)" in text
    for s in board.standings:
        line = next(line for line in text.splitlines() if f" {s.bot}" in line)
        assert fmt.elo(s.elo) in line and fmt.margin(s) in line and fmt.share(s.score) in line


def test_publish_writes_the_three_files(board: Leaderboard, tmp_path: Path) -> None:
    written = publish(board, tmp_path / "site" / "league")
    assert written.html.read_text(encoding="utf-8") == render_html(board)
    assert written.markdown.read_text(encoding="utf-8") == render_markdown(board)
    assert json.loads(written.json.read_text(encoding="utf-8")) == json.loads(render_json(board))


def test_publish_into_a_file_is_refused(board: Leaderboard, tmp_path: Path) -> None:
    blocker = tmp_path / "taken"
    blocker.write_text("not a directory")
    with pytest.raises(LeaderboardError, match="cannot write the leaderboard"):
        publish(board, blocker)
