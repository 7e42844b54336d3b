"""``arena bot check`` says what went wrong: a refused hello and why, replies dropped for a wrong
seq with the seq expected, replies over the move time, a reply p99 near it, and the same
``welcome.server`` as ``arena play``.

The slow bots are slow on their first reply only (each of the three copies once, 3 of 40 replies,
enough to set the p99), sleeping or spending CPU time; a reply can only take longer than that, so
each margin below holds however busy the machine is: under the CPU clock the bot's own CPU time is
what is charged, and under the wall clock the time allowed over the sleep is large."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from arena import __version__
from arena.cli.app import app
from arena.conformance import CheckReport

#: ``arena bot check`` runs the bot as the untrusted bot it is, sandboxed.
pytestmark = pytest.mark.usefixtures("working_sandbox")

BOT = Path(__file__).with_name("checker_bot.py")
runner = CliRunner()
#: The clock of the bots that never answer: each silence lasts until the elapsed-time cap, which is
#: ten times the move (and the grace), so a short move without grace keeps the check short.
SILENT = "10ms~0ms"


def check(mode: str, *extra: str, tc: str = "100ms") -> tuple[int, str]:
    """``arena bot check`` of the checker bot in ``mode``: its status and output, every run of
    whitespace made one space (the console may wrap at 80 columns whatever ``COLUMNS`` says, as it
    does in a pytest-xdist worker)."""
    result = runner.invoke(app, ["bot", "check", f"{sys.executable} {BOT} {mode}", "--game", "wongar",
                                 "--matches", "1", "--tc", tc, *extra], env={"COLUMNS": "400"})
    return result.exit_code, " ".join(result.output.split())


def test_a_refused_hello_is_reported_with_the_reason() -> None:
    status, output = check("wrong-token")
    assert status == 1, output
    assert "the referee refused the hello (unknown token from bot 'wrong-token')" in output
    assert "exited with status 1 before saying hello" in output
    assert "$ARENA_TOKEN unchanged" in output


def test_replies_with_a_wrong_seq_are_reported_as_dropped_with_the_seq_expected(tmp_path: Path) -> None:
    status, output = check("wrong-seq", "--logs", str(tmp_path), tc=SILENT)
    assert status == 1, output
    assert "replies dropped ×" in output
    carried = re.search(r"did not carry seq (\d+),", output)
    assert carried is not None, output
    expected = int(carried.group(1))
    asked = {
        int(text.removeprefix("act seq="))
        for log in tmp_path.glob("*.log")
        for text in log.read_text().splitlines()
        if text.startswith("act seq=")
    }
    assert expected in asked, f"{expected} is the seq of an act the bot was sent: {sorted(asked)}"
    assert "arena -v" in output and "timeout ×" in output


def test_check_and_play_greet_with_the_same_server(tmp_path: Path) -> None:
    status, output = check("good", "--logs", str(tmp_path / "check"))
    assert status == 0, output
    played = runner.invoke(app, ["play", "wongar", "-b", f"{sys.executable} {BOT} good", "-b", "random",
                                 "-b", "random", "--seed", "3", "--tc", "200ms", "--logs", str(tmp_path / "play")])
    assert played.exit_code == 0, played.output
    greetings = {
        line
        for folder in ("check", "play")
        for log in (tmp_path / folder).glob("*.log")
        for line in log.read_text().splitlines()
        if line.startswith("server=")
    }
    assert greetings == {f"server=arena {__version__}"}
    assert {p.parent.name for p in tmp_path.glob("*/*.log") if "server=" in p.read_text()} == {"check", "play"}


def test_the_margin_warning_names_the_p99_and_the_move_time_and_starts_above_half() -> None:
    def report(latencies: tuple[float, ...], move: float) -> CheckReport:
        return CheckReport("b", 3, 1, len(latencies), latencies, (), "wall", move)

    assert report((0.1, 0.5, 0.5), 1.0).margin_warning() is None, "exactly half"
    assert report((0.1, 0.501, 0.501), 1.0).margin_warning() == (
        "reply p99 501 ms of elapsed time is over half the 1000 ms move time: on a busier machine "
        "the bot may time out")
    assert report((0.9,), 0.0).margin_warning() is None, "no move time: a bank only"
    assert report((), 1.0).margin_warning() is None


#: Three phases of one round: a 40-decision match, so three slow replies set its p99.
SHORT = ("--knob", "scorpion_track=1/1/1")


def test_a_p99_over_half_the_move_time_in_cpu_time_is_warned_of_and_passes() -> None:
    status, output = check("burn-first 0.4", *SHORT, tc="600ms")
    assert status == 0, output
    assert "warning: reply p99" in output
    assert "ms of CPU time is over half the 600 ms move time" in output


def test_sleeping_costs_no_cpu_time_so_under_the_cpu_clock_it_earns_no_warning() -> None:
    status, output = check("sleep-first 0.4", *SHORT, tc="600ms")
    assert status == 0, output
    assert "warning" not in output


def test_a_p99_over_half_the_move_time_in_elapsed_time_is_warned_of() -> None:
    status, output = check("sleep-first 0.6", *SHORT, "--clock", "wall", tc="1s")
    assert "ms of elapsed time is over half the 1000 ms move time" in output, output


@pytest.mark.parametrize(("mode", "clock", "charged"), [
    ("burn-first", "auto", "of CPU time"),
    ("sleep-first", "wall", "of elapsed time"),
])
def test_replies_over_the_move_time_fail_the_check_though_the_grace_accepts_them(
    mode: str, clock: str, charged: str,
) -> None:
    status, output = check(f"{mode} 0.4", *SHORT, "--clock", clock, tc="200ms~3s")
    assert status == 1, output
    assert "replies over the 200 ms a decision may take (accepted within the grace) ×3" in output
    assert re.search(rf"first at match 1, seat \d, decision \d+: \d+ ms {charged}", output), output
    assert "timeout" not in output
    assert "the grace after it only absorbs delays in delivery" in output


def test_copies_that_all_hang_void_the_match_and_fail_the_check() -> None:
    status, output = check("mute", tc=SILENT)
    assert status == 1, output
    assert "void matches ×1, first at match 1: " in output  # all cut off by the cap, or (busy) the referee held up
    assert "every seat here runs a copy of the bot" in output
