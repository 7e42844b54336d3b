"""The published site in a real headless Chromium: the replay viewer steps to the end and shows
the stored scores, "as seat N" shows nothing of other seats' hidden cards, nothing is requested
from outside the site, no page scrolls sideways on a 390 px phone, and the games list filters."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select, WebDriverWait

from arena.site.build import SiteReport, build_site
from arena.store.db import Store
from chromium import console_errors, requests_made
from leaderboards.model import RatingSettings
from tests.site.site_league import BETA, MARKUP, store_league

Published = dict[str, tuple[Path, SiteReport]]


def open_page(browser: webdriver.Chrome, path: Path, width: int = 1280) -> None:
    """Load ``path`` at ``width`` CSS pixels, forgetting earlier requests and errors."""
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                            {"width": width, "height": 900, "deviceScaleFactor": 1, "mobile": width < 600})
    browser.get("about:blank")
    requests_made(browser)
    console_errors(browser)
    browser.get(path.as_uri())
    WebDriverWait(browser, 10).until(lambda d: d.execute_script("return document.readyState") == "complete")


def text_of(browser: webdriver.Chrome, selector: str) -> str:
    return str(browser.find_element(By.CSS_SELECTOR, selector).text)


def first_game(site: SiteReport) -> Path:
    return sorted((site.out / "games").glob("*.html"))[0]


@pytest.mark.parametrize("game", ["wongar", "waroong"])
def test_the_replay_steps_to_the_end_and_shows_the_stored_scores(
    game: str, browser: webdriver.Chrome, published: Published
) -> None:
    db, site = published[game]
    page = first_game(site)
    with Store(db) as store:
        record = store.game(page.stem).record
    open_page(browser, page)
    assert text_of(browser, "#position") == "the deal"
    assert not browser.find_element(By.ID, "result").is_displayed()
    browser.find_element(By.ID, "forward").click()
    assert text_of(browser, "#position") == f"decision 1 of {len(record.decisions)}"
    body = browser.find_element(By.TAG_NAME, "body")
    body.send_keys(Keys.ARROW_RIGHT)
    body.send_keys(Keys.ARROW_RIGHT)
    assert text_of(browser, "#position") == f"decision 3 of {len(record.decisions)}"
    body.send_keys(Keys.END)
    assert text_of(browser, "#position") == f"decision {len(record.decisions)} of {len(record.decisions)}"
    result = browser.find_element(By.ID, "result")
    assert result.is_displayed()
    shown = {int(li.get_attribute("data-seat")): int(li.find_element(By.CLASS_NAME, "final-score").text)
             for li in result.find_elements(By.TAG_NAME, "li")}
    assert shown == dict(enumerate(record.scores))
    # the board's running scores agree with the stored ones at the end
    board_scores = [int(e.text.split()[-1]) for e in browser.find_elements(By.CSS_SELECTOR, "#board .score")]
    assert board_scores == list(record.scores)
    assert browser.title != "pwned"
    assert [e for e in console_errors(browser)] == []
    sent = requests_made(browser)
    assert sent and all(u.startswith(site.out.as_uri() + "/") for u in sent), sent


SEAT_VIEW = """
const seat = arguments[0];
const panels = Array.from(document.querySelectorAll('#board .player, #board tr[data-seat]')).map((p) => ({
  seat: Number(p.dataset.seat),
  lines: Array.from(p.querySelectorAll('.hand, .picks, .kept, .customers')).map((l) => [l.dataset.hidden || null, l.textContent]),
}));
const steps = arenaViewer.data.steps;
const log = Array.from(document.querySelectorAll('#log li[data-seat]')).map((li) => [Number(li.dataset.seat),
  li.querySelector('.what').textContent,
  (steps[Number(li.dataset.ply) + 1].ev || []).filter(([seats]) => seats === null).map(([, text]) => text).join('; ') || 'decided',
  li.querySelectorAll('pre.info, .step-events').length]);
