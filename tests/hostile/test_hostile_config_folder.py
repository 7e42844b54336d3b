"""A command-line entrant runs in its tournament config's folder, beside the config (whose master
seed would rebuild every deal), the results database, its remote-seat keys and the other entrants'
bots. Sandboxed, it sees none of them: a hostile entrant that searches its folder, the folder of
its script and every folder above them finds nothing but its own script, and cannot open the
config or the database by their paths; an entrant whose script lies outside the config's folder
(``python3 ../bots/escape_bot.py``) runs from there. Played in a real tournament."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from arena.store.db import Store
from arena.tournament.config import load_config
from arena.tournament.executors import LocalExecutor
from arena.tournament.runner import run_tournament

pytestmark = pytest.mark.sandbox

ESCAPE_BOT = Path(__file__).with_name("escape_bot.py")

CONFIG = """\
name = "league"
game = "wongar"
table_size = 3
deals = 1
seed = 424242
time_control = "1s~1s"
concurrency = 1

[[bots]]
name = "honest"
bot = "random"

[[bots]]
name = "inside"
bot = "python3 escape_bot.py files"
env = {{ ATTACK_CONFIG = "{config}", ATTACK_DB = "{db}" }}

[[bots]]
name = "outside"
bot = "python3 ../bots/escape_bot.py files"
env = {{ ATTACK_CONFIG = "{config}", ATTACK_DB = "{db}" }}
"""


def test_an_entrant_in_the_configs_folder_finds_nothing_but_its_own_script(tmp_path: Path) -> None:
    league, shelf = tmp_path / "league", tmp_path / "bots"
    league.mkdir()
    shelf.mkdir()
    shutil.copy(ESCAPE_BOT, league / "escape_bot.py")
    shutil.copy(ESCAPE_BOT, shelf / "escape_bot.py")
    (league / "neighbour.py").write_text("# another entrant's bot\n")
    config_path, database = league / "league.toml", league / "league.db"
    config_path.write_text(CONFIG.format(config=config_path, db=database))
    (league / "league.db.remote").write_text("the remote seats' keys\n")
    config = load_config(config_path)
    with Store(database) as store:
        summary = run_tournament(config, store, LocalExecutor(1, pin_cpus=False))
        games = store.games("league")
    assert (summary.total, summary.played, summary.failed) == (3, 3, 0)
    reports: dict[str, list[str]] = {"inside": [], "outside": []}
    for game in games:
        assert game.record.faults == (), game.record.faults
        for decision in game.record.decisions:
            if decision.info is not None and "outcome" in decision.info:
                outcome = decision.info["outcome"]
                assert isinstance(outcome, list)
                reports[game.record.bots[decision.seat]] += [str(line) for line in outcome]
    for name, lines in reports.items():
        assert lines, f"{name} never played"
        assert [line for line in lines if not line.startswith("blocked")] == [], lines
