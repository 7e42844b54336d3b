"""``--record`` writes what docs/match-record.schema.json describes; SPEC.md states the real numbers."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from json_schema import SUPPORTED, keywords_used, violations
from typer.testing import CliRunner

from arena import __version__
from arena.cli.app import app
from arena.handle import HANDSHAKE_TIMEOUT

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = json.loads((ROOT / "docs" / "match-record.schema.json").read_text(encoding="utf-8"))
BOT = Path(__file__).with_name("checker_bot.py")
runner = CliRunner()


def test_the_schema_uses_only_keywords_the_checker_knows() -> None:
    assert keywords_used(SCHEMA) <= SUPPORTED


@pytest.mark.usefixtures("working_sandbox")
def test_recorded_matches_follow_the_schema(tmp_path: Path) -> None:
    """A clean Wongar match, and a Waroong match with a seat whose replies are all dropped (an
    untrusted bot: its deal is keyed, and the record says how)."""
    setups = [
        ["wongar", "-b", "random", "-b", "greedy", "-b", "random", "--variant", "initiated", "--tc", "100ms"],
        # Each of its silences lasts until the elapsed-time cap (ten times the move): a short move
        # without grace keeps them short, and the cap of 0.5 s leaves a busy machine's random bots
        # room to answer.
        ["waroong", "-b", "random", "-b", "random", "-b", f"{sys.executable} {BOT} wrong-seq",
         "--tc", "50ms~0ms"],
    ]
    for number, setup in enumerate(setups):
        out = tmp_path / f"{number}.json"
        result = runner.invoke(app, ["play", *setup, "--seed", "4", "--record", str(out)])
        assert result.exit_code == 0, result.output
        record = json.loads(out.read_text(encoding="utf-8"))
        assert violations(record, SCHEMA, SCHEMA) == []
        assert record["detail"]["referee"] == f"arena {__version__}"
    assert record["forfeited"] == [2] and record["detail"]["dropped"][2] > 0
    assert {f[1] for f in record["faults"]} == {"timeout"}
    assert record["detail"]["deal"]["seed"] == 4 and "secret" in record["detail"]["deal"]


def test_the_schema_rejects_what_is_not_a_record() -> None:
    good = {
        "game": "wongar", "version": 2, "variant": "basic", "knobs": {}, "seed": 1, "bots": ["a"],
        "decisions": [[0, 3, 0.01, None, False]], "faults": [[0, "slow", 0, "x"]], "scores": [1],
        "ranks": [1], "forfeited": [], "duration": 0.1,
        "detail": {"match": "m", "time_control": "1s", "clock": "cpu", "referee": "arena", "result": {},
                   "dropped": [0], "info_dropped": [0], "refused": 0},
    }
    assert violations(good, SCHEMA, SCHEMA) == ["$.faults[0][1]: 'slow' not in ['timeout', 'crash', 'malformed', 'illegal', 'start']"]
    detail = good["detail"]
    detail["clock"] = "sundial"
    assert violations(good, SCHEMA, SCHEMA)[1:] == ["$.detail.clock: 'sundial' not in ['cpu', 'wall']"]
    detail["clock"] = "wall"
    good["faults"] = []
    good["decisions"] = [[0, 3, 0.01, None]]
    assert violations(good, SCHEMA, SCHEMA) == ["$.decisions[0]: 4 items"]


def test_spec_states_the_handshake_deadline_and_the_server() -> None:
    spec = (ROOT / "protocols" / "SPEC.md").read_text(encoding="utf-8")
    assert f"**{HANDSHAKE_TIMEOUT:g} seconds**" in spec
    assert f'`"arena {__version__}"`' in spec
    assert f"within {HANDSHAKE_TIMEOUT:g} s of its start" in spec, "the start fault says it too"