return {panels, log, happened: document.getElementById('happened').textContent};
"""


@pytest.mark.parametrize("game", ["wongar", "waroong"])
def test_as_a_seat_shows_nothing_of_other_seats_hidden_cards(
    game: str, browser: webdriver.Chrome, published: Published
) -> None:
    _, site = published[game]
    open_page(browser, first_game(site))
    steps = int(browser.find_element(By.ID, "scrub").get_attribute("max"))
    seat = 1
    for step in (1, steps // 3, steps // 2, steps - 1):
        browser.execute_script("arenaViewer.setSeat(''); arenaViewer.show(arguments[0])", step)
        everything = browser.execute_script(SEAT_VIEW, seat)
        assert all(hidden is None for p in everything["panels"] for hidden, _ in p["lines"])
        Select(browser.find_element(By.ID, "view")).select_by_value(str(seat))
        seen = browser.execute_script(SEAT_VIEW, seat)
        assert len(seen["panels"]) == 3 and all(panel["lines"] for panel in seen["panels"])
        for panel in seen["panels"]:
            for hidden, text in panel["lines"]:
                if panel["seat"] != seat:
                    assert hidden == "true" and re.fullmatch(r"([a-z ]+: )?\d+ cards? \(hidden\)", text), text
                else:
                    assert hidden is None and "(hidden)" not in text
        for who, text, public, details in seen["log"]:
            if who != seat:  # what every seat saw of another seat's decision, and nothing more
                assert text == public and details == 0
        assert "seen by" not in seen["happened"]


def test_info_is_shown_as_text_and_faults_are_highlighted(browser: webdriver.Chrome, published: Published) -> None:
    _, site = published["wongar"]
    open_page(browser, first_game(site))
    infos = browser.find_elements(By.CSS_SELECTOR, "#log pre.info")
    assert infos
    assert json.loads(browser.execute_script("return arguments[0].textContent", infos[0]))["note"] == MARKUP
    assert not browser.find_elements(By.CSS_SELECTOR, "#log img")
    faults = browser.find_elements(By.CSS_SELECTOR, "#log li.fault")
    assert len(faults) == 1 and "illegal" in browser.execute_script("return arguments[0].textContent", faults[0])
    assert browser.title != "pwned"


def test_no_page_scrolls_sideways_on_a_390_px_phone(browser: webdriver.Chrome, published: Published) -> None:
    for game in ("wongar", "waroong"):
        _, site = published[game]
        pages = [site.out / "index.html", site.out / "games.html", *sorted((site.out / "bots").glob("*.html")),
                 first_game(site)]
        for page in pages:
            open_page(browser, page, width=390)
            if page.parent.name == "games":
                browser.find_element(By.TAG_NAME, "body").send_keys(Keys.END)
            wide = browser.execute_script("return document.documentElement.scrollWidth")
            assert wide <= 390, f"{page.name} is {wide} px wide at 390 px"
            broken = browser.execute_script(
                "return Array.from(document.querySelectorAll('#ratings td.name a, #crosstable th.bot span'))"
                ".filter((e) => e.getClientRects().length > 1).map((e) => e.textContent)")
            assert broken == [], f"{page.name}: names broken over lines: {broken}"
            assert console_errors(browser) == []


def test_the_games_list_filters_by_bot_and_by_fault(browser: webdriver.Chrome, published: Published) -> None:
    _, site = published["waroong"]
    open_page(browser, site.out / "games.html")
    rows = browser.find_elements(By.CSS_SELECTOR, "#games tbody tr")
    assert len(rows) == 3 and text_of(browser, "#shown") == "3 of 3 games"
    Select(browser.find_element(By.ID, "filter-fault")).select_by_visible_text("illegal")
    assert text_of(browser, "#shown") == "3 of 3 games"
    Select(browser.find_element(By.ID, "filter-fault")).select_by_visible_text("any or none")
    Select(browser.find_element(By.ID, "filter-bot")).select_by_visible_text("alpha")
    assert text_of(browser, "#shown") == "3 of 3 games"
    browser.execute_script("document.querySelector('#games tbody tr').dataset.bots = '[\"someone\"]'")
    Select(browser.find_element(By.ID, "filter-bot")).select_by_visible_text(BETA)
    assert text_of(browser, "#shown") == "2 of 3 games"
    assert not rows[0].is_displayed() and rows[1].is_displayed()
    link = (site.out / "bots").glob("beta-*.html")
    open_page(browser, next(link))
    browser.find_element(By.ID, "in-games-list").click()
    assert Select(browser.find_element(By.ID, "filter-bot")).first_selected_option.text == BETA


def test_the_replay_marks_whose_faults_and_the_forfeited_seat(browser: webdriver.Chrome, tmp_path: Path) -> None:
    db = store_league(tmp_path, "wongar", "basic", forfeit=True)
    with Store(db) as store:
        site = build_site(store, tmp_path / "site", settings=RatingSettings(bootstrap_samples=4))
    page = first_game(site)
    with Store(db) as store:
        record = store.game(page.stem).record
    seat = record.bots.index("faulty")
    open_page(browser, page)
    marks = {int(e.get_attribute("data-seat")): e.text for e in browser.find_elements(By.CSS_SELECTOR, "#players .player-name")}
    assert marks[seat] == f"seat {seat}: faulty (illegal, crash, forfeit)"
    assert all("(" not in text for s, text in marks.items() if s != seat)
    browser.find_element(By.TAG_NAME, "body").send_keys(Keys.END)
    line = browser.find_element(By.CSS_SELECTOR, f"#result li[data-seat='{seat}']")
    assert line.get_attribute("data-rank") == "3"
    assert "(illegal, crash, forfeit)" in line.text and "forfeited: ranked last whatever its score" in line.text
    assert console_errors(browser) == []
