"""A trained policy file played by ``python -m bots.learned`` as a sandboxed entrant of real
matches: it reads its policy file (named by its command, or listed in its manifest), answers every
decision legally and beats two random bots; a policy for another setup ends it with one line."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

ARENA = str(Path(sys.executable).with_name("arena"))
FIXTURE = Path(__file__).parents[1] / "rl" / "fixtures" / "liars_dice-3p.npz"
#: A fixed deal secret: the same games on every run, so the result below is a known answer.
SECRET = "5e" * 32


def bot_folder(tmp_path: Path) -> Path:
    """A folder holding only the policy file, readable by the bot's identity."""
    folder = tmp_path / "entrant"
    folder.mkdir()
    tmp_path.chmod(0o755)
    folder.chmod(0o755)
    shutil.copy(FIXTURE, folder / "policy.npz")
    return folder


def play(cwd: Path, tmp_path: Path, *args: str) -> tuple[subprocess.CompletedProcess[str], list[dict[str, Any]]]:
    """``arena play liars_dice`` (sandboxed: no ``--no-sandbox``) with a fixed deal secret; the
    finished command and its match records (a JSON line each with ``--games``)."""
    secret = tmp_path / "secret"
    if not secret.exists():
        secret.write_text(SECRET)
        secret.chmod(0o600)
    records = tmp_path / "records.jsonl"
    played = subprocess.run(
        [ARENA, "play", "liars_dice", *args, "--tc", "2s", "--seed", "8", "--deal-secret", str(secret),
         "--record", str(records), "--logs", str(tmp_path / "logs")],
        capture_output=True, text=True, timeout=300, cwd=cwd, env={**os.environ, "COLUMNS": "200"}, check=False)
    if not records.exists():
        return played, []
    if "--games" not in args:  # one record, as one JSON document
        return played, [json.loads(records.read_text())]
    return played, [json.loads(line) for line in records.read_text().splitlines()]


def test_a_sandboxed_learned_bot_plays_legally_and_beats_two_random_bots(tmp_path: Path) -> None:
    folder = bot_folder(tmp_path)
    learned = f"{sys.executable} -m bots.learned --policy policy.npz"
    played, records = play(folder, tmp_path, "-b", learned, "-b", "random", "-b", "random", "--games", "6")
    assert played.returncode == 0, played.stderr
    assert len(records) == 6
    firsts = 0
    for record in records:
        seat = next(s for s, name in enumerate(record["bots"]) if name != "random")
        assert record["faults"] == [] and record["forfeited"] == []
        assert any(d[0] == seat and not d[4] for d in record["decisions"])
        firsts += record["ranks"][seat] == 1
    assert firsts >= 5, f"the trained policy won only {firsts} of 6 games against two random bots"


def test_a_policy_for_three_players_refuses_a_two_player_match_with_one_line(tmp_path: Path) -> None:
    folder = bot_folder(tmp_path)
    (folder / "learned.toml").write_text(
        f'name = "learned"\ncommand = ["{sys.executable}", "-m", "bots.learned", "--policy", "policy.npz"]\n'
        'files = ["policy.npz"]\n')
    played, records = play(folder, tmp_path, "-b", "learned.toml", "-b", "random")
    assert played.returncode == 0, played.stderr
    (record,) = records
    seat = record["bots"].index("learned")
    assert [fault[:2] for fault in record["faults"]] == [[seat, "crash"]]
    (log,) = (tmp_path / "logs").glob("learned-*.log")
    lines = [line for line in log.read_text().splitlines() if line.startswith("learned:")]
    assert lines == ["learned: policy.npz: the policy was trained for liars_dice@1 standard, 3 players, "
                     'knobs {"dice": 5}, not liars_dice@1 standard, 2 players, knobs {"dice": 5}']
