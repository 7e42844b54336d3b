"""The games' boards in a real headless Chromium: on a 390x844 phone no element of either board
reaches past the screen's edges; the Wongar board labels every territory, piece kind and seat row,
draws the Scorpion track as the rules' 15 spaces in three phases, boxes each kind's majority
holder where the engine's position says, and marks what a step changed (a piece placed, a figure
moved); the Waroong board marks the dish just cooked and shows no customer lines in Street Vendor.

The marks of a step are drawn against ``ctx.before()`` (the previous step's view); where the page
does not pass one, the test passes the previous drawing's view itself, so the viewer is tested
either way."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from selenium import webdriver
from selenium.webdriver.support.ui import WebDriverWait

from arena.site.build import SiteReport, build_site
from arena.store.db import Store
from chromium import console_errors
from engine.core import State
from engine.registry import get_game
from leaderboards.model import RatingSettings
from tests.site.site_league import store_league

pytestmark = pytest.mark.browser

Published = dict[str, tuple[Path, SiteReport]]
#: The Scorpion track's spaces (docs/games/wongar.md, W3: 15 spaces, phases of 5, 5 and 5).
TRACK_SPACES = 15
PHASE_ENDS = [5, 10, 15]
KINDS = ("Disc", "Cube", "Cylinder")

#: Wraps the game's viewer: every drawing remembers its view, and a drawing whose ctx has no
#: before() gets the previous drawing's view as it.
WRAP = """
const game = arguments[0];
const R = window.ArenaReplay, draw = R.games[game];
let last = null;
R.games[game] = function (container, ctx) {
  const base = JSON.parse(JSON.stringify(ctx.base()));
  const previous = last;
  last = base;
  return draw(container, ctx.before ? ctx : Object.assign({}, ctx, { before: () => previous }));
};
"""

#: Every element of the board that is drawn, as [what, left, right] in CSS pixels.
EDGES = """
return Array.from(document.querySelectorAll('#board, #board *')).map((e) => [e, e.getBoundingClientRect()])
  .filter(([, r]) => r.width > 0 && r.height > 0)
  .map(([e, r]) => [e.tagName + '.' + (e.getAttribute('class') || '') + ' ' + (e.textContent || '').slice(0, 30), r.left, r.right]);
