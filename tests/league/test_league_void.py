"""A host fault in a league table: the referee's worker is stopped (SIGSTOP) while it waits for a
sandboxed bot under the CPU clock, longer than half the decision's elapsed-time cap. The game is
stored as a void attempt of the table, played again, and the table ends whole with nothing void
rated (the same mechanism as a tournament's, which the league's tables are played by)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from held import first_decision_cap, held_bot, held_worker, hold, hold_up, worker_pid
from polling import wait_until
from sandboxed import require_sandbox

from arena.league.book import tables
from arena.league.fit import league_outcomes
from arena.store.db import Store

pytestmark = pytest.mark.sandbox

ARENA = [sys.executable, "-c", "from arena.cli.app import main; main()"]
#: A second of processor time (far more than the held bot's first decision uses before it holds)
#: and its grace, capped at 18 times that: about 19 s of elapsed time per decision, which the test
#: has to see the held bot and stop the worker (:func:`held.hold_up`).
TIME_CONTROL, WALL_CAP = "1s", 18
CAP = first_decision_cap(TIME_CONTROL, WALL_CAP)


def config_text() -> str:
    lines = ['name = "spring"', 'game = "wongar"', "table_size = 3", f'time_control = "{TIME_CONTROL}"',
             'clock = "cpu"', f"wall_cap = {WALL_CAP}", "seed = 77",
             '[[bots]]\nname = "held"\nbot = "held/bot.toml"']
    for i in range(2):
        lines.append(f'[[bots]]\nname = "r{i}"\nbot = "{sys.executable} -m bots.random"\n'
                     f'env = {{ ARENA_SEED = "{i}" }}')
    return "\n".join(lines) + "\n"


def test_a_void_game_of_a_table_is_played_again_and_never_rated(tmp_path: Path) -> None:
    require_sandbox()
    held_bot(tmp_path / "held")
    (tmp_path / "league.toml").write_text(config_text())
    init = subprocess.run([*ARENA, "league", "init", "league.toml", "--db", "l.db"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=120)
    assert init.returncode == 0, init.stderr
    hold(tmp_path / "held", True)
    scratch = Path(tempfile.mkdtemp(prefix="arena-league-void-"))
    scratch.chmod(0o711)
    runner = subprocess.Popen([*ARENA, "league", "run", "--db", "l.db", "--tables", "1", "-j", "1"],
                              cwd=tmp_path, env={**os.environ, "TMPDIR": str(scratch)},
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        if not wait_until(lambda: held_worker(scratch) is not None or runner.poll() is not None,
                          timeout=120) or runner.poll() is not None:
            pytest.fail(f"no bot was held: {runner.communicate(timeout=60)[1]}")
        worker = held_worker(scratch)
        assert worker is not None
        hold(tmp_path / "held", False)  # the replay is not held
        hold_up(worker_pid(worker), worker, CAP)  # the host fault
        out, err = runner.communicate(timeout=180)
    finally:
        runner.kill()
        runner.wait()
        shutil.rmtree(scratch, ignore_errors=True)
    assert runner.returncode == 0, err
    assert "1 void by a host fault and played again" in " ".join(out.split())
    with Store(tmp_path / "l.db") as store:
        (table,) = tables(store, "spring")
        (void,) = store.voided(table.tournament)
        assert void.reason.endswith(": the host was too busy")
        assert void.game_id in store.stored_ids(table.tournament)
        assert len(store.games(table.tournament)) == 3
        assert len(league_outcomes(store, "spring")) == 3, "the void attempt is not rated"
