"""What the operating system enforces on a trusted (unsandboxed) bot: limits it cannot raise, a
private working directory removed afterwards, a minimal environment, and no network for a local
bot where the machine allows it. The sandbox of untrusted bots is tested in tests/sandbox/."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from polling import wait_until

from arena.launch import SCRIPT, Settings, encode_settings, parse_settings
from arena.manifest import BotSpec, ManifestError, ResourceLimits, load_manifest
from arena.process import BotProcess, launcher_command, network_isolation_problem

REPORT = r"""
import json, os, resource, socket, sys
port = int(sys.argv[1])
limits = {name: resource.getrlimit(getattr(resource, name))
          for name in ("RLIMIT_AS", "RLIMIT_CPU", "RLIMIT_NOFILE", "RLIMIT_NPROC")}
try:
    socket.create_connection(("127.0.0.1", port), timeout=2).close()
    network = "reached"
except OSError as exc:
    network = type(exc).__name__
print(json.dumps({"cwd": os.getcwd(), "entries": os.listdir("."), "limits": limits,
                  "network": network, "env": dict(os.environ)}), flush=True)
"""


def report(spec_limits: ResourceLimits, tmp_path: Path, *, isolate: bool, network: bool = False,
           cwd: Path | None = None) -> dict[str, object]:
    """Run the reporting script as a bot with these settings; what it saw."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        port = listener.getsockname()[1]
        spec = BotSpec("reporter", (sys.executable, "-c", REPORT, str(port)), cwd=cwd,
                       limits=spec_limits, network=network, trusted=True)
        with BotProcess(spec, {}, tmp_path / "reporter.log", isolate_network=isolate) as process:
            assert process.wait(30)
    lines = (tmp_path / "reporter.log").read_text().splitlines()
    seen: dict[str, object] = json.loads(lines[-1])
    return seen


def test_limits_are_set_hard_and_the_working_directory_is_private(tmp_path: Path) -> None:
    limits = ResourceLimits(memory_mb=1024, cpu_seconds=30, open_files=77, processes=5000)
    seen = report(limits, tmp_path, isolate=False)
    assert seen["limits"] == {
        "RLIMIT_AS": [1024 << 20, 1024 << 20],
        "RLIMIT_CPU": [30, 32],
        "RLIMIT_NOFILE": [77, 77],
        "RLIMIT_NPROC": [5000, 5000],
    }
    cwd = Path(str(seen["cwd"]))
    assert cwd.name.startswith("arena-bot-reporter-") and seen["entries"] == []
    assert not cwd.exists(), "the private directory is removed when the bot is closed"
    assert seen["network"] == "reached", "isolation was not asked for"
    env = seen["env"]
    assert isinstance(env, dict) and set(env) - {"PWD", "LC_CTYPE"} == {"PATH", "HOME", "TMPDIR", "LANG"}
    assert env["HOME"] == env["TMPDIR"] == str(cwd), "the referee's environment is not passed on"


def test_a_manifest_working_directory_is_used_as_given(tmp_path: Path) -> None:
    (tmp_path / "data.txt").write_text("mine")
    seen = report(ResourceLimits(), tmp_path, isolate=False, cwd=tmp_path)
    assert seen["cwd"] == str(tmp_path) and "data.txt" in seen["entries"]  # type: ignore[operator]


def test_a_local_bot_has_no_network_where_the_machine_allows(tmp_path: Path) -> None:
    problem = network_isolation_problem()
    if problem is not None:
        pytest.skip(f"no network isolation on this machine: {problem}")
    assert report(ResourceLimits(), tmp_path, isolate=True)["network"] != "reached"
    assert report(ResourceLimits(), tmp_path, isolate=True, network=True)["network"] == "reached"


def test_a_manifest_may_keep_the_network_and_rejects_other_values(tmp_path: Path) -> None:
    path = tmp_path / "bot.toml"
    path.write_text(f'name = "n"\ncommand = "{sys.executable}"\nnetwork = true\n')
    assert load_manifest(path).network is True
    path.write_text(f'name = "n"\ncommand = "{sys.executable}"\nnetwork = "yes"\n')
    with pytest.raises(ManifestError, match="'network' must be true or false"):
        load_manifest(path)


def test_a_manifest_naming_a_file_that_is_not_executable_says_so(tmp_path: Path) -> None:
    (tmp_path / "bot.sh").write_text("#!/bin/sh\n")
    path = tmp_path / "bot.toml"
    path.write_text('name = "n"\ncommand = "./bot.sh"\n')
    with pytest.raises(ManifestError, match="'./bot.sh' for 'n' is not an executable file"):
        load_manifest(path)


def test_the_launcher_reports_what_it_cannot_do(tmp_path: Path) -> None:
    full = Settings({"as": 1 << 30, "cpu": 5}, True, 42, ("/a/cgroup.procs", "/b/cgroup.procs"),
                    1 << 30, "/tmp/hub/peer")
    assert parse_settings(encode_settings(full)) == full
    assert parse_settings(encode_settings(Settings())) == Settings()
    with pytest.raises(ValueError, match="unknown limit 'stack'"):
        encode_settings(Settings({"stack": 1}))
    with pytest.raises(ValueError, match="holds a comma"):
        encode_settings(Settings(socket="/tmp/a,b"))
    missing = subprocess.run(launcher_command([str(tmp_path / "gone")], Settings()),
                             capture_output=True, text=True, check=False)
    assert missing.returncode == 127 and "cannot execute" in missing.stderr
    orphan = subprocess.run([sys.executable, "-I", "-S", SCRIPT, encode_settings(Settings(parent=1)), "true"],
                            capture_output=True, text=True, check=False)
    assert orphan.returncode == 127 and "the referee (pid 1) is gone" in orphan.stderr
    bad = subprocess.run([sys.executable, "-I", "-S", SCRIPT, "speed=9", "true"],
                         capture_output=True, text=True, check=False)
    assert bad.returncode == 127 and "unknown setting 'speed=9'" in bad.stderr


# Starts a bot (``sleep``) through the launcher, prints its pid, and waits to be killed.
STARTER = r"""
import subprocess, sys, time
import os
from arena.launch import Settings
from arena.process import launcher_command
bot = subprocess.Popen(launcher_command(["sleep", "120"], Settings(parent=os.getpid())))
print(bot.pid, flush=True)
time.sleep(120)
"""


def _running(pid: int) -> bool:
    """Whether ``pid`` is a live process (a zombie awaiting its reaper is not)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def test_a_bot_dies_with_the_referee_process_that_started_it(tmp_path: Path) -> None:
    starter = subprocess.Popen([sys.executable, "-c", STARTER], stdout=subprocess.PIPE, text=True,
                               cwd=Path(__file__).parents[2])
    assert starter.stdout is not None
    bot = int(starter.stdout.readline())
    try:
        # Wait for the launcher to have set everything up and become the bot.
        assert wait_until(lambda: Path(f"/proc/{bot}/cmdline").read_text().split("\0")[0] == "sleep", 10)
        starter.kill()  # SIGKILL: the starter cannot close its bot
        starter.wait()
        assert wait_until(lambda: not _running(bot), 10), "the bot outlived the process that started it"
    finally:
        starter.kill()
        if _running(bot):
            os.kill(bot, 9)