"""


def open_at(browser: webdriver.Chrome, page: Path, width: int, height: int) -> None:
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                            {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600})
    browser.get("about:blank")
    console_errors(browser)
    browser.get(page.as_uri())
    WebDriverWait(browser, 10).until(lambda d: d.execute_script("return document.readyState") == "complete")


def first_game(site: SiteReport) -> Path:
    return sorted((site.out / "games").glob("*.html"))[0]


def show(browser: webdriver.Chrome, step: int) -> None:
    browser.execute_script("arenaViewer.show(arguments[0])", step)


def replayed(db: Path, page: Path) -> list[State]:
    """The stored game of ``page`` through the engine: the state at each step of the replay."""
    with Store(db) as store:
        record = store.game(page.stem).record
    game = get_game(f"{record.game}@{record.version}")
    state = game.start(record.config, record.seed)
    states = [state.clone()]
    for decision in record.decisions:
        state.apply(decision.seat, decision.action)
        states.append(state.clone())
    return states


def overflowing(browser: webdriver.Chrome, width: int) -> list[Any]:
    return [e for e in browser.execute_script(EDGES) if e[1] < -0.5 or e[2] > width + 0.5]


@pytest.mark.parametrize("game", ["wongar", "waroong"])
def test_no_board_element_reaches_past_a_390_px_phone(game: str, browser: webdriver.Chrome, published: Published) -> None:
    _, site = published[game]
    open_at(browser, first_game(site), 390, 844)
    last = int(browser.find_element("id", "scrub").get_attribute("max"))
    for step in (0, last // 3, last // 2, last):
        show(browser, step)
        assert browser.execute_script("return document.querySelectorAll('#board *').length") > 20
        assert overflowing(browser, 390) == [], f"step {step}"
        assert browser.execute_script("return document.documentElement.scrollWidth") <= 390
    if game == "wongar":
        names = browser.execute_script("return Array.from(document.querySelectorAll('#board .territory .name')).map((e) => e.textContent)")
        assert sorted(names) == sorted(["Kangaroo", "Emu", "Serpent", "Goanna", "Hands", "Foot", "Turtle", "Dingo", "Fish", "Moon"])
    assert console_errors(browser) == []


def test_the_wongar_board_labels_kinds_and_seats_and_draws_the_rules_track(browser: webdriver.Chrome, published: Published) -> None:
    _, site = published["wongar"]
    open_at(browser, first_game(site), 1366, 900)
    territories = browser.execute_script("""
      return Array.from(document.querySelectorAll('#board .territory')).map((t) => ({
        heads: Array.from(t.querySelectorAll('.kind-head')).map((h) => h.textContent.replace(/^(discs|cubes|cylinders)/, '')),
        seats: Array.from(t.querySelectorAll('.pieces')).map((p) => p.querySelector('.seat-number').textContent),
        zeros: Array.from(t.querySelectorAll('.count')).filter((c) => c.textContent === '0').length }));""")
    assert len(territories) == 10
    for territory in territories:
        assert territory["heads"] == ["disc", "cube", "cyl."]
        assert territory["seats"] == ["0", "1", "2"]  # one row per seat, in seat order, even when empty
        assert territory["zeros"] == 0
    spaces = browser.execute_script("""
      return Array.from(document.querySelectorAll('#board .scorpion-track rect.space')).map((s) =>
        [Number(s.dataset.space), Number(s.dataset.phase), s.classList.contains('phase-end'), s.classList.contains('here')]);""")
    assert len(spaces) == TRACK_SPACES
    assert [s[0] for s in spaces] == list(range(1, TRACK_SPACES + 1))
    assert [s[0] for s in spaces if s[2]] == PHASE_ENDS
    assert [s[1] for s in spaces] == [1] * 5 + [2] * 5 + [3] * 5
    assert [s[0] for s in spaces if s[3]] == [1]  # the Scorpion starts on space 1


def majority_holders(state: State) -> dict[tuple[str, str], int]:
    """Each (territory, kind) with pieces on it and the seat holding its majority: the most
    pieces, a tie going to the first tied seat clockwise from the Ancestor's owner (W13)."""
    view = state.observation(0)
    players = int(view["players"])
    owner = int(view["ancestor"]["owner"])
    holders = {}
    for t, name in enumerate(view["territories"]):
        for k, kind in enumerate(KINDS):
            order = [(owner + i) % players for i in range(players)]
            counts = {s: view["pieces"][t][s][k] for s in order}
            best = max(order, key=lambda s: (counts[s], -order.index(s)))
            if counts[best]:
                holders[(str(name), kind)] = best
    return holders


MARKED = """
return Array.from(document.querySelectorAll('#board .territory')).flatMap((t) =>
  Array.from(t.querySelectorAll('.pieces')).flatMap((p) => Array.from(p.querySelectorAll('.cell.' + arguments[0])).map((c) =>
    [t.dataset.territory, c.dataset.kind, Number(p.dataset.seat)])));
"""


