"""The replay page's shell in a real headless Chromium at a laptop's 1366x900 and a phone's
390x844: the board, the players' scores and the log on one screen (or nothing cut off on a
phone), the score chart that jumps to a step, play speeds, the address followed on hashchange
and Back, the arrow keys after choosing a view, ``ctx.before()`` for the game viewers, the step's
log entries marked latest, the bots' info behind a toggle, and the end screen's breakdown."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from selenium import webdriver
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select, WebDriverWait

from arena.site.build import SiteReport, build_site
from arena.store.db import Store
from chromium import console_errors
from leaderboards.model import RatingSettings
from tests.site.site_league import store_league

Published = dict[str, tuple[Path, SiteReport]]

pytestmark = pytest.mark.browser

SIZES = [pytest.param((1366, 900), id="laptop"), pytest.param((390, 844), id="phone")]


def open_replay(browser: webdriver.Chrome, page: Path, size: tuple[int, int], moment: str = "") -> None:
    """Load the replay ``page`` at ``moment`` (``seat=1&step=4``) in a ``size`` window."""
    width, height = size
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                            {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600})
    browser.get("about:blank")
    console_errors(browser)
    browser.get(page.as_uri() + ("#" + moment if moment else ""))
    WebDriverWait(browser, 10).until(lambda d: d.execute_script("return !!window.arenaViewer"))


def first_game(site: SiteReport) -> Path:
    return sorted((site.out / "games").glob("*.html"))[0]


def position(browser: webdriver.Chrome) -> int:
    """The step shown (from the viewer's own record, which the page's address follows)."""
    return int(browser.execute_script("return arenaViewer.index"))


def wait_for_step(browser: webdriver.Chrome, step: int) -> None:
    WebDriverWait(browser, 10).until(lambda d: position(d) == step)


BOXES = """
const box = (s) => { const r = document.querySelector(s).getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
return {board: box('#board'), players: box('#scoreboard'), log: box('#log'), width: innerWidth, height: innerHeight,
        scrollWidth: document.documentElement.scrollWidth};
"""


@pytest.mark.parametrize("game", ["wongar", "waroong"])
@pytest.mark.parametrize("size", SIZES)
def test_board_players_and_log_fit_one_screen_or_nothing_is_cut_off(
    game: str, size: tuple[int, int], browser: webdriver.Chrome, published: Published
) -> None:
    _, site = published[game]
    page = first_game(site)
    for moment in ("step=30", "seat=1&step=30", "step=100000"):
        open_replay(browser, page, size, moment)
        boxes = browser.execute_script(BOXES)
        assert boxes["scrollWidth"] <= boxes["width"], f"{moment}: the page is {boxes['scrollWidth']} px wide"
        if size[0] >= 1200:
            for name in ("board", "players", "log"):
                left, top, right, bottom = boxes[name]
                assert 0 <= left < right <= boxes["width"] and 0 <= top < bottom <= boxes["height"], (moment, name, boxes[name])
        # a board wider than its box scrolls inside it, and the page says so
        overflowing = browser.execute_script(
            "return [arenaViewer.board, ...arenaViewer.board.querySelectorAll('div, table')].some((e) =>"
            " e.scrollWidth > e.clientWidth + 1 && /auto|scroll/.test(getComputedStyle(e).overflowX))")
        assert browser.find_element(By.ID, "board-hint").is_displayed() == overflowing
    assert console_errors(browser) == []


def chart_offset(browser: webdriver.Chrome, step: int) -> int:
    """The x offset from the chart's centre at which ``step`` is drawn."""
    return int(browser.execute_script(
        "const r = document.querySelector('#chart svg').getBoundingClientRect();"
        "return Math.round(r.width * (arguments[0] / (arenaViewer.data.steps.length - 1) - 0.5))", step))


@pytest.mark.parametrize("size", SIZES)
def test_the_score_chart_jumps_to_the_step_clicked_and_marks_the_faults(
    size: tuple[int, int], browser: webdriver.Chrome, published: Published
) -> None:
    _, site = published["wongar"]
    open_replay(browser, first_game(site), size)
    data: dict[str, Any] = browser.execute_script("return arenaViewer.data")
    last = len(data["steps"]) - 1
    chart = browser.find_element(By.CSS_SELECTOR, "#chart svg")
    assert len(chart.find_elements(By.CSS_SELECTOR, "polyline.line")) == len(data["bots"])
    marks = [int(m.get_attribute("data-step")) for m in chart.find_elements(By.CSS_SELECTOR, ".fault-mark")]
    assert marks == [min(last, f[2] + 1) for f in data["faults"]] and marks
    target = last // 2
    ActionChains(browser).move_to_element_with_offset(chart, chart_offset(browser, target), 0).click().perform()
    wide = browser.execute_script("return document.querySelector('#chart svg').getBoundingClientRect().width")
    assert abs(position(browser) - target) <= max(1, round(last / wide)), (position(browser), target)
    assert browser.execute_script("return location.hash") == f"#step={position(browser)}"
    ActionChains(browser).move_to_element_with_offset(chart, chart_offset(browser, marks[0]), 0).click().perform()
    assert abs(position(browser) - marks[0]) <= max(1, round(last / wide))
    # the scores charted at a step are the players table's
    shown = [int(td.text) for td in browser.find_elements(By.CSS_SELECTOR, "#scoreboard td.running")]
    assert shown == browser.execute_script("return arenaViewer.series[arenaViewer.index]")


@pytest.mark.parametrize("size", SIZES)
def test_a_seat_view_charts_only_the_scores_that_seat_saw(
    size: tuple[int, int], browser: webdriver.Chrome, published: Published
) -> None:
    # Waroong Wars counts customer cards still in hand: the scores are hidden from a seat
    _, site = published["waroong"]
    open_replay(browser, first_game(site), size, "seat=1&step=40")
    assert browser.find_element(By.ID, "chart").get_attribute("data-shown") == "none"
    assert not browser.find_elements(By.CSS_SELECTOR, "#chart polyline")
    assert {td.text for td in browser.find_elements(By.CSS_SELECTOR, "#scoreboard td.running")} == {"–"}
    Select(browser.find_element(By.ID, "view")).select_by_value("")
    assert browser.find_element(By.ID, "chart").get_attribute("data-shown") == "scores"
    # Wongar shows every seat the scores: the seat's chart is what its observation held
    _, site = published["wongar"]
    open_replay(browser, first_game(site), size, "seat=1&step=40")
    seen = browser.execute_script(
        "const v = arenaViewer; return [v.series[v.index], Object.assign({}, v.pub, v.priv[1]).scores]")
    assert seen[0] == seen[1] and len(browser.find_elements(By.CSS_SELECTOR, "#chart polyline")) == 3


RECORD_INTERVALS = """
window.intervals = [];
const setInterval0 = window.setInterval;
window.setInterval = (f, ms) => { window.intervals.push(ms); return setInterval0(f, ms); };
"""


@pytest.mark.parametrize("size", SIZES)
def test_the_play_speed_sets_the_interval_between_steps(
    size: tuple[int, int], browser: webdriver.Chrome, published: Published
) -> None:
    _, site = published["waroong"]
    open_replay(browser, first_game(site), size)
    browser.execute_script(RECORD_INTERVALS)
    browser.find_element(By.ID, "play").click()
    WebDriverWait(browser, 10).until(lambda d: position(d) >= 1)  # it plays
    Select(browser.find_element(By.ID, "speed")).select_by_value("4")
    Select(browser.find_element(By.ID, "speed")).select_by_value("0.5")
    assert browser.execute_script("return window.intervals") == [600, 150, 1200]
    assert browser.find_element(By.ID, "play").text == "pause"
    browser.find_element(By.ID, "play").click()
    Select(browser.find_element(By.ID, "speed")).select_by_value("2")  # paused: no timer started
    browser.find_element(By.ID, "play").click()
    assert browser.execute_script("return window.intervals") == [600, 150, 1200, 300]
    browser.find_element(By.ID, "play").click()


@pytest.mark.parametrize("size", SIZES)
def test_the_address_is_followed_when_it_changes_and_on_back(
    size: tuple[int, int], browser: webdriver.Chrome, published: Published
) -> None:
    _, site = published["wongar"]
    open_replay(browser, first_game(site), size, "step=3")
    assert position(browser) == 3
    browser.execute_script("location.hash = '#step=7'")  # as typed into the address bar
    wait_for_step(browser, 7)
    browser.execute_script("location.hash = '#seat=2&step=12'")
    wait_for_step(browser, 12)
    assert Select(browser.find_element(By.ID, "view")).first_selected_option.get_attribute("value") == "2"
    browser.back()
    wait_for_step(browser, 7)
    assert Select(browser.find_element(By.ID, "view")).first_selected_option.get_attribute("value") == ""
    assert browser.find_element(By.ID, "position").text.startswith("decision 7 of ")


@pytest.mark.parametrize("size", SIZES)
def test_after_choosing_a_view_the_arrows_step_the_replay(
    size: tuple[int, int], browser: webdriver.Chrome, published: Published
) -> None:
    _, site = published["waroong"]
    open_replay(browser, first_game(site), size, "step=5")
    view = Select(browser.find_element(By.ID, "view"))
    view.select_by_value("1")
    ActionChains(browser).send_keys(Keys.ARROW_RIGHT).send_keys(Keys.ARROW_RIGHT).perform()
    assert position(browser) == 7 and view.first_selected_option.get_attribute("value") == "1"
    browser.execute_script("document.getElementById('view').focus()")  # even with the list in focus
    ActionChains(browser).send_keys(Keys.ARROW_LEFT).perform()
    assert position(browser) == 6 and view.first_selected_option.get_attribute("value") == "1"


SPY = """
const name = arenaViewer.data.game;
const drawn = ArenaReplay.games[name] || ArenaReplay.games.generic;
window.seen = [];
ArenaReplay.games[name] = (container, ctx) => {
  window.seen.push({base: JSON.stringify(ctx.base()), before: ctx.before() === null ? null : JSON.stringify(ctx.before())});
  drawn(container, ctx);
};
"""


@pytest.mark.parametrize("game", ["wongar", "waroong"])
@pytest.mark.parametrize("size", SIZES)
def test_a_game_viewer_gets_the_step_before(
    game: str, size: tuple[int, int], browser: webdriver.Chrome, published: Published
) -> None:
    _, site = published[game]
    open_replay(browser, first_game(site), size, "seat=1&step=0")
    browser.execute_script(SPY)
    browser.execute_script("arenaViewer.show(0); arenaViewer.show(20); arenaViewer.show(21); arenaViewer.show(9); arenaViewer.show(10)")
    seen = browser.execute_script("return window.seen")
    assert seen[0]["before"] is None
    # the step before 21 is step 20 of the same view; going back to 10 starts again from 9
    assert seen[2]["before"] == seen[1]["base"] and seen[4]["before"] == seen[3]["base"]
    assert console_errors(browser) == []


@pytest.mark.parametrize("size", SIZES)
def test_the_steps_log_entries_are_marked_latest_and_kept_in_sight(
    size: tuple[int, int], browser: webdriver.Chrome, published: Published
) -> None:
    _, site = published["wongar"]
    open_replay(browser, first_game(site), size, "step=150")
    latest = browser.find_elements(By.CSS_SELECTOR, "#log > li.current")
    assert [li.get_attribute("data-step") for li in latest] == ["150"] and latest[0].get_attribute("data-ply") == "149"
    texts = {li.text for li in latest[0].find_elements(By.CSS_SELECTOR, ".step-events li")}
    assert texts == {li.text for li in browser.find_elements(By.CSS_SELECTOR, "#happened li")} - {"No event at this step."}
    inside = browser.execute_script(
        "const l = document.getElementById('log').getBoundingClientRect(), c = arguments[0].getBoundingClientRect();"
        "return c.top >= l.top - 1 && c.top < l.bottom", latest[0])
    assert inside


@pytest.mark.parametrize("size", SIZES)
def test_the_bots_info_shows_only_when_asked(
    size: tuple[int, int], browser: webdriver.Chrome, published: Published
) -> None:
    _, site = published["wongar"]
    open_replay(browser, first_game(site), size, "step=4")
    infos = browser.find_elements(By.CSS_SELECTOR, "#log pre.info")
    assert infos and not any(i.is_displayed() for i in infos)
    browser.find_element(By.ID, "show-info").click()
    browser.execute_script("arguments[0].scrollIntoView()", infos[0])
    assert infos[0].is_displayed()
    browser.find_element(By.ID, "show-info").click()
    assert not infos[0].is_displayed()


@pytest.fixture(scope="module")
def forfeit_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, SiteReport]]:
    """A Wongar league whose ``faulty`` bot crashes and forfeits every game, published."""
    folder = tmp_path_factory.mktemp("forfeit")
    db = store_league(folder, "wongar", "basic", forfeit=True)
    with Store(db) as store:
        yield db, build_site(store, folder / "site", settings=RatingSettings(bootstrap_samples=4))


