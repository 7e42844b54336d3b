"""What the live page keeps and says beyond the games in play: finished games as result cards
with their replays (once every seating of the deal is played), and the runner's heartbeat that
tells a stopped runner from a pause between games."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from arena.live.files import make_live_folder
from arena.live.heartbeat import HEARTBEAT, STALE, Heartbeat, runner_status
from arena.live.watch import Watch
from arena.site.viewers import viewer_of
from arena.store.db import Store
from engine.registry import get_game
from tests.site.site_league import store_league

BEATING = """
import sys
from pathlib import Path
from arena.live.heartbeat import Heartbeat
beat = Heartbeat(Path(sys.argv[1]), "night")
beat.beat()
print("beating", flush=True)
sys.stdin.read()  # then ends without a word, as a killed runner would
"""


def test_a_runner_that_ends_without_a_word_is_stopped_not_paused(tmp_path: Path) -> None:
    folder = make_live_folder(tmp_path / "league.db")
    assert runner_status(folder).state == "stopped"  # no runner yet
    child = subprocess.Popen([sys.executable, "-c", BEATING, str(folder)], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, text=True, env={**os.environ, "PYTHONPATH": os.getcwd()})
    try:
        assert child.stdout is not None and child.stdout.readline() == "beating\n"
        alive = runner_status(folder)
        assert alive.state == "running" and alive.pid == child.pid
        about = json.loads((folder / HEARTBEAT).read_text(encoding="utf-8"))
        assert about["tournament"] == "night" and (folder / HEARTBEAT).stat().st_mode & 0o777 == 0o600
        assert runner_status(folder, now=about["beat"] + STALE + 1).state == "unresponsive"
    finally:
        child.communicate("", timeout=30)
    gone = runner_status(folder)
    assert gone.state == "stopped" and gone.pid == child.pid  # its file is left, its process is not


def test_a_heartbeat_is_written_only_while_watched_and_removed_when_the_run_ends(tmp_path: Path) -> None:
    db = tmp_path / "league.db"
    unwatched = Heartbeat(tmp_path / "league.db.live", "night")
    unwatched.beat()
    assert list(tmp_path.iterdir()) == []
    folder = make_live_folder(db)
    beat = Heartbeat(folder, "night")
    beat.beat()
    assert runner_status(folder).state == "running" and runner_status(folder).pid == os.getpid()
    beat.stop()
    assert not (folder / HEARTBEAT).exists() and runner_status(folder).state == "stopped"


def test_the_heartbeat_stays_while_another_table_of_the_process_still_beats(tmp_path: Path) -> None:
    folder = make_live_folder(tmp_path / "league.db")
    first, second = Heartbeat(folder, "spring#0"), Heartbeat(folder, "spring#1")
    first.beat()
    second.beat()
    first.stop()
    assert runner_status(folder).state == "running"
    second.stop()
    assert not (folder / HEARTBEAT).exists() and runner_status(folder).state == "stopped"


def test_finished_games_stay_as_result_cards_with_their_replays_when_their_deal_is_done(tmp_path: Path) -> None:
    db = store_league(tmp_path, "wongar", "basic", forfeit=True)
    watch = Watch(db)
    view = watch.snapshot()
    assert len(view["finished"]) == 3 and all(card["replay"] for card in view["finished"])
    card = view["finished"][0]
    faulty = next(s for s in card["seats"] if s["bot"] == "faulty")
    assert faulty["fault_kinds"] == ["illegal", "crash", "forfeit"] and faulty["rank"] == 3
    assert view["runner"]["state"] == "stopped"
    game = get_game("wongar")
    viewers = {game.key: viewer_of(game)}
    found = watch.replay(card["id"], viewers)
    assert found is not None
    page, script = found
    assert f'<script src="{card["id"]}.js"></script>' in page and script.startswith("ArenaReplay.load(")
    assert f'static/{viewers[game.key].script}' in page
    assert watch.replay("no-such-game", viewers) is None


def test_a_replay_waits_while_its_deal_is_played_in_another_seating(tmp_path: Path) -> None:
    db = store_league(tmp_path, "waroong", "street-vendor", unplayed=1)
    watch = Watch(db)
    view = watch.snapshot()
    assert len(view["finished"]) == 2 and not any(card["replay"] for card in view["finished"])
    assert watch.replay(view["finished"][0]["id"], {}) is None


def test_a_tournament_without_games_has_empty_standings_and_no_cards(tmp_path: Path) -> None:
    db = store_league(tmp_path, "waroong", "street-vendor", unplayed=3)
    with Store(db) as store:
        assert store.games() == []
    view = Watch(db).snapshot()
    assert view["standings"] == [] and view["finished"] == [] and view["scheduled"] == 3
