"""The live page in a real headless Chromium (1366x900 and 390x844) over a stored tournament:
finished games stay as result cards whose links open their replays, the end shows the final
standings and the winner, an empty tournament says "no games yet", and the runner's line tells a
live runner between games from a stopped one."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from tests.browser.chromium import chromium, console_errors
from tests.live.test_live_results import BEATING
from tests.live.test_live_view import ARENA, free_port, get_json
from tests.site.site_league import store_league

pytestmark = pytest.mark.browser

SIZES = [(1366, 900), (390, 844)]


@pytest.fixture()
def serve() -> Iterator[object]:
    """A function that starts ``arena serve`` for a database and returns its address; every server
    started is stopped at the end."""
    servers: list[subprocess.Popen[str]] = []

    def start(db: Path) -> str:
        port = free_port()
        server = subprocess.Popen([*ARENA, "serve", "--db", str(db), "--port", str(port), "--interval", "0.1"],
                                  cwd=db.parent, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        servers.append(server)
        assert server.stdout is not None and server.stdout.readline().startswith("live view of")
        address = f"http://127.0.0.1:{port}/"
        deadline = time.monotonic() + 60
        while True:  # the address is printed just before the server listens
            try:
                get_json(address + "state")
                return address
            except OSError:
                assert server.poll() is None and time.monotonic() < deadline, server.communicate()
                time.sleep(0.05)

    yield start
    for server in servers:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=20)


def open_at(browser: webdriver.Chrome, address: str, size: tuple[int, int]) -> None:
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                            {"width": size[0], "height": size[1], "deviceScaleFactor": 1, "mobile": size[0] < 600})
    browser.get(address)


def no_sideways_scroll(browser: webdriver.Chrome) -> bool:
    return bool(browser.execute_script("return document.documentElement.scrollWidth <= window.innerWidth"))


@pytest.mark.parametrize("size", SIZES)
def test_a_finished_run_keeps_result_cards_with_replays_and_final_standings(
    size: tuple[int, int], serve: object, tmp_path: Path
) -> None:
    db = store_league(tmp_path, "wongar", "basic", forfeit=True)
    address = serve(db)  # type: ignore[operator]
    with chromium(*size) as browser:
        open_at(browser, address, size)
        WebDriverWait(browser, 20).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#finished .result-card")) == 3)
        assert browser.find_element(By.ID, "standings-title").text == "Final standings"
        WebDriverWait(browser, 60).until(lambda d: d.find_element(By.ID, "final").text.startswith("Winner: "))
        assert browser.find_element(By.ID, "games").text == "The run is over: all 3 games are played."
        assert not browser.find_element(By.ID, "runner").is_displayed()
        card = browser.find_element(By.CSS_SELECTOR, "#finished .result-card")
        assert "faulty" in card.text and "(illegal, crash, forfeit)" in card.text
        assert no_sideways_scroll(browser)
        assert console_errors(browser) == []
        card.find_element(By.CSS_SELECTOR, "a.watch").click()
        WebDriverWait(browser, 20).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#players .player-name"))
        assert browser.current_url.startswith(address + "games/") and ".html" in browser.current_url
        assert "faulty (illegal, crash, forfeit)" in browser.find_element(By.ID, "players").text
        assert console_errors(browser) == []


def test_no_games_yet_and_a_runner_between_games_then_stopped(serve: object, tmp_path: Path) -> None:
    db = store_league(tmp_path, "waroong", "street-vendor", unplayed=3)
    address = serve(db)  # type: ignore[operator]
    with chromium(*SIZES[1]) as browser:
        open_at(browser, address, SIZES[1])
        WebDriverWait(browser, 20).until(lambda d: d.find_elements(By.ID, "no-games"))
        assert browser.find_element(By.ID, "no-games").text == "No games yet."
        assert browser.find_element(By.ID, "finished").text == "No game has finished yet."
        runner = browser.find_element(By.ID, "runner")
        WebDriverWait(browser, 20).until(lambda d: runner.text.startswith("No runner is playing: 3 games are left"))
        assert runner.get_attribute("data-state") == "stopped"
        child = subprocess.Popen([sys.executable, "-c", BEATING, str(db.with_name(db.name + ".live"))],
                                 stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                                 env={**os.environ, "PYTHONPATH": os.getcwd()})
        try:
            assert child.stdout is not None and child.stdout.readline() == "beating\n"
            WebDriverWait(browser, 20).until(lambda d: runner.text == f"The runner is alive (pid {child.pid}), between games.")
        finally:
            child.communicate("", timeout=30)
        WebDriverWait(browser, 20).until(lambda d: runner.text.startswith("No runner is playing"))
        assert no_sideways_scroll(browser)
        assert console_errors(browser) == []
