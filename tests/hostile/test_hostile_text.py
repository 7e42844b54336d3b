"""Hostile text and values through the real command line: bots whose names, versions, ``error``
texts, ``info`` and output carry escape sequences and markup, and a bot whose ``info`` holds what JSON
cannot (bytes, NaN, infinities, extreme integers, deep maps), play real matches over real sockets.
Every command's output stays free of control characters, records and the store take every value,
and the published pages show the text escaped."""

from __future__ import annotations

import base64
import json
import os
import shutil
import subprocess
import sys
import unicodedata
from pathlib import Path

import pytest
from markupsafe import escape
from text_bot import FORGED, NAME

from arena.inert import markdown, terminal
from arena.store.db import Store

TEXT_BOT = Path(__file__).with_name("text_bot.py")
#: What the organiser (copying an entrant's chosen name) calls the ``text`` bot in a tournament.
ORGANISER_NAME = "\x1b[31m<b>x</b> | `y` [bold]z\u202e"
#: Characters no output may carry raw: controls (but newline and tab), format characters, separators.
HIDDEN = {"Cc", "Cf", "Cs", "Zl", "Zp"}


def arena(*args: str, cwd: Path, status: int = 0) -> subprocess.CompletedProcess[bytes]:
    """The ``arena`` command line in a fresh interpreter, its output captured as raw bytes; it must
    exit with ``status`` and print no raw control character."""
    env = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "TTY_COMPATIBLE")}
    done = subprocess.run(
        [sys.executable, "-c", "from arena.cli.app import main; main()", *args],
        cwd=cwd, capture_output=True, timeout=240, env={**env, "COLUMNS": "1000"},
    )
    assert done.returncode == status, done.stderr.decode(errors="replace")
    assert raw_controls(done.stdout) == [] and raw_controls(done.stderr) == []
    return done


def raw_controls(output: bytes) -> list[str]:
    """The characters in ``output`` that could act on a terminal (ESC, C0, C1, bidi, ...)."""
    assert b"\x1b" not in output
    text = output.decode("utf-8")
    return [c for c in text if c not in "\n\t" and unicodedata.category(c) in HIDDEN]


def strict_json(text: str) -> object:
    """``text`` parsed as JSON that has no NaN or infinity."""
    def refuse(constant: str) -> object:
        raise AssertionError(f"{constant} in strict JSON")

    return json.loads(text, parse_constant=refuse)


def manifest(folder: Path, mode: str, name: str) -> Path:
    """An entrant's folder: the hostile bot program and its manifest naming it ``name``."""
    folder.mkdir()
    shutil.copy(TEXT_BOT, folder / "text_bot.py")
    path = folder / "bot.toml"
    path.write_text(f"name = {json.dumps(name)}\ncommand = {json.dumps([sys.executable, 'text_bot.py', mode])}\n")
    return path


