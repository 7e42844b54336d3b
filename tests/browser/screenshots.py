"""Remake the replay viewer's screenshots in docs/images/: both games, at desktop and phone
widths, from the built-in ladders (one deal each) published and opened in headless Chromium.

Usage: python tests/browser/screenshots.py
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from pathlib import Path

from chromium import chromium

REPO = Path(__file__).resolve().parents[2]
OUT = REPO / "docs" / "images"
SIZES = {"desktop": (1100, 820), "phone": (390, 844)}
#: Where in each game to look: a step part-way through, seen as everything or as one seat.
MOMENTS = {"wongar": "step=70", "waroong": "seat=1&step=60"}


def arena(*args: str, cwd: Path) -> None:
    subprocess.run([sys.executable, "-c", "from arena.cli.app import main; main()", *args], cwd=cwd,
                   check=True, stdout=subprocess.DEVNULL)


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


if __name__ == "__main__":
    main()