BREAKDOWN = """
const table = document.getElementById('breakdown');
const seats = Array.from(table.tHead.querySelectorAll('th[data-seat]')).map((th) => [Number(th.dataset.seat), th.textContent]);
const column = (tr) => Array.from(tr.querySelectorAll('td')).map((td) => td.textContent);
return {seats, rows: Array.from(table.tBodies[0].rows).map(column),
        total: column(table.tFoot.querySelector('.total')), place: column(table.tFoot.querySelector('.place'))};
"""


@pytest.mark.parametrize("size", SIZES)
def test_the_end_screen_breaks_the_scores_down_by_seat_with_forfeits(
    size: tuple[int, int], browser: webdriver.Chrome, forfeit_site: tuple[Path, SiteReport]
) -> None:
    db, site = forfeit_site
    page = first_game(site)
    with Store(db) as store:
        record = store.game(page.stem).record
    open_replay(browser, page, size, "step=100000")
    assert browser.find_element(By.ID, "breakdown").is_displayed()
    table = browser.execute_script(BREAKDOWN)
    faulty = record.bots.index("faulty")
    assert [s for s, _ in table["seats"]] == list(range(record.players))
    assert table["seats"][faulty][1] == "faulty (illegal, crash, forfeit)"
    assert [sum(int(row[s]) for row in table["rows"]) for s in range(record.players)] == list(record.scores)
    assert [int(t) for t in table["total"]] == list(record.scores)
    assert table["place"][faulty] == f"{record.players}rd (forfeit)"
    assert all("forfeit" not in p for s, p in enumerate(table["place"]) if s != faulty)
    assert console_errors(browser) == []


@pytest.mark.parametrize("game, heading", [("wongar", "Wongar (basic)"), ("waroong", "Waroong Wars (five stars)")])
def test_the_heading_names_the_game_and_the_games_list_explains_its_numbers(
    game: str, heading: str, browser: webdriver.Chrome, published: Published
) -> None:
    _, site = published[game]
    open_replay(browser, first_game(site), (1366, 900))
    assert browser.find_element(By.ID, "heading").text.endswith(": " + heading)
    browser.get((site.out / "games.html").as_uri())
    assert "table.deal.rotation" in str(browser.find_element(By.CSS_SELECTOR, "#games th").get_attribute("title"))
    assert browser.find_element(By.ID, "number-legend").is_displayed()
