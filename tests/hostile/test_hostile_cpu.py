"""A bot that holds its reply while its child processes spin, in Waroong Wars' simultaneous draft:
the rivals deciding at the same time still get their share of the processors, measured on their
own CPU clocks against the hog's control-group accounting (a busy machine slows all alike)."""

from __future__ import annotations

import statistics
import sys
from pathlib import Path

import pytest

from arena.clock import TimeControl
from arena.handle import BotHandle, close_all
from arena.manifest import BotSpec
from arena.record import MatchRecord
from arena.referee import FaultPolicy, play_match, run_match
from arena.store.db import Store
from arena.tournament.config import parse_config
from arena.tournament.cpus import slot_pinnings, usable_cpus
from arena.tournament.executors import LocalExecutor
from arena.tournament.runner import run_tournament
from engine.core import Game
from engine.registry import get_game
from protocols.transport import Hub

pytestmark = pytest.mark.sandbox

CPU_BOTS = Path(__file__).with_name("cpu_bots.py")
WINDOW = 0.3
ROUNDS = 4
CONTROL = TimeControl(3.0, grace=1.0)


def cpu_bot(mode: str, name: str, *, trusted: bool = False) -> BotSpec:
    return BotSpec(name, (sys.executable, str(CPU_BOTS), mode, str(WINDOW), str(ROUNDS)),
                   trusted=trusted)


@pytest.fixture(scope="module")
def waroong() -> Game:
    return get_game("waroong")


def windows(record: MatchRecord, seat: int) -> list[tuple[float, float | None]]:
    """The seat's decisions of the timed rounds: (CPU it reported getting, CPU its group was
    charged) per decision."""
    found = []
    for decision in [d for d in record.decisions if d.seat == seat][:ROUNDS]:
        assert isinstance(decision.info, dict) and not decision.fallback
        got = decision.info.get("cpu")
        found.append((float(got) if isinstance(got, float) else 0.0, decision.cpu))
    return found


def test_a_hog_spinning_children_while_it_holds_its_reply_takes_no_more_than_its_share(
    waroong: Game, tmp_path: Path
) -> None:
    # Seat 0 holds its reply for the window while 8 children spin; seat 1 is a sandboxed rival,
    # seat 2 a trusted one (outside the sandbox, like a built-in bot): all decide at once.
    bots = [cpu_bot("hog", "hog"), cpu_bot("rival", "rival"), cpu_bot("rival", "trusted", trusted=True)]
    record = run_match(waroong, waroong.configure(3), 7, bots, CONTROL, FaultPolicy(1),
                       log_dir=tmp_path)
    assert record.faults == () and record.detail["clock"] == "cpu"
    first = [d.seat for d in record.decisions[:3]]
    assert sorted(first) == [0, 1, 2], "the first round is decided by all three at once"
    hog = [charged for _, charged in windows(record, 0)]
    assert all(c is not None for c in hog)
    hog_cpu = statistics.median(c for c in hog if c is not None)
    for seat in (1, 2):
        got = statistics.median(cpu for cpu, _ in windows(record, seat))
        # Equal weights give each of the three about a third of the machine (a spreading hog
        # less); without them each of the hog's 8 spinners weighs as much as a rival.
        assert got >= 0.5 * hog_cpu, (seat, got, hog_cpu, record.decisions[:3 * ROUNDS])


def test_a_match_with_one_processor_to_itself_keeps_every_sandboxed_bot_on_it(
    waroong: Game, tmp_path: Path
) -> None:
    # As a pinned tournament worker's match: every seat decides at once on the one processor, and
    # no bot can widen its processors (a neighbouring match's are out of its reach).
    with Hub() as hub:
        handles = BotHandle.launch_all([cpu_bot("rival", f"r{i}") for i in range(3)], hub, tmp_path)
        try:
            cpu = usable_cpus()[-1]
            record = play_match(waroong, waroong.configure(3), 3, handles, CONTROL, FaultPolicy(1),
                                cpus=frozenset({cpu}))
        finally:
            close_all(handles, grace=0.2)
    assert record.faults == ()
    for decision in record.decisions:
        assert isinstance(decision.info, dict)
        assert decision.info["cpus"] == [cpu] and decision.info["widened"] is False, decision


def test_a_pinned_tournament_keeps_each_sandboxed_bot_on_its_workers_processor(tmp_path: Path) -> None:
    # One worker, pinned to the first processor (any other is only for bots starting): once they
    # play, its sandboxed bots are on its processor alone and cannot ask for more.
    tmp_path.chmod(0o755)  # the bots' folder (the config's): sandboxed bots must read it
    (pinning,) = slot_pinnings(1, True)
    assert pinning is not None
    bots = [{"name": f"r{i}", "bot": f"{sys.executable} {CPU_BOTS} rival 0 0"} for i in range(3)]
    config = parse_config(
        {"name": "pinned", "game": "waroong", "table_size": 3, "deals": 1, "seed": 5,
         "time_control": "2s", "concurrency": 1, "bots": bots},
        source="test", base=tmp_path,
    )
    with Store(tmp_path / "pinned.db") as store:
        summary = run_tournament(config, store, LocalExecutor(1, pin_cpus=True))
        games = store.games("pinned")
    assert summary.played == summary.total > 0
    for game in games:
        assert game.record.faults == ()
        for decision in game.record.decisions:
            assert isinstance(decision.info, dict)
            assert (decision.info["cpus"], decision.info["widened"]) == ([pinning.cpu], False), decision
