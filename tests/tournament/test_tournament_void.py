"""A host fault in a real tournament: the referee's worker process is stopped (SIGSTOP) while it
waits for a sandboxed bot under the CPU clock, for longer than half the decision's elapsed-time
cap. The game is stored as void with its reason, never rated, played again with the same deal,
and the tournament ends with exactly the results of a run the host never held up."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from held import held_bot, held_in, stop_for
from polling import wait_until
from sandboxed import require_sandbox
from tournament_league import ARENA, results, run_arena

from arena.deals import DealSecret, write_secret_file
from arena.rating_input import stored_leaderboard
from arena.store.db import Store

pytestmark = pytest.mark.sandbox

#: 100 ms and the 50 ms grace, capped at 30 times that: 4.5 s of elapsed time per decision.
CAP = 0.15 * 30
#: How long the worker is kept stopped: over half the cap (the rule), and far more than the time the
#: test takes to see the held bot and stop the worker.
STOPPED = 0.5 * CAP + 0.75


def config_text() -> str:
    """A round-robin of the held bot and two seeded random bots, all sandboxed, on the CPU clock."""
    lines = ['name = "held"', 'game = "wongar"', "table_size = 3", "deals = 1",
             'time_control = "100ms"', 'clock = "cpu"', "wall_cap = 30", "seed = 77",
             "concurrency = 1",
             '[[bots]]\nname = "held"\nbot = "held/bot.toml"']
    for i in range(2):
        lines.append(f'[[bots]]\nname = "r{i}"\nbot = "{sys.executable} -m bots.random"\n'
                     f'env = {{ ARENA_SEED = "{i}" }}')
    return "\n".join(lines) + "\n"


def tournament_folder(folder: Path) -> Path:
    """``folder`` with the config and the held bot."""
    held_bot(folder / "held")
    (folder / "t.toml").write_text(config_text())
    return folder


def held_worker(scratch: Path) -> int | None:
    """The pid of the worker whose bot is held (its scratch folder holds the bot logs)."""
    for folder in scratch.glob("arena-worker-*"):
        if held_in(folder):
            return int(folder.name.split("-")[2])
    return None


@pytest.fixture(autouse=True)
def working_sandbox() -> None:
    require_sandbox()


def test_a_game_the_host_held_up_is_void_and_played_again_to_the_same_results(tmp_path: Path) -> None:
    secret = tmp_path / "deals.secret"  # both runs deal the same games
    write_secret_file(secret, DealSecret.draw())
    reference = tournament_folder(tmp_path / "reference")
    done = run_arena("tournament", "run", "t.toml", "--db", "ref.db", "--deal-secret", str(secret),
                     cwd=reference)
    assert done.returncode == 0, done.stderr

    folder = tournament_folder(tmp_path / "held-up")
    hold = folder / "held" / "ctl" / "hold"
    hold.touch()
    # The workers' scratch folders (with the bot logs) go here; sandboxed bots of another identity
    # pass through it to their sockets, so it is not under the test's private folder.
    scratch = Path(tempfile.mkdtemp(prefix="arena-void-test-"))
    scratch.chmod(0o711)
    runner = subprocess.Popen([*ARENA, "tournament", "run", "t.toml", "--db", "h.db",
                               "--deal-secret", str(secret)], cwd=folder,
                              env={**os.environ, "TMPDIR": str(scratch)},
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        # The held bot has its act and has stopped itself: the referee is waiting for it.
        if not wait_until(lambda: held_worker(scratch) is not None or runner.poll() is not None,
                          timeout=120) or runner.poll() is not None:
            pytest.fail(f"no bot was held: {runner.communicate(timeout=60)[1]}")
        worker = held_worker(scratch)
        assert worker is not None
        hold.unlink()  # the game's replay is not held
        stop_for(worker, STOPPED)  # the host fault
        out, err = runner.communicate(timeout=180)
    finally:
        runner.kill()
        runner.wait()
        shutil.rmtree(scratch, ignore_errors=True)
    assert runner.returncode == 0, err
    assert "1 void by a host fault and played again" in " ".join(out.split())

    db = folder / "h.db"
    with Store(db) as store:
        (void,) = store.voided("held")
        assert void.attempt == 1
        assert void.reason.startswith("the referee itself was held up for "), void.reason
        assert void.reason.endswith(": the host was too busy"), void.reason
        held_ms = int(void.reason.split()[7])
        assert held_ms >= STOPPED * 1000 - 100
        stored = {g.placement.game_id for g in store.games("held")}
        assert void.game_id in stored  # played again, with the same deal
        board = stored_leaderboard(store, "held")
    with Store(reference / "ref.db") as store:
        expected = stored_leaderboard(store, "held")
    # Exactly the uninterrupted results: the void attempt is neither a game nor rated.
    assert results(db) == results(reference / "ref.db")
    assert len(results(db)) == 3
    assert board.games == expected.games == 3
    assert board.standings == expected.standings

    status = run_arena("tournament", "status", "--db", "h.db", cwd=folder)
    assert status.returncode == 0, status.stderr
    shown = " ".join(status.stdout.split())
    assert f"void: game {void.game_id} (attempt 1, stored since): the referee itself was held up" in shown
    assert "3 of 3 games stored" in shown
