"""The viewer ``arena game new`` scaffolds, in a real headless Chromium: drawn by the site's
``replay.js`` from real observations of the generated game, it shows a panel per seat with every
hand in the omniscient view, only the chosen seat's hand "as seat N" (the others' as a count), the
trick on the table, and logs no script error."""

from __future__ import annotations

import importlib
import json
import random
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest
from selenium import webdriver
from selenium.webdriver.common.by import By

from arena.gamekit.scaffold import scaffold
from chromium import console_errors
from tests.browser.test_browser_replay import open_page

pytestmark = pytest.mark.browser

REPLAY_JS = Path(__file__).resolve().parents[2] / "arena" / "site" / "static" / "replay.js"

PAGE = """<!doctype html>
<html><head><meta charset="utf-8"><link rel="stylesheet" href="view_trick/viewer.css"></head>
<body><div id="board"></div>
<script src="replay.js"></script><script src="view_trick/viewer.js"></script></body></html>
"""

DRAW = """
const [observations, seat] = arguments;
const priv = observations.map((o, s) => (seat === null || seat === s ? o : null));
ArenaReplay.draw(document.getElementById('board'), {game: 'view_trick', bots: ['a', 'b', 'c']}, {}, priv, null, seat, 0);
return {
  hands: Array.from(document.querySelectorAll('#board .player')).map((p) => [Number(p.dataset.seat), p.querySelector('.hand').dataset.hidden || null, p.querySelector('.hand').textContent]),
  trick: document.querySelector('#board .trick').textContent,
};
"""


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, ModuleType]]:
    """The scaffolded ``view_trick`` package's folder and its imported game module."""
    root = scaffold("view_trick", tmp_path_factory.mktemp("kit"))
    sys.path.insert(0, str(root))
    try:
        yield root, importlib.import_module("view_trick.game")
    finally:
        sys.path.remove(str(root))
        for name in [n for n in sys.modules if n == "view_trick" or n.startswith("view_trick.")]:
            del sys.modules[name]


def test_the_scaffolded_viewer_shows_only_what_the_chosen_view_may_see(
    browser: webdriver.Chrome, project: tuple[Path, ModuleType]
) -> None:
    root, module = project
    (root / "replay.js").write_text(REPLAY_JS.read_text(encoding="utf-8"), encoding="utf-8")
    page = root / "page.html"
    page.write_text(PAGE, encoding="utf-8")
    state = module.GAME.new_state(3, 4, "high")
    rng = random.Random(4)
    for _ in range(4):  # into the second trick, one card on the table
        seat = state.to_move()[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    observations = json.loads(json.dumps([state.observation(s) for s in range(3)]))
    open_page(browser, page)
    everything = browser.execute_script(DRAW, observations, None)
    assert everything["hands"] == [[s, None, "hand: " + " ".join(map(str, state.hands[s]))] for s in range(3)]
    (who, card), = state.trick
    assert everything["trick"] == f"trick: {card} (seat {who})"
    seen = browser.execute_script(DRAW, observations, 1)
    for s, hidden, text in seen["hands"]:
        if s == 1:
            assert hidden is None and text == "hand: " + " ".join(map(str, state.hands[1]))
        else:
            assert hidden == "true" and text == f"hand: {len(state.hands[s])} cards (hidden)"
    assert browser.find_element(By.CSS_SELECTOR, "#board .player").is_displayed()
    assert console_errors(browser) == []
