"""Does the sandbox work here? The trial behind the refusal to run untrusted bots without it, and
the escapes ``arena doctor`` tries from inside.
"""

from __future__ import annotations

import json
import os
import socket
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from arena.manifest import BotSpec, ResourceLimits
from arena.process import BotProcess, BotStartError, exit_text
from arena.sandbox.probe import INSTALL_HINT, bwrap_path

#: Seconds a sandboxed trial may take.
TRIAL_TIMEOUT = 30.0
#: The escape probe's process limit, and how many processes it tries to start.
PROBE_PROCESSES, PROBE_FORKS = 32, 200
PROBE = Path(__file__).with_name("escape_probe.py")


@dataclass(frozen=True, slots=True)
class Check:
    """One escape the probe tried: whether the sandbox held, and what happened."""

    name: str
    held: bool
    detail: str


@cache
def sandbox_problem() -> str | None:
    """Why untrusted bots cannot be sandboxed on this machine, or ``None`` if a sandboxed trial
    program ran. Tried once per process."""
    if bwrap_path() is None:
        return f"bubblewrap is missing; {INSTALL_HINT}"
    spec = BotSpec("sandbox-trial", (sys.executable, "-c", "pass"))
    with tempfile.TemporaryDirectory(prefix="arena-trial-") as folder:
        try:
            process = BotProcess(spec, {}, Path(folder) / "trial.log", isolate_network=True)
            process.start()
            process.wait(TRIAL_TIMEOUT)
            status = process.exit_status()
            process.close(grace=0)
        except BotStartError as exc:
            return str(exc)
        if status != 0:
            tail = process.log_tail(1)
            ended = f"did not end within {TRIAL_TIMEOUT:g} s" if status is None else exit_text(status)
            return f"a sandboxed trial program {ended}" + (f": {tail}" if tail else "")
    return None


def refusal(specs: Sequence[BotSpec]) -> str | None:
    """The one-line refusal to run ``specs`` when some are untrusted and the sandbox does not work
    here, else ``None``."""
    if all(spec.trusted for spec in specs):
        return None
    problem = sandbox_problem()
    if problem is None:
        return None
    return f"untrusted bots need the sandbox: {problem} (or --no-sandbox: run them unconfined)"


def escape_checks(with_groups: bool) -> list[Check]:
    """Run the escape probe in the sandbox; one :class:`Check` per escape it tried (the fork bomb
    only ``with_groups``, which hold it to :data:`PROBE_PROCESSES`)."""
    with tempfile.TemporaryDirectory(prefix="arena-doctor-") as tmp, socket.socket() as listener:
        folder = Path(tmp)
        (folder / "league.toml").write_text("# what a bot must not see beside it\n")
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        port = listener.getsockname()[1]
        forks = PROBE_FORKS if with_groups else 0
        spec = BotSpec("escape-probe", (sys.executable, str(PROBE), str(os.getpid()), str(port),
                                        str(folder), str(forks)),
                       cwd=folder, limits=ResourceLimits(processes=PROBE_PROCESSES))
        log = folder / "probe.log"
        process = BotProcess(spec, {}, log, isolate_network=True)
        try:
            process.start()
            process.wait(TRIAL_TIMEOUT)
        finally:
            process.close(grace=0)
        lines = log.read_text(errors="replace").strip().splitlines() if log.exists() else []
        planted = (folder / "planted").exists()
    try:
        report: dict[str, str] = json.loads(lines[-1])
    except (IndexError, json.JSONDecodeError):
        return [Check("run the escape probe", False, lines[-1] if lines else "no output")]
    checks = [Check(name, outcome.startswith("blocked"), outcome) for name, outcome in report.items()]
    if planted:
        checks.append(Check("leave a file in its folder", False, "a file was planted"))
    return checks
