"""What a sandboxed bot sees and is: an identity of its own, its own processes only, a minimal
environment, the system and its folder read-only, a tmpfs of the size asked, no network."""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path

import pytest

from arena.manifest import BotSpec, ResourceLimits
from arena.process import BotProcess, BotStartError
from arena.sandbox.identity import IDENTITY_BASE
from arena.sandbox.jail import HOME, INSIDE_ID

pytestmark = pytest.mark.sandbox

REPORT = r"""
import json, os, socket
def attempt(f):
    try:
        return "ok: " + str(f())
    except OSError as exc:
        return "refused: " + (exc.strerror or str(exc))
def fill():
    with open("/tmp/fill", "wb") as out:
        for _ in range(32):
            out.write(b"x" * (1 << 20))
    return "32 MiB"
print(json.dumps({
    "uid": os.getuid(), "cwd": os.getcwd(), "env": dict(os.environ),
    "pids": sorted(int(p) for p in os.listdir("/proc") if p.isdigit()),
    "folder": sorted(os.listdir(".")),
    "write_folder": attempt(lambda: open("mine.txt", "a").write("x")),
    "write_usr": attempt(lambda: open("/usr/x", "w")),
    "fill_tmp": attempt(fill),
    "net": attempt(lambda: socket.create_connection(("127.0.0.1", 9), timeout=1)),
    "home": os.listdir(os.environ["HOME"]),
}), flush=True)
"""


def sandboxed(tmp_path: Path, name: str, folder: Path | None = None,
              limits: ResourceLimits = ResourceLimits(),
              files: tuple[Path, ...] = ()) -> tuple[dict[str, object], int]:
    """Run the report in the sandbox; what it saw, and its launcher's pid (its identity's key)."""
    spec = BotSpec(name, (sys.executable, "-c", REPORT), cwd=folder, env={"MINE": "1"}, limits=limits,
                   files=files)
    process = BotProcess(spec, {"ARENA_TOKEN": "t"}, tmp_path / f"{name}.log", isolate_network=True)
    with process:
        assert process.wait(30)
        pid = process.pid
        owners = {os.stat(f"/proc/{p}").st_uid for p in process.group.members()} if process.group else set()
    assert pid is not None
    seen: dict[str, object] = json.loads((tmp_path / f"{name}.log").read_text().splitlines()[-1])
    seen["owners"] = sorted(owners)
    return seen, pid


def test_a_sandboxed_bot_has_its_own_identity_processes_and_minimal_environment(tmp_path: Path) -> None:
    os.environ["ARENA_TEST_SECRET"] = "organiser's"
    try:
        first, first_pid = sandboxed(tmp_path, "first")
        second, second_pid = sandboxed(tmp_path, "second")
    finally:
        del os.environ["ARENA_TEST_SECRET"]
    assert first["uid"] == second["uid"] == INSIDE_ID
    if os.geteuid() == 0:
        # Outside its namespace, each runs as an identity of its own, neither root nor a rival's.
        assert first["owners"] in ([], [IDENTITY_BASE + first_pid])
        assert second["owners"] in ([], [IDENTITY_BASE + second_pid])
    assert first["pids"] == [1, 2], "it sees bubblewrap's init and itself, nothing else"
    env = first["env"]
    assert isinstance(env, dict)
    assert set(env) - {"PWD"} == {"PATH", "HOME", "TMPDIR", "LANG", "MINE", "ARENA_TOKEN"}
    assert env["HOME"] == env["TMPDIR"] == HOME == first["cwd"]
    assert first["net"].startswith("refused")  # type: ignore[union-attr]
    assert first["write_usr"].startswith("refused")  # type: ignore[union-attr]
    assert first["fill_tmp"] == "ok: 32 MiB", "the default tmpfs (64 MiB) holds it"


def test_its_folder_holds_its_files_alone_read_only_and_its_tmpfs_as_small_as_asked(tmp_path: Path) -> None:
    folder = tmp_path / "bot"
    folder.mkdir()
    (folder / "data.txt").write_text("mine")
    (folder / "league.toml").write_text("the organiser's")
    seen, _ = sandboxed(tmp_path, "foldered", folder, ResourceLimits(disk_mb=8), (folder / "data.txt",))
    assert seen["cwd"] == str(folder) and seen["folder"] == ["data.txt"]
    assert seen["write_folder"] == "refused: Read-only file system"
    assert seen["fill_tmp"] == "refused: No space left on device"
    assert not (folder / "mine.txt").exists()


@pytest.mark.skipif(os.geteuid() != 0, reason="as an ordinary user the bot runs as that user")
def test_a_file_of_its_own_the_bot_cannot_read_is_refused_with_the_fix(tmp_path: Path) -> None:
    script = tmp_path / "private.py"
    script.write_text("pass\n")
    script.chmod(0o600)
    spec = BotSpec("private", (sys.executable, "private.py"), cwd=tmp_path)
    with pytest.raises(BotStartError, match=re.escape(f"chmod -R o+rX {script}")):
        BotProcess(spec, {}, tmp_path / "private.log").start()
