"""Liar's Dice's own viewer on a published site in a real headless Chromium: at every step it
shows each seat's dice count, the standing bid and the round's bids as the engine has them, the
faces of every seat's dice in the omniscient view but only the chosen seat's "as seat N", and the
last challenge with the dice it revealed (those that counted marked, wild ones included); nothing
logs a script error. Both variants."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.webdriver.support.ui import Select

from arena.site.build import SiteReport, build_site
from arena.store.db import Store
from chromium import console_errors
from engine.core import replay
from leaderboards.model import RatingSettings
from liars_dice import GAME
from liars_dice.state import LiarsDiceState
from liars_dice.words import count_words
from tests.browser.test_browser_replay import first_game, open_page
from tests.site.site_league import store_league

pytestmark = pytest.mark.browser

BOARD = """
const seats = Array.from(document.querySelectorAll('#board .player')).map((p) => ({
  seat: Number(p.dataset.seat),
  count: p.querySelector('.dice-count').textContent,
  hidden: p.querySelector('.dice') ? p.querySelector('.dice').dataset.hidden || null : null,
  text: p.querySelector('.dice, .out-note').textContent,
  faces: Array.from(p.querySelectorAll('.die')).map((d) => Number(d.textContent)),
  out: p.classList.contains('out'),
}));
const bids = Array.from(document.querySelectorAll('#board .bid-history li')).map((li) => li.textContent);
const standing = document.querySelector('#board .standing-bid').textContent;
const challenge = document.querySelector('#board .last-challenge').textContent;
const revealed = document.querySelectorAll('#board .revealed li').length;
const matching = document.querySelectorAll('#board .revealed .die.matching').length;
return {seats, bids, standing, challenge, revealed, matching};
"""


@pytest.fixture(scope="module", params=["standard", "wild-ones"])
def site(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, SiteReport]]:
    """A stored tournament of Liar's Dice in the variant ``request.param``, and its published site."""
    folder = tmp_path_factory.mktemp("liars-dice")
    db = store_league(folder, "liars_dice", request.param)
    with Store(db) as store:
        yield db, build_site(store, folder / "site", settings=RatingSettings(bootstrap_samples=10))


def dice_words(n: int) -> str:
    return f"{n} {'die' if n == 1 else 'dice'}"


def test_the_viewer_shows_dice_bids_and_challenges_as_the_engine_has_them(
    browser: webdriver.Chrome, site: tuple[Path, SiteReport]
) -> None:
    db, report = site
    page = first_game(report)
    with Store(db) as store:
        record = store.game(page.stem).record
    config = GAME.configure(len(record.bots), record.variant, dict(record.knobs))
    moves = [(d.seat, d.action) for d in record.decisions]
    open_page(browser, page)
    assert browser.find_element("css selector", "#board .player")  # the game's viewer, not the generic table
    steps = len(moves)
    seat = 1
    for step in sorted({0, 1, steps // 3, steps // 2, steps - 1, steps}):
        state = replay(GAME, config, record.seed, moves[:step])
        assert isinstance(state, LiarsDiceState)
        browser.execute_script("arenaViewer.setSeat(''); arenaViewer.show(arguments[0])", step)
        everything = browser.execute_script(BOARD)
        assert [s["count"] for s in everything["seats"]] == [f" · {dice_words(len(d))}" for d in state.dice]
        for shown, held in zip(everything["seats"], state.dice):
            assert shown["out"] == (not held)
            assert shown["faces"] == sorted(held) and shown["hidden"] is None
        assert everything["bids"] == [f"seat {s} ({record.bots[s]}): {count_words(q, f)}" for s, q, f in state.history]
        if state.bid and not state.is_over():
            quantity, face = state.rules.bid_of(state.bid)
            assert everything["standing"].startswith(f"Standing bid: {count_words(quantity, face)} by seat {state.bidder} ")
        if state.last_challenge is None:
            assert everything["challenge"] == "no challenge yet"
        else:
            loser = state.last_challenge["loser"]
            assert isinstance(loser, int)
            assert f"seat {loser} ({record.bots[loser]}) lost a die" in everything["challenge"]
            assert everything["revealed"] == len(record.bots)
            assert everything["matching"] == state.last_challenge["count"]  # the dice that counted, marked
        Select(browser.find_element("id", "view")).select_by_value(str(seat))
        seen = browser.execute_script(BOARD)
        for shown, held in zip(seen["seats"], state.dice):
            if shown["seat"] == seat or not held:
                assert shown["hidden"] is None and shown["faces"] == sorted(held)
            else:
                assert shown["hidden"] == "true" and shown["faces"] == []
                assert shown["text"] == f"dice: {dice_words(len(held))} (hidden)"
    assert state.is_over() and "lost a die" in everything["challenge"]
    assert console_errors(browser) == []
