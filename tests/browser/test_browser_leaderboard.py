"""The leaderboard page in a real headless Chromium at 1366x900 and 390x844: an open interval
(an unbeaten bot) is drawn dashed with an arrow and marked "too few games", the axis labels never
overlap, 30 bots' ratings table fits a laptop screen, and the head-to-head keeps its first column
in view while it scrolls."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from leaderboards import RatedGame, RatingSettings, build_leaderboard, publish

LAPTOP = (1366, 900)
PHONE = (390, 844)


def league(bots: int, games: int, unbeaten: bool = False) -> list[RatedGame]:
    """``games`` seeded 3-seat games among ``bots`` bots; bot ``b00`` wins every game it plays
    when ``unbeaten``."""
    rng = random.Random(bots * 1000 + games)
    names = [f"b{n:02d}-{'long-name' if n % 3 else 'x'}" for n in range(bots)]
    played: list[RatedGame] = []
    for seed in range(games):
        seated = tuple(rng.sample(names, 3))
        ranks = [1, 2, 3]
        rng.shuffle(ranks)
        if unbeaten and names[0] in seated:
            rest = [2, 3]
            rng.shuffle(rest)
            ranks = [1 if bot == names[0] else rest.pop() for bot in seated]
        played.append(RatedGame("wongar", "basic", seed, seated, tuple(ranks)))
    return played


def page_of(games: list[RatedGame], folder: Path) -> Path:
    board = build_leaderboard(games, settings=RatingSettings(bootstrap_samples=40))
    return publish(board, folder).html


def show(browser: webdriver.Chrome, page: Path, size: tuple[int, int]) -> None:
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                            {"width": size[0], "height": size[1], "deviceScaleFactor": 1, "mobile": size[0] < 600})
    browser.get("about:blank")
    browser.get(page.as_uri())
    WebDriverWait(browser, 10).until(lambda d: d.execute_script("return document.readyState") == "complete")


OVERLAPS = """
const labels = Array.from(document.querySelectorAll('#chart .axis .tick'))
  .filter((t) => getComputedStyle(t).visibility !== 'hidden' && t.textContent.trim() !== '')
  .map((t) => t.getBoundingClientRect());
let overlaps = 0;
for (let i = 1; i < labels.length; i++) if (labels[i].left < labels[i - 1].right + 2) overlaps++;
return [labels.length, overlaps, document.documentElement.scrollWidth, window.innerWidth];
"""


@pytest.mark.browser
@pytest.mark.parametrize("size", [LAPTOP, PHONE])
def test_an_open_interval_is_dashed_and_marked_and_axis_labels_never_overlap(
    size: tuple[int, int], browser: webdriver.Chrome, tmp_path: Path
) -> None:
    page = page_of(league(6, 60, unbeaten=True), tmp_path)
    show(browser, page, size)
    top = browser.find_element(By.CSS_SELECTOR, "#chart .row.open")
    assert top.get_attribute("data-bot") == "b00-x"
    assert top.find_elements(By.CSS_SELECTOR, ".bar.open-high")
    assert top.find_element(By.CLASS_NAME, "open-note").text == "too few games: no upper bound"
    note = top.find_element(By.CLASS_NAME, "open-note").rect
    track = top.find_element(By.CLASS_NAME, "track").rect
    assert track["x"] - 1 <= note["x"] and note["x"] + note["width"] <= track["x"] + track["width"] + 1
    for row in browser.find_elements(By.CSS_SELECTOR, "#chart .row.open"):  # the rest are prior-bound
        assert row.find_element(By.CLASS_NAME, "open-note").text.startswith("too few games: no ")
    assert browser.find_element(By.ID, "open-ends").is_displayed()
    shown, overlaps, scroll_width, width = browser.execute_script(OVERLAPS)
    assert shown >= 2 and overlaps == 0
    assert scroll_width <= width  # the page never scrolls sideways


@pytest.mark.browser
def test_thirty_bots_fit_a_laptop_and_the_head_to_head_keeps_its_names_in_view(
    browser: webdriver.Chrome, tmp_path: Path
) -> None:
    page = page_of(league(30, 400), tmp_path)
    show(browser, page, LAPTOP)
    ratings = browser.find_element(By.ID, "ratings")
    box = ratings.find_element(By.XPATH, "..")
    assert len(ratings.find_elements(By.CSS_SELECTOR, "tbody tr")) == 30
    assert browser.execute_script("return arguments[0].scrollWidth <= arguments[0].clientWidth", box)
    cross = browser.find_element(By.ID, "crosstable").find_element(By.XPATH, "..")
    assert browser.execute_script("return arguments[0].scrollWidth > arguments[0].clientWidth", cross)
    first = browser.find_element(By.CSS_SELECTOR, "#crosstable tbody tr th.name")
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", first)
    before = first.rect["x"]
    browser.execute_script("arguments[0].scrollLeft = 600", cross)
    WebDriverWait(browser, 5).until(lambda d: d.execute_script("return arguments[0].scrollLeft", cross) > 0)
    assert abs(first.rect["x"] - before) < 1  # sticky: still at the left edge
    covered = browser.execute_script(
        "const r = arguments[0].getBoundingClientRect();"
        "return document.elementFromPoint(r.left + 5, r.top + r.height / 2) === arguments[0] ||"
        " arguments[0].contains(document.elementFromPoint(r.left + 5, r.top + r.height / 2));", first)
    assert covered  # drawn above the scrolled cells
