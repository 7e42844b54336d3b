"""A bot's name is the organiser's text, shown inert: one that could not be part of a file name
(a ``/``, a NUL, a leading dot) still names a bot that plays and is stored under it."""

from __future__ import annotations

from pathlib import Path

import pytest
from tournament_league import run_arena

from arena.store.db import Store

NAMES = ("a/b", "nul\x00x", "../up")
CONFIG = """name = "names"
game = "wongar"
table_size = 3
format = "round-robin"
deals = 1
time_control = "5s"
seed = 3

[[bots]]
name = "a/b"
bot = "random"

[[bots]]
name = "nul\\u0000x"
bot = "random"

[[bots]]
name = "../up"
bot = "random"
"""


@pytest.mark.slow  # a whole tournament through the command line
def test_names_that_are_no_file_names_play_and_are_stored(tmp_path: Path) -> None:
    (tmp_path / "names.toml").write_text(CONFIG, encoding="utf-8")
    done = run_arena("tournament", "run", "names.toml", "--db", "n.db", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "played 3 games" in done.stdout
    with Store(tmp_path / "n.db") as store:
        games = store.games("names")
        assert {b.name for b in store.bots("names")} == set(NAMES)
    assert len(games) == 3 and all(set(g.record.bots) == set(NAMES) and not g.record.faults for g in games)
