"""A host fault in a real tournament: the referee's worker process is stopped (SIGSTOP) while it
waits for a sandboxed bot under the CPU clock, for longer than half the decision's elapsed-time
cap. The game is stored as void with its reason, never rated, played again with the same deal,
and the tournament ends with exactly the results of a run the host never held up."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from held import MARGIN, first_decision_cap, held_bot, held_worker, hold, hold_up, worker_pid
from polling import wait_until
from sandboxed import require_sandbox
from tournament_league import ARENA, results, run_arena

from arena.deals import DealSecret, write_secret_file
from arena.rating_input import stored_leaderboard
from arena.store.db import Store, VoidedGame as StoredVoid

pytestmark = pytest.mark.sandbox

#: A second of processor time (far more than the held bot's first decision uses before it holds)
#: and its grace, capped at 18 times that: about 19 s of elapsed time per decision, which the test
#: has to see the held bot and stop the worker (:func:`held.hold_up`).
TIME_CONTROL, WALL_CAP = "1s", 18
CAP = first_decision_cap(TIME_CONTROL, WALL_CAP)


def config_text() -> str:
    """A round-robin of the held bot and two seeded random bots, all sandboxed, on the CPU clock."""
    lines = ['name = "held"', 'game = "wongar"', "table_size = 3", "deals = 1",
             f'time_control = "{TIME_CONTROL}"', 'clock = "cpu"', f"wall_cap = {WALL_CAP}", "seed = 77",
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


def hold_up_worker(folder: Path) -> None:
    """The host fault: stop the worker whose scratch folder is ``folder`` while it waits for the
    bot held last."""
    hold_up(worker_pid(folder), folder, CAP)


@pytest.fixture(autouse=True)
def working_sandbox() -> None:
    require_sandbox()


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A deal secret, and the database of the tournament played with it, never held up."""
    folder = tmp_path_factory.mktemp("void-reference")
    secret = folder / "deals.secret"  # every run deals the same games
    write_secret_file(secret, DealSecret.draw())
    tournament_folder(folder)
    done = run_arena("tournament", "run", "t.toml", "--db", "ref.db", "--deal-secret", str(secret),
                     cwd=folder)
    assert done.returncode == 0, done.stderr
    return secret, folder / "ref.db"


