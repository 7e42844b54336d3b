"""``arena serve`` in a real browser while a real tournament runs: the page shows the games in
play with their boards updating decision by decision, the progress, and the leaderboard at the
end; nothing is requested from anywhere else; the live folder goes when the server stops."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from tests.browser.chromium import chromium, console_errors, requests_made

REPO = Path(__file__).resolve().parents[2]
ARENA = [sys.executable, "-c", "from arena.cli.app import main; main()"]

LEAGUE = """
name = "live-league"
game = "wongar"
variant = "basic"
table_size = 3
deals = 1
time_control = "5s/60s"
seed = 5
concurrency = 1
sandbox = false
[[bots]]
name = "slow"
bot = "{python} {bot}"
env = {{ ARENA_TEST_PAUSE = "0.01", PYTHONPATH = "{repo}" }}
[[bots]]
name = "random"
bot = "random"
[[bots]]
name = "greedy"
bot = "greedy"
"""


#: The first game in play on the page: its decision count, territories drawn and text.
CARD = """
const card = document.querySelector('.live-game');
return card && {decisions: Number(card.dataset.decisions), territories: card.querySelectorAll('.territory').length,
                text: card.textContent};
"""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def get_json(url: str) -> dict[str, Any]:
    with urllib.request.urlopen(url, timeout=10) as reply:
        data: dict[str, Any] = json.load(reply)
        return data


@pytest.fixture()
def served(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """``arena serve`` on a free port for ``tmp_path/league.db``: (its address, the database)."""
    port = free_port()
    db = tmp_path / "league.db"
    server = subprocess.Popen([*ARENA, "serve", "--db", str(db), "--port", str(port), "--interval", "0.1"],
                              cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    address = f"http://127.0.0.1:{port}/"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                assert get_json(address + "state")["message"] == "waiting for the tournament to start"
                break
            except OSError:
                assert server.poll() is None and time.monotonic() < deadline, server.communicate()
                time.sleep(0.1)
        yield address, db
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=20)
    assert not (tmp_path / "league.db.live").exists()


@pytest.mark.browser
def test_the_live_page_follows_a_running_tournament_to_its_leaderboard(served: tuple[str, Path]) -> None:
    address, db = served
    folder = db.parent
    (folder / "league.toml").write_text(LEAGUE.format(
        python=sys.executable, bot=Path(__file__).with_name("slow_bot.py"), repo=REPO))
    with chromium() as browser:
        browser.get(address)
        WebDriverWait(browser, 10).until(
            lambda d: "waiting" in d.find_element(By.ID, "message").text)
        run = subprocess.Popen([*ARENA, "tournament", "run", "league.toml", "--db", "league.db"],
                               cwd=folder, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               env={**os.environ, "COLUMNS": "120"})
        try:
            counts: list[int] = []
            deadline = time.monotonic() + 60
            hidden = False
            while len(set(counts)) < 3 and time.monotonic() < deadline:
                card = browser.execute_script(CARD)
                if card is not None:
                    counts.append(card["decisions"])
                    assert card["territories"] == 10  # the board is drawn
                    hidden = hidden or "(hidden)" in card["text"]
                time.sleep(0.05)
            assert len(set(counts)) >= 3, counts  # the board moved on while the game was played
            assert hidden  # hands stay private
            WebDriverWait(browser, 90).until(
                lambda d: d.find_element(By.ID, "leaderboard-section").is_displayed())
            assert run.wait(timeout=60) == 0, run.communicate()
        finally:
            if run.poll() is None:
                run.kill()
        rows = browser.find_elements(By.CSS_SELECTOR, "#leaderboard tbody tr")
        assert sorted(r.find_element(By.CSS_SELECTOR, ".name").text for r in rows) == ["greedy", "random", "slow"]
        assert browser.find_element(By.ID, "progress-text").text.startswith("3 of 3 games played")
        assert console_errors(browser) == []
        sent = requests_made(browser)
        assert sent and all(u.startswith(address) for u in sent), sent
    assert get_json(address + "state")["stored"] == 3


@pytest.mark.slow
def test_serve_refuses_a_busy_port_and_a_missing_folder(tmp_path: Path) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        done = subprocess.run([*ARENA, "serve", "--db", str(tmp_path / "x.db"), "--port", str(port)],
                              capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and f"cannot listen on 127.0.0.1:{port}" in done.stderr
    done = subprocess.run([*ARENA, "serve", "--db", str(tmp_path / "nowhere" / "x.db")],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "no such folder" in done.stderr
    assert list(tmp_path.iterdir()) == []