def test_the_majority_holders_and_the_ceremony_are_marked_where_the_engine_has_them(browser: webdriver.Chrome, published: Published) -> None:
    db, site = published["wongar"]
    page = first_game(site)
    states = replayed(db, page)
    open_at(browser, page, 1366, 900)
    for step in (0, len(states) // 2, len(states) - 1):
        show(browser, step)
        expected = majority_holders(states[step])
        assert expected, "the deal puts pieces on the board"
        marked = {(t, k): s for t, k, s in browser.execute_script(MARKED, "majority")}
        assert marked == expected, f"step {step}"
    assert "majority" in browser.execute_script("return document.querySelector('#board .legend').textContent")
    step = next(i for i, state in enumerate(states)
                if state.observation(0)["pending"]["decision"] in ("ceremony_play", "ceremony_effect"))
    show(browser, step)
    ceremony = browser.execute_script("return Array.from(document.querySelectorAll('#board .territory.ceremony')).map((t) => t.dataset.territory)")
    assert ceremony == [states[step].observation(0)["pending"]["territory"]]


def first_change(states: list[State], what: str) -> tuple[int, Any]:
    """The first step at which a piece count rose (``placed``: (territory, kind, seat)) or a
    figure moved (``ancestor``/``elder``: its new territory)."""
    for step in range(1, len(states)):
        before, now = states[step - 1].observation(0), states[step].observation(0)
        if what == "placed":
            for t, name in enumerate(now["territories"]):
                for s, kinds in enumerate(now["pieces"][t]):
                    for k, n in enumerate(kinds):
                        if n > before["pieces"][t][s][k]:
                            return step, (name, KINDS[k], s)
        elif now[what]["territory"] != before[what]["territory"]:
            return step, now[what]["territory"]
    raise AssertionError(f"no step changes {what}")


def test_a_step_marks_the_pieces_placed_and_the_figure_moved(browser: webdriver.Chrome, published: Published) -> None:
    db, site = published["wongar"]
    page = first_game(site)
    states = replayed(db, page)
    open_at(browser, page, 1366, 900)
    browser.execute_script(WRAP, "wongar")
    show(browser, 0)
    assert browser.execute_script(MARKED, "placed") == []
    step, where = first_change(states, "placed")
    show(browser, step - 1)
    show(browser, step)
    assert where in [tuple(m) for m in browser.execute_script(MARKED, "placed")]
    for figure in ("ancestor", "elder"):
        try:
            step, territory = first_change(states, figure)
        except AssertionError:
            continue
        show(browser, step - 1)
        show(browser, step)
        moves = browser.execute_script(f"return Array.from(document.querySelectorAll('#board .figure-move.{figure}')).map((m) => m.dataset.to)")
        assert moves == [territory]
        assert browser.execute_script(f"return document.querySelector('#board .figure.{figure}').classList.contains('moved')")
    assert console_errors(browser) == []


def test_the_waroong_board_marks_the_dish_just_cooked(browser: webdriver.Chrome, published: Published) -> None:
    db, site = published["waroong"]
    page = first_game(site)
    states = replayed(db, page)
    step = next(i for i in range(1, len(states))
                if sum(map(len, states[i].observation(0)["cooked"])) > sum(map(len, states[i - 1].observation(0)["cooked"])))
    cooks = [s for s, dishes in enumerate(states[step].observation(0)["cooked"]) if len(dishes) > len(states[step - 1].observation(0)["cooked"][s])]
    open_at(browser, page, 390, 844)
    browser.execute_script(WRAP, "waroong")
    show(browser, step - 1)
    show(browser, step)
    marked = browser.execute_script("return Array.from(document.querySelectorAll('#board .player')).filter((p) => p.querySelector('.just-cooked')).map((p) => Number(p.dataset.seat))")
    assert marked == cooks
    assert browser.execute_script("return document.querySelectorAll('#board .customers').length") == 3
    assert overflowing(browser, 390) == []


def test_street_vendor_shows_no_customer_cards(browser: webdriver.Chrome, tmp_path: Path) -> None:
    db = store_league(tmp_path, "waroong", "street-vendor")
    with Store(db) as store:
        site = build_site(store, tmp_path / "site", settings=RatingSettings(bootstrap_samples=2))
    open_at(browser, first_game(site), 390, 844)
    for step in (0, 40):
        show(browser, step)
        text = browser.execute_script("return document.getElementById('board').textContent")
        assert "customer" not in text and "picked groceries" in text
        assert browser.execute_script("return document.querySelectorAll('#board .customers').length") == 0
    assert console_errors(browser) == []
