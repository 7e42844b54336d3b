"""The published site: its files and links, replay data that rebuilds every observation the
engine gave, what it must never publish, and bot text kept inert."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from arena.cli.app import app
from arena.cli.leaderboard import replay_line
from arena.site.build import SiteReport, build_site
from arena.site.frames import diff
from arena.store.db import Store
from engine.registry import get_game
from leaderboards.model import RatingSettings
from tests.site.site_league import MARKUP, SECRET, play_scheduled, store_league


class Links(HTMLParser):
    """Every href and src of a page, and the ids of its table rows' data."""

    def __init__(self) -> None:
        super().__init__()
        self.targets: list[str] = []
        self.rows: list[dict[str, str | None]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for key, value in attrs:
            if key in ("href", "src") and value:
                self.targets.append(value)
        if tag == "tr" and any(k == "data-bots" for k, _ in attrs):
            self.rows.append(dict(attrs))


def links(page: Path) -> Links:
    parser = Links()
    parser.feed(page.read_text(encoding="utf-8"))
    return parser


def replay(site: SiteReport, game_id: str) -> dict[str, Any]:
    text = (site.out / "games" / f"{game_id}.js").read_text(encoding="utf-8")
    assert text.startswith("ArenaReplay.load(") and text.endswith(");\n")
    data: dict[str, Any] = json.loads(text[len("ArenaReplay.load("):-3])
    return data


def apply(target: Any, change: list[Any]) -> None:
    """One change of the replay data, as the viewer applies it."""
    path = change[0]
    for key in path[:-1]:
        target = target[key]
    if len(change) == 1:
        del target[path[-1]]
    else:
        target[path[-1]] = json.loads(json.dumps(change[1]))


@pytest.mark.parametrize("game", ["wongar", "waroong"])
def test_every_page_and_file_links_only_inside_the_site(game: str, sites: dict[str, SiteReport]) -> None:
    site = sites[game]
    pages = sorted(site.out.rglob("*.html"))
    assert (site.out / "index.html") in pages and (site.out / "games.html") in pages
    assert len(list((site.out / "bots").glob("*.html"))) == site.bots == 3
    assert len(list((site.out / "games").glob("*.js"))) == site.games == 3
    for page in pages:
        for target in links(page).targets:
            assert not re.match(r"^[a-z]+:|^//", target), f"{page.name} links outside: {target}"
            assert (page.parent / target.split("#")[0]).resolve().is_file(), f"{page.name}: {target} is missing"


@pytest.mark.parametrize("game", ["wongar", "waroong"])
def test_replay_data_rebuilds_what_every_seat_saw_and_the_final_scores(
    game: str, leagues: dict[str, Path], sites: dict[str, SiteReport]
) -> None:
    with Store(leagues[game]) as store:
        stored = store.games()
    for entry in stored:
        record = entry.record
        data = replay(sites[game], entry.placement.game_id)
        assert len(data["steps"]) == len(record.decisions) + 1
        state = get_game(f"{record.game}@{record.version}").start(record.config, record.seed)
        public: dict[str, Any] = {}
        private: list[dict[str, Any]] = [{} for _ in record.bots]
        for index, step in enumerate(data["steps"]):
            if index:
                decision = record.decisions[index - 1]
                state.apply(decision.seat, decision.action)
            for change in step["pub"]:
                apply(public, change)
            for seat, changes in enumerate(step.get("priv", [])):
                for change in changes:
                    apply(private[seat], change)
            views = [{k: v for k, v in state.observation(s).items() if k != "seat"} for s in range(record.players)]
            for seat, expected in enumerate(views):
                assert {**public, **private[seat]} == expected, f"step {index}, seat {seat}"
            for key, value in public.items():  # the shared channel holds only what every seat saw
                assert all(view[key] == value for view in views), f"step {index}: {key}"
        final = [s for s in (step.get("score") for step in data["steps"]) if s is not None][-1]
        assert final == list(record.scores) == data["scores"]
        assert data["ranks"] == list(record.ranks)


def test_the_diff_enters_maps_and_lists_and_replaces_the_rest() -> None:
    assert diff({"a": [1, 2], "b": 1}, {"a": [1, 3], "c": None}) == [[["b"]], [["a", 1], 3], [["c"], None]]
    assert diff([1, 2], [1, 2, 3]) == [[[], [1, 2, 3]]]
    assert diff({"x": {"y": 1}}, {"x": {"y": 1}}) == []


@pytest.mark.parametrize("game", ["wongar", "waroong"])
def test_nothing_published_holds_env_values_or_commands(game: str, sites: dict[str, SiteReport]) -> None:
    for path in sites[game].out.rglob("*"):
        if path.is_file():
            text = path.read_text(encoding="utf-8")
            assert SECRET not in text, path
            assert "faulty_bot.py" not in text and "bots.random" not in text, path
    index = (sites[game].out / "index.html").read_text(encoding="utf-8")
    assert "API_TOKEN" in index and "(hidden)" in index
    bot_page = (sites[game].out / "bots" / "alpha.html").read_text(encoding="utf-8")
    assert "version 1.0" in bot_page and "files-alpha" in bot_page


def test_commands_are_published_only_when_asked(leagues: dict[str, Path], tmp_path: Path) -> None:
    with Store(leagues["wongar"]) as store:
        site = build_site(store, tmp_path, settings=RatingSettings(bootstrap_samples=4), include_commands=True)
    texts = "\n".join(p.read_text(encoding="utf-8") for p in site.out.rglob("*.html"))
    assert "faulty_bot.py --level 3" in texts and "bots.random" in texts
    assert SECRET not in texts and "API_TOKEN" in texts  # env values stay hidden
    assert "bots.random --depth 4" in texts


@pytest.mark.parametrize("game", ["wongar", "waroong"])
def test_bot_supplied_markup_stays_data(game: str, sites: dict[str, SiteReport]) -> None:
    site = sites[game]
    pages = [p for p in site.out.rglob("*") if p.suffix in (".html", ".js")]
    raw = "\n".join(p.read_text(encoding="utf-8") for p in pages)
    assert "<img" not in raw and "<i>" not in raw  # (leaderboard.json holds names as plain JSON data)
    assert "beta &lt;i&gt;bot&lt;/i&gt; &amp; co" in (site.out / "games.html").read_text(encoding="utf-8")
    notes = [info["note"] for g in (site.out / "games").glob("*.js")
             for _, _, _, info, _ in replay(site, g.stem)["log"] if info]
    assert notes and set(notes) == {MARKUP}


def test_games_list_marks_faults_and_the_size_per_game_is_measured(sites: dict[str, SiteReport]) -> None:
    site = sites["wongar"]
    rows = links(site.out / "games.html").rows
    assert len(rows) == 3
    assert all(row["data-faults"] == "illegal" for row in rows)  # faulty sits at every table
    sizes = [p.stat().st_size for p in (site.out / "games").glob("*.js")]
    assert site.replay_bytes == sum(sizes) and site.bytes_per_game == sum(sizes) // 3
    assert site.bytes_per_game < 200_000


def test_replays_wait_until_every_seating_of_their_deal_is_played(tmp_path: Path) -> None:
    db = store_league(tmp_path, "waroong", "street-vendor", unplayed=1)
    with Store(db) as store:
        site = build_site(store, tmp_path / "site", settings=RatingSettings(bootstrap_samples=4))
        stored = store.games()
    assert len(stored) == 2 and site.games == 0 and site.stored == 2
    assert replay_line(site) == "no replays yet: all 2 wait until every seating of their deal is played"
    assert list((site.out / "games").iterdir()) == []
    page = (site.out / "games.html").read_text(encoding="utf-8")
    assert len(links(site.out / "games.html").rows) == 2 and 'id="withheld"' in page
    assert "games/" not in page.split("<table", 1)[1]
    index = (site.out / "index.html").read_text(encoding="utf-8")
    assert "provisional" in index and "(published when every game is played)" in index
    assert "<th class=\"name\">seed</th><td class=\"value\">11</td>" not in index


def test_the_master_seed_is_published_once_every_game_is_played(sites: dict[str, SiteReport]) -> None:
    index = (sites["wongar"].out / "index.html").read_text(encoding="utf-8")
    assert "<th class=\"name\">seed</th><td class=\"value\">11</td>" in index


@pytest.mark.parametrize("form", ["json", "md", "html"])
def test_the_leaderboard_command_hides_env_values_too(form: str, leagues: dict[str, Path]) -> None:
    result = CliRunner().invoke(app, ["leaderboard", "--db", str(leagues["waroong"]), "--format", form,
                                      "--samples", "4"])
    assert result.exit_code == 0, result.output
    assert SECRET not in result.output and "faulty_bot.py" not in result.output
    assert "API_TOKEN" in result.output.replace("\\_", "_")  # Markdown escapes the underscore


def test_games_list_says_whose_fault_and_marks_a_forfeited_seat(tmp_path: Path) -> None:
    db = store_league(tmp_path, "wongar", "basic", forfeit=True)
    with Store(db) as store:
        build_site(store, tmp_path / "site", settings=RatingSettings(bootstrap_samples=4))
        games = store.games()
    page = (tmp_path / "site" / "games.html").read_text(encoding="utf-8")
    for stored in games:
        seat = stored.record.bots.index("faulty")
        assert f'<span class="fault-whose">illegal, crash, forfeit: faulty (seat {seat})</span>' in page
    seats = re.findall(r'faulty</a> -?\d+ \((\d+), <span class="seat-faults">([^<]*)</span>\)', page)
    assert seats == [("3", "illegal, crash, forfeit")] * len(games)


def test_a_snapshot_reads_the_store_as_it_was_at_its_first_read(tmp_path: Path) -> None:
    db = store_league(tmp_path, "waroong", "street-vendor", unplayed=1)
    with Store(db) as store:
        with store.snapshot():
            before = store.games()
            play_scheduled(db, "waroong", "street-vendor", 3)  # another connection commits a game
            during = store.games()
            assert store.stored_ids("waroong-night") == {g.placement.game_id for g in before}
        after = store.games()
    assert len(before) == len(during) == 2 and len(after) == 3
    assert replay_line(SiteReport(tmp_path, 3, 3, 3000, 3)) == "3 replays, 1.0 KiB of data each on average"
    assert replay_line(SiteReport(tmp_path, 1, 3, 1024, 3)).endswith(
        "; 2 wait until every seating of their deal is played")


def test_a_snapshot_inside_a_snapshot_is_the_same_one(tmp_path: Path) -> None:
    db = store_league(tmp_path, "waroong", "street-vendor", unplayed=1)
    with Store(db) as store, store.snapshot():
        store.games()
        play_scheduled(db, "waroong", "street-vendor", 3)
        with store.snapshot():
            assert len(store.games()) == 2
        assert len(store.games()) == 2  # the inner one did not end the outer