@contextmanager
def held_runner(folder: Path, secret: Path) -> Iterator[tuple[subprocess.Popen[str], Path]]:
    """The tournament in ``folder`` running with its held bot held, and the folder of its workers'
    scratch folders; killed and cleaned up on leaving."""
    hold(folder / "held", True)
    # Sandboxed bots of another identity pass through the scratch folder to their sockets, so it is
    # not under the test's private folder.
    scratch = Path(tempfile.mkdtemp(prefix="arena-void-test-"))
    scratch.chmod(0o711)
    runner = subprocess.Popen([*ARENA, "tournament", "run", "t.toml", "--db", "h.db",
                               "--deal-secret", str(secret)], cwd=folder,
                              env={**os.environ, "TMPDIR": str(scratch)},
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        yield runner, scratch
    finally:
        runner.kill()
        runner.wait()
        shutil.rmtree(scratch, ignore_errors=True)


def wait_held(runner: subprocess.Popen[str], scratch: Path, held: int = 1) -> Path:
    """The worker's scratch folder once ``held`` bot processes are held: the referee is waiting for
    the last."""
    if not wait_until(lambda: held_worker(scratch, held) is not None or runner.poll() is not None,
                      timeout=120) or runner.poll() is not None:
        pytest.fail(f"no bot was held: {runner.communicate(timeout=60)[1]}")
    worker = held_worker(scratch, held)
    assert worker is not None
    return worker


def check_results(db: Path, reference: Path) -> StoredVoid:
    """``db`` has the reference's results and ratings, and one void attempt, which it lists."""
    with Store(db) as store:
        (void,) = store.voided("held")
        board = stored_leaderboard(store, "held")
        assert void.game_id in {g.placement.game_id for g in store.games("held")}
    with Store(reference) as store:
        expected = stored_leaderboard(store, "held")
    # Exactly the results of a run never held up: the void attempt is neither a game nor rated.
    assert results(db) == results(reference)
    assert len(results(db)) == 3
    assert board.games == expected.games == 3
    # The same fit (games stored in another order may move the last bit of a rating).
    assert [(s.rank, s.bot, s.games, s.score, s.faults) for s in board.standings] == [
        (s.rank, s.bot, s.games, s.score, s.faults) for s in expected.standings
    ]
    assert [s.elo for s in board.standings] == pytest.approx([s.elo for s in expected.standings])
    assert void.attempt == 1
    assert void.reason.startswith("the referee itself was held up for "), void.reason
    assert void.reason.endswith(": the host was too busy"), void.reason
    assert int(void.reason.split()[7]) >= (CAP + MARGIN) * 1000 - 100
    status = run_arena("tournament", "status", "--db", db.name, cwd=db.parent)
    assert status.returncode == 0, status.stderr
    shown = " ".join(status.stdout.split())
    assert f"void: game {void.game_id} (attempt 1, stored since): the referee itself was held up" in shown
    assert "3 of 3 games stored" in shown
    return void


def test_a_game_the_host_held_up_is_void_and_played_again_to_the_same_results(
    tmp_path: Path, reference: tuple[Path, Path]
) -> None:
    secret, expected = reference
    folder = tournament_folder(tmp_path)
    with held_runner(folder, secret) as (runner, scratch):
        worker = wait_held(runner, scratch)
        hold(folder / "held", False)  # the game's replay is not held
        hold_up_worker(worker)  # the host fault
        out, err = runner.communicate(timeout=180)
    assert runner.returncode == 0, err
    assert "1 void by a host fault and played again" in " ".join(out.split())
    check_results(folder / "h.db", expected)


def test_a_void_game_left_unplayed_is_played_by_resume(
    tmp_path: Path, reference: tuple[Path, Path]
) -> None:
    secret, expected = reference
    folder = tournament_folder(tmp_path)
    with held_runner(folder, secret) as (runner, scratch):
        worker = wait_held(runner, scratch)
        hold_up_worker(worker)  # the host fault: the game is void and played again, held again
        pid = worker_pid(wait_held(runner, scratch, held=2))
        os.kill(pid, signal.SIGSTOP)  # nothing more is played or stored
        os.kill(runner.pid, signal.SIGKILL)
        os.kill(pid, signal.SIGKILL)
        runner.wait()
    with Store(folder / "h.db") as store:
        (void,) = store.voided("held")
        assert void.game_id not in store.stored_ids("held")
    hold(folder / "held", False)  # the same build of the bot: an empty folder is no file
    resumed = run_arena("tournament", "resume", "--db", "h.db", "--deal-secret", str(secret),
                        cwd=folder)
    assert resumed.returncode == 0, resumed.stderr
    assert check_results(folder / "h.db", expected) == void


def test_a_game_void_three_times_stops_the_run_saying_so(tmp_path: Path, reference: tuple[Path, Path]) -> None:
    secret, _ = reference
    folder = tournament_folder(tmp_path)
    held = 0
    with held_runner(folder, secret) as (runner, scratch):
        # The host holds up every game at its first decision, until the run stops.
        while wait_until(lambda: held_worker(scratch, held + 1) is not None or runner.poll() is not None,
                         timeout=120) and runner.poll() is None:
            held += 1
            worker = held_worker(scratch, held)
            assert worker is not None
            hold_up_worker(worker)
        out, err = runner.communicate(timeout=180)
    assert runner.returncode == 2, err
    said = " ".join(err.split())
    assert "was void 3 times in this run, each time by a host fault (last: the referee itself was " \
           "held up for " in said, said
    assert said.endswith("the machine is too busy to play it. Free the machine (or lower the "
                         "concurrency), then run: arena tournament resume --db h.db")
    with Store(folder / "h.db") as store:
        attempts = store.voided("held")
        stored = [(g.placement.game_id, [(f.seat, f.kind.value, f.detail) for f in g.record.faults])
                  for g in store.games("held")]
        assert stored == [], f"a game was stored, not held up (its faults): {stored}\n{err}"
    assert len(attempts) == held  # every hold-up voided its game
    (stopped,) = {v.game_id for v in attempts if v.attempt == 3}
    assert [v.attempt for v in attempts if v.game_id == stopped] == [1, 2, 3]
    assert all(v.attempt < 3 for v in attempts if v.game_id != stopped)
    assert f"game {stopped} was void 3 times" in said
