"""Bot manifests and bot processes: resolution, limits, capped logs, escalation, reaping."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from polling import wait_until

from arena.manifest import BotSpec, ManifestError, ResourceLimits, builtin_bots, load_manifest, resolve_bot
from arena.process import BotProcess, BotStartError, exit_text
from referee_helpers import live_group_members

PY = sys.executable


def test_builtin_names_commands_and_manifests_resolve(tmp_path: Path) -> None:
    assert "random" in builtin_bots()
    assert resolve_bot("random").command == (PY, "-m", "bots.random")
    spec = resolve_bot(f"{PY} mybot.py --depth 3")
    assert spec.name == "mybot" and spec.command[-2:] == ("--depth", "3")
    assert resolve_bot("sleep 100").name == "sleep"
    manifest = tmp_path / "bot.toml"
    manifest.write_text(
        'name = "deep"\nversion = "2.1"\ncommand = "python3 deep.py"\n'
        '[env]\nDEEP_THREADS = "1"\n[limits]\nmemory_mb = 512\nlog_kb = 4\n'
    )
    loaded = resolve_bot(str(manifest))
    assert loaded == BotSpec("deep", ("python3", "deep.py"), tmp_path.resolve(), {"DEEP_THREADS": "1"},
                             "2.1", ResourceLimits(memory_mb=512, log_bytes=4096))


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("no-such-program-here --x", "not found on PATH"),
        ("./missing-bot", "is not an executable file"),
        ("", "empty bot"),
        ("'unclosed", "cannot split"),
        ("missing.toml", "does not exist"),
    ],
)
def test_unresolvable_bots_say_why(text: str, fragment: str) -> None:
    with pytest.raises(ManifestError, match=fragment):
        resolve_bot(text)


@pytest.mark.parametrize(
    ("body", "fragment"),
    [
        ('name = "x"\n', "'command'"),
        ('name = "x"\ncommand = []\n', "'command' must be"),
        ('name = "x"\ncommand = "python3"\ncolour = 1\n', "unknown key 'colour'"),
        ('name = "x"\ncommand = "python3"\n[limits]\nmemory = 1\n', "unknown limit 'memory'"),
        ('name = "x"\ncommand = "python3"\n[limits]\nopen_files = -1\n', "positive whole number"),
        ('name = "x"\ncommand = "python3"\ncwd = "nowhere"\n', "does not exist"),
        ("name = ", "cannot read bot manifest"),
    ],
)
def test_bad_manifests_name_the_problem(tmp_path: Path, body: str, fragment: str) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(body)
    with pytest.raises(ManifestError, match=fragment):
        load_manifest(path)


@pytest.mark.sandbox
def test_limits_apply_and_output_is_captured_with_a_cap(tmp_path: Path) -> None:
    script = (
        "import resource, sys\n"
        "print('nofile', resource.getrlimit(resource.RLIMIT_NOFILE)[0])\n"
        "print('as', resource.getrlimit(resource.RLIMIT_AS)[0] >> 20)\n"
        "sys.stdout.flush()\n"
        "sys.stdout.write('x' * 100000)\n"
    )
    limits = ResourceLimits(memory_mb=1024, open_files=77, log_bytes=200)
    spec = BotSpec("printer", (PY, "-c", script), limits=limits)
    with BotProcess(spec, {}, tmp_path / "printer.log") as process:
        assert process.wait(20)
    text = (tmp_path / "printer.log").read_text()
    assert "nofile 77\nas 1024\n" in text
    assert text.endswith("[log truncated at 200 bytes]\n")
    assert len(text) < 300


def test_a_program_over_its_cpu_seconds_is_said_to_have_used_up_its_cpu_time(tmp_path: Path) -> None:
    spec = BotSpec("burner", (PY, "-c", "while True: pass"), limits=ResourceLimits(cpu_seconds=1))
    with BotProcess(spec, {}, tmp_path / "burner.log") as process:
        assert process.wait(120)
        status = process.exit_status()
    assert status is not None
    assert exit_text(status) == "was killed by SIGXCPU: it used up its CPU-time limit (cpu_seconds)"
    assert (exit_text(0), exit_text(3), exit_text(-9)) == (
        "exited with status 0", "exited with status 3", "was killed by SIGKILL")


def test_close_is_idempotent_and_reaps_the_group(tmp_path: Path) -> None:
    script = (
        "import signal, subprocess, sys, time\n"
        "signal.signal(signal.SIGTERM, signal.SIG_IGN)\n"
        "subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(600)'])\n"
        "print('ready', flush=True)\n"
        "time.sleep(600)\n"
    )
    # Trusted, so unsandboxed: the process-group escalation (the sandbox's is in tests/sandbox/).
    spec = BotSpec("hang", (PY, "-c", script), trusted=True)
    with BotProcess(spec, {}, tmp_path / "hang.log") as process:
        assert process.pid is not None
        assert wait_until(lambda: "ready" in (tmp_path / "hang.log").read_text(), timeout=60)
        assert len(live_group_members(process.pid)) == 2
        assert process.close(grace=0.1, term_grace=0.1) == -9
    assert process.close() == -9
    assert live_group_members(process.pid) == []


def test_a_program_that_cannot_run_is_a_start_error(tmp_path: Path) -> None:
    spec = BotSpec("ghost", (str(tmp_path / "ghost"),))
    with pytest.raises(BotStartError, match="cannot start bot 'ghost'"):
        BotProcess(spec, {}, tmp_path / "ghost.log").start()
