"""The game reference pages state the project's rulings themselves: every ruling id used is
defined in the page's list of rulings, and no file in the repository points at rulings kept
elsewhere."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
#: Per page: the letter of its ruling ids.
PAGES = {"wongar.md": "W", "waroong.md": "K"}


@pytest.mark.parametrize(("page", "letter"), sorted(PAGES.items()))
def test_every_ruling_used_is_listed_and_every_listed_ruling_is_used(page: str, letter: str) -> None:
    text = (ROOT / "docs" / "games" / page).read_text(encoding="utf-8")
    listed = re.findall(rf"^\| ({letter}\d+) \| .+ \|$", text, flags=re.MULTILINE)
    assert listed == [f"{letter}{i}" for i in range(1, len(listed) + 1)], "numbered in order"
    prose = text[: text.index("**The rulings**")]
    used = set(re.findall(rf"\*\*{letter}(\d+)\*\*", prose))
    assert used == {name[1:] for name in listed}


def test_no_file_points_at_rulings_outside_the_repository() -> None:
    tracked = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True)
    offenders = []
    for name in tracked.stdout.splitlines():
        path = ROOT / name
        if path.suffix not in {".py", ".md", ".toml", ".txt", ".json", ".j2", ".js", ".html"} or not path.is_file():
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        if re.search(r"RULINGS|rules folder", text) and path != Path(__file__):
            offenders.append(name)
    assert offenders == []