@pytest.fixture(scope="module")
def entrants(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The manifests of the ``text`` bot (named with escape sequences) and the ``values`` bot."""
    base = tmp_path_factory.mktemp("entrants")
    return manifest(base / "text", "text", FORGED), manifest(base / "values", "values", "values")


def test_a_watched_recorded_match_shows_bot_text_inert_and_records_every_value(
    entrants: tuple[Path, Path], tmp_path: Path
) -> None:
    text, values = entrants
    done = arena("-v", "play", "wongar", "--bot", str(text), "--bot", str(values), "--bot", "random",
                 "--tc", "300ms", "--watch", "--delay", "0", "--record", "match.json", "--logs", "logs",
                 cwd=tmp_path)
    shown = done.stdout.decode()
    assert terminal(FORGED) in shown  # the name in the result table, the error text in the fault
    assert f"bot reported: {terminal(FORGED)}" in shown
    assert "[bold red]x[/]" in shown

    raw = (tmp_path / "match.json").read_bytes()
    assert b"\x1b" not in raw
    record = strict_json(raw.decode("ascii"))
    assert isinstance(record, dict)
    assert record["bots"] == [FORGED, "values", "random"]
    assert [seat for seat, kind, _, detail in record["faults"]] == [0]
    assert record["faults"][0][3] == f"bot reported: {FORGED}"
    infos = {seat: info for seat, _, _, info, fallback in record["decisions"] if not fallback}
    assert infos[0] == {"note": FORGED, FORGED: "[bold red]x"}
    assert infos[1]["raw"] == {"$bytes": base64.b64encode(b"\x00\xff\x1b[2J").decode()}
    assert infos[1]["$bytes:" + base64.b64encode(b"bin-key").decode()] == 1
    assert (infos[1]["nan"], infos[1]["inf"], infos[1]["ninf"]) == ("NaN", "Infinity", "-Infinity")
    assert (infos[1]["big"], infos[1]["small"]) == (2**64 - 1, -(2**63))
    assert infos[1]["mixed"] == [{"$bytes": "eA=="}, 1.5, None, True, {"nan": ["NaN"]}]


def test_bot_check_lists_the_breaches_inert(entrants: tuple[Path, Path], tmp_path: Path) -> None:
    done = arena("bot", "check", str(entrants[0]), "--game", "wongar", "--matches", "1", "--tc", "300ms",
                 cwd=tmp_path, status=1)
    assert f"bot reported: {terminal(FORGED)}" in done.stderr.decode()
    assert "\\x1b[2J\\x1b[H" in done.stdout.decode()  # the name, in the table's (wrapped) title


def test_a_tournament_stores_every_value_and_publishes_the_text_escaped(
    entrants: tuple[Path, Path], tmp_path: Path
) -> None:
    text, values = entrants
    config = {
        "name": "hostile-text", "game": "wongar", "table_size": 3, "deals": 1, "seed": 5,
        "time_control": "300ms", "concurrency": 1,
        "bots": [{"name": ORGANISER_NAME, "bot": str(text)}, {"name": "values", "bot": str(values)},
                 {"name": "random", "bot": "random"}],
    }
    (tmp_path / "t.toml").write_text(_toml(config))
    arena("tournament", "run", "t.toml", "--db", "t.db", cwd=tmp_path)

    with Store(tmp_path / "t.db") as store:
        games = store.games("hostile-text")
    assert len(games) == 3
    for game in games:
        seat = game.record.bots.index("values")
        infos = [d.info for d in game.record.decisions if d.seat == seat and not d.fallback]
        assert infos and all(info is not None and info["nan"] == "NaN" for info in infos)

    listed = arena("games", "list", "--db", "t.db", cwd=tmp_path).stdout.decode()
    assert terminal(ORGANISER_NAME) in listed
    for line in arena("games", "list", "--db", "t.db", "--json", cwd=tmp_path).stdout.decode().splitlines():
        assert ORGANISER_NAME in strict_json(line)["bots"]  # type: ignore[index]
    arena("replay", games[0].placement.game_id, "--db", "t.db", "--no-step", cwd=tmp_path)
    arena("tournament", "status", "--db", "t.db", cwd=tmp_path)
    arena("leaderboard", "--db", "t.db", cwd=tmp_path)
    arena("leaderboard", "--db", "t.db", "--format", "md", cwd=tmp_path)
    arena("publish", "--db", "t.db", "--out", "site", cwd=tmp_path)

    page = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert str(escape(terminal(ORGANISER_NAME))) in page and "<b>x</b>" not in page
    document = (tmp_path / "site" / "leaderboard.md").read_text(encoding="utf-8")
    assert markdown(ORGANISER_NAME) in document and "<b>" not in document
    data = (tmp_path / "site" / "leaderboard.json").read_bytes()
    assert ORGANISER_NAME in [s["bot"] for s in strict_json(data.decode("ascii"))["standings"]]  # type: ignore[index]
    for published in (page, document):
        assert raw_controls(published.encode()) == []


def _toml(config: dict[str, object]) -> str:
    """``config`` (strings, numbers, and a list of flat tables under ``bots``) as TOML."""
    lines = [f"{key} = {json.dumps(value)}" for key, value in config.items() if key != "bots"]
    for bot in config["bots"]:  # type: ignore[attr-defined]
        lines += ["", "[[bots]]"] + [f"{key} = {json.dumps(value)}" for key, value in bot.items()]
    return "\n".join(lines) + "\n"
