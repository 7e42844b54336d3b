"""Remake the screenshots in docs/images/: the replay viewer of both games at desktop and phone
widths, from the built-in ladders (one deal each) published and opened in headless Chromium; and
the live page during a Waroong Wars tournament of a slowed random bot and the built-in ones.

Usage: python tests/browser/screenshots.py
"""

from __future__ import annotations

import json
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from selenium import webdriver

from chromium import chromium

REPO = Path(__file__).resolve().parents[2]
OUT = REPO / "docs" / "images"
SIZES = {"desktop": (1366, 900), "phone": (390, 844)}
#: Where in each game to look: a step part-way through, seen as everything or as one seat.
MOMENTS = {"wongar": "step=70", "waroong": "seat=1&step=60"}


def arena(*args: str, cwd: Path) -> None:
    subprocess.run([sys.executable, "-c", "from arena.cli.app import main; main()", *args], cwd=cwd,
                   check=True, stdout=subprocess.DEVNULL)


LIVE_LEAGUE = """
name = "league-night"
game = "waroong"
variant = "five-stars"
table_size = 3
deals = 1
time_control = "5s/60s"
seed = 5
concurrency = 1
sandbox = false
[[bots]]
name = "slow-random"
bot = "{python} {bot}"
env = {{ ARENA_TEST_PAUSE = "0.15", PYTHONPATH = "{repo}" }}
[[bots]]
name = "greedy"
bot = "greedy"
[[bots]]
name = "ismcts"
bot = "ismcts"
nodes = 100
"""


def live(browser: webdriver.Chrome, work: Path) -> None:
    """The live page once the first game in play is some way in."""
    (work / "live.toml").write_text(LIVE_LEAGUE.format(
        python=sys.executable, bot=REPO / "tests" / "live" / "slow_bot.py", repo=REPO))
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    command = [sys.executable, "-c", "from arena.cli.app import main; main()"]
    server = subprocess.Popen([*command, "serve", "--db", "live.db", "--port", str(port)], cwd=work,
                              stdout=subprocess.DEVNULL)
    run = subprocess.Popen([*command, "tournament", "run", "live.toml", "--db", "live.db"], cwd=work,
                           stdout=subprocess.DEVNULL)
    try:
        address = f"http://127.0.0.1:{port}/"
        while True:
            time.sleep(0.5)
            try:
                with urllib.request.urlopen(address + "state", timeout=5) as reply:
                    view = json.load(reply)
            except OSError:
                continue
            if view["live"] and view["live"][0]["decisions"] > 40:
                break
        browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                {"width": 1100, "height": 820, "deviceScaleFactor": 1, "mobile": False})
        browser.get(address)
        time.sleep(1.5)
        target = OUT / "live-desktop.png"
        browser.save_screenshot(str(target))
        print(f"{target.relative_to(REPO)}: {target.stat().st_size // 1024} KiB")
    finally:
        run.kill()
        run.wait()
        server.send_signal(signal.SIGTERM)
        server.wait()


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as folder, chromium() as browser:
        work = Path(folder)
        for game in ("wongar", "waroong"):
            db = work / f"{game}.db"
            arena("tournament", "run", str(REPO / "examples" / f"ladder-{game}.toml"), "--db", str(db),
                  "--deals", "1", cwd=work)
            arena("publish", "--db", str(db), "--out", str(work / game), "--samples", "50", cwd=work)
            page = sorted((work / game / "games").glob("*.html"))[0]
            for size, (width, height) in SIZES.items():
                browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
                    "width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600})
                browser.get(f"{page.as_uri()}#{MOMENTS[game]}")
                time.sleep(0.5)
                target = OUT / f"replay-{game}-{size}.png"
                browser.save_screenshot(str(target))
                print(f"{target.relative_to(REPO)}: {target.stat().st_size // 1024} KiB")
        live(browser, work)


if __name__ == "__main__":
    main()
