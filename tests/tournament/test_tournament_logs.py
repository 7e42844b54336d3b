"""Log lines and live views: a warning (a bot lost, in a tournament's worker process or in the
series' own process) is printed whole above the live view or progress bar, never into it."""

from __future__ import annotations

import io
import logging
import re
import sys
from pathlib import Path

import pytest
from rich.console import Console
from tournament_league import CRASHER, league_toml, on_terminal, run_arena

from arena.inert import InertFormatter, StderrHandler
from arena.tournament.display import Display, Tally

#: The start of a log line (``log_inertly``'s format).
LOG_LINE = re.compile(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} ")

#: Erase the line (the live view clears itself before anything is printed above it).
ERASE = "\x1b[2K"


def test_a_record_logged_during_the_live_view_is_printed_above_it() -> None:
    console = Console(file=io.StringIO(), force_terminal=True, width=120)
    handler = StderrHandler()
    handler.setFormatter(InertFormatter("%(name)s %(levelname)s %(message)s"))
    logger = logging.getLogger("arena-test-live-view")
    logger.addHandler(handler)
    logger.propagate = False
    try:
        with Display(Tally(total=3), console, "league") as display:
            display.update()
            logger.warning("crashy lost: the connection \x1b[31mclosed")
            display.update()
    finally:
        logger.removeHandler(handler)
    shown = console.file.getvalue()  # type: ignore[attr-defined]
    line = "arena-test-live-view WARNING crashy lost: the connection \\x1b[31mclosed\n"
    assert ERASE + line in shown, shown  # cleared first, whole, inert; then the view is drawn again
    assert shown.index(line) < shown.rindex("league")


def _league_with_crasher(folder: Path) -> None:
    (folder / "crasher.py").write_text(CRASHER)
    (folder / "league.toml").write_text(league_toml("logs", bots=2) + (
        f'[[bots]]\nname = "crashy"\nbot = "{sys.executable} crasher.py"\ntrusted = true\n'
    ))


@pytest.mark.slow
def test_a_worker_s_warnings_reach_the_terminal_above_the_live_view(tmp_path: Path) -> None:
    """Each game loses the crashing bot: the worker's warning is printed by the runner, on a line
    the live view cleared, and ends that line."""
    _league_with_crasher(tmp_path)
    code, shown = on_terminal(["tournament", "run", "league.toml", "--db", "c.db"], tmp_path, columns=200)
    assert code == 0, shown
    _assert_lost_lines_above_the_view(shown, "crashy", at_least=3)  # one lost bot per game at least


@pytest.mark.slow
def test_a_series_warnings_reach_the_terminal_above_its_progress_bar(tmp_path: Path) -> None:
    _league_with_crasher(tmp_path)
    args = ["play", "wongar", "-b", "random", "-b", "random", "-b", f"{sys.executable} crasher.py",
            "--games", "3", "--seed", "1", "--no-sandbox"]
    code, shown = on_terminal(args, tmp_path, columns=200)
    assert code == 0, shown
    _assert_lost_lines_above_the_view(shown, "crasher", at_least=1)


def _assert_lost_lines_above_the_view(shown: str, bot: str, at_least: int) -> None:
    """Every log line on the terminal starts on a line the live view erased, and is whole."""
    starts = [m.start() for m in LOG_LINE.finditer(shown)]
    assert len(starts) >= at_least, shown
    for start in starts:
        assert shown[:start].endswith(ERASE), repr(shown[max(0, start - 80):start + 100])
        line = shown[start:shown.index("\n", start)]
        assert re.fullmatch(LOG_LINE.pattern + rf"protocols\.transport WARNING {bot} lost: .+\r", line), line


@pytest.mark.slow
def test_piped_the_progress_lines_and_the_warnings_are_whole_lines(tmp_path: Path) -> None:
    _league_with_crasher(tmp_path)
    done = run_arena("tournament", "run", "league.toml", "--db", "c.db", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    warnings = done.stderr.splitlines()
    assert len(warnings) >= 3
    assert all(re.fullmatch(LOG_LINE.pattern + r"protocols\.transport WARNING crashy lost: .+", w) for w in warnings)
    progress = [line for line in done.stdout.splitlines() if line.startswith("[")]
    assert len(progress) == 3 and all(re.fullmatch(r"\[\d/3\] [0-9a-f]{12} .+ faults=1", p) for p in progress)
