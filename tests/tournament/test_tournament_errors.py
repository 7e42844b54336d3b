"""Clear stops: bad input leaves nothing behind and says so on one line; Ctrl-C at any moment is a
message, never a traceback; status counts faults as the leaderboard does; a terminal is told the
leaderboard is being computed."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from cli_messages import stderr_lines
from tournament_league import ARENA, CRASHER, league_toml, on_terminal, run_arena


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        ('game = "wongar"', 'game = "nogame"'),
        ('game = "wongar"', 'game = "wongar"\nvariant = "novariant"'),
        ('game = "wongar"', 'game = "wongar"\n[knobs]\nnoknob = 1'),
    ],
)
def test_a_rejected_config_leaves_no_database(tmp_path: Path, change: str, problem: str) -> None:
    (tmp_path / "league.toml").write_text(league_toml("rejected").replace(change, problem, 1))
    done = run_arena("tournament", "run", "league.toml", "--db", "x.db", cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    assert len(stderr_lines(done.stderr.strip())) == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["league.toml"]


def test_a_cluster_address_without_a_port_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "league.toml").write_text(league_toml("nonsense"))
    done = run_arena("tournament", "run", "league.toml", "--db", "x.db", "--cluster", "nonsense",
                     cwd=tmp_path)
    assert done.returncode == 2
    assert stderr_lines(done.stderr.strip()) == [
        "error: --cluster 'nonsense': not a scheduler address (missing port number in address "
        "'nonsense'); expected e.g. tcp://scheduler:8786"
    ]
    assert not (tmp_path / "x.db").exists()


def test_errors_are_not_wrapped_when_stderr_is_not_a_terminal(tmp_path: Path) -> None:
    db = tmp_path / ("a-long-folder-name-" * 6) / "league.db"
    done = run_arena("tournament", "status", "--db", str(db), cwd=tmp_path)
    assert done.returncode == 2
    assert stderr_lines(done.stderr) == [f"error: {db}: no results database here (give --db PATH)"]


#: The command line, started as ``arena`` starts it, saying on stdout the moment its Ctrl-C handler
#: is in place (before that, Python itself is starting and nothing of the arena's can catch it).
ARENA_SAYING_READY = [sys.executable, "-c", (
    "import arena.cli, sys; assert arena.cli.previous_sigint is not None; print('ready', flush=True); "
    "from arena.cli.app import main; main()"
)]


def test_ctrl_c_while_starting_is_quiet(tmp_path: Path) -> None:
    # Signalled as soon as the handler is in: while the command line is still being imported (which
    # takes far longer than reading a line and signalling), or at the latest while the command runs.
    codes = []
    for _ in range(3):
        command = subprocess.Popen([*ARENA_SAYING_READY, "games"], cwd=tmp_path, stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, text=True)
        assert command.stdout is not None
        assert command.stdout.readline() == "ready\n"
        command.send_signal(signal.SIGINT)
        _, stderr = command.communicate(timeout=60)
        assert "Traceback" not in stderr, stderr
        # 130: stopped by the arena; 0: the command had finished; -SIGINT: the signal came while
        # Python itself was shutting down (a shell shows it as 130).
        assert command.returncode in (0, 130, -signal.SIGINT), stderr
        codes.append(command.returncode)
    assert 130 in codes, codes


@pytest.mark.slow
def test_ctrl_c_after_every_game_is_stored_says_so(tmp_path: Path, reference_db: Path) -> None:
    db = tmp_path / "ref.db"
    db.write_bytes(reference_db.read_bytes())
    command = subprocess.Popen(
        [*ARENA, "tournament", "resume", "--db", str(db)], cwd=tmp_path,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    assert command.stdout is not None
    line = command.stdout.readline()
    assert "played 0 games (12 were already stored)" in line
    command.send_signal(signal.SIGINT)  # while the leaderboard is computed
    stdout, stderr = command.communicate(timeout=30)
    if command.returncode == 0:  # the leaderboard was done before the Ctrl-C arrived
        assert stderr == "" and "Elo" in stdout, (stdout, stderr)
        return
    assert command.returncode == 130
    assert stderr.strip().splitlines() == [
        f"stopped: all 12 games are stored; the leaderboard: arena leaderboard --db {db}"
    ]




@pytest.mark.slow
def test_status_counts_faults_as_the_leaderboard_does(tmp_path: Path) -> None:
    (tmp_path / "crasher.py").write_text(CRASHER)
    text = league_toml("crash", bots=3) + (
        f'[[bots]]\nname = "crasher"\nbot = "{sys.executable} crasher.py"\ntrusted = true\n'
    )
    (tmp_path / "league.toml").write_text(text)
    done = run_arena("tournament", "run", "league.toml", "--db", "c.db", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    status = run_arena("tournament", "status", "--db", "c.db", cwd=tmp_path)
    board = run_arena("leaderboard", "--db", "c.db", "--format", "json", cwd=tmp_path)
    assert "9 of 12 games stored" not in status.stdout
    # crasher sits in 9 games: one crash fault and one forfeit in each.
    assert "18 faults and forfeits (9 faults, 9 forfeits)" in status.stdout
    standings = {s["bot"]: s for s in json.loads(board.stdout)["standings"]}
    status_row = next(line for line in status.stdout.splitlines() if "crasher" in line)
    assert standings["crasher"]["faults"] == int(status_row.split("│")[-2]) == 18


@pytest.mark.slow
def test_a_terminal_sees_the_leaderboard_being_computed(tmp_path: Path, reference_db: Path) -> None:
    db = tmp_path / "ref.db"
    db.write_bytes(reference_db.read_bytes())
    returncode, text = on_terminal(["tournament", "resume", "--db", str(db)], tmp_path)
    assert returncode == 0
    computing = text.index("computing the leaderboard")
    assert text.index("played 0 games") < computing < text.index("Plackett")  # the board's notes
