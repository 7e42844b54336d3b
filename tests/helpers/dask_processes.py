"""A real local Dask cluster as separate processes (a scheduler and its workers), for tests that
kill one of them; the caller kills and waits for every process it starts."""

from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path

DASK = str(Path(sys.executable).with_name("dask"))


def free_port() -> int:
    """A local TCP port nobody listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def start_scheduler(port: int) -> subprocess.Popen[bytes]:
    """A Dask scheduler on 127.0.0.1:``port``, without a dashboard, its output discarded. Its HTTP
    server (health and metrics, even with no dashboard) takes a free port, not Dask's fixed 8787."""
    command = [DASK, "scheduler", "--host", "127.0.0.1", "--port", str(port), "--no-dashboard",
               "--dashboard-address", "127.0.0.1:0"]
    return subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def start_worker(address: str, threads: int, *, nanny: bool = True) -> subprocess.Popen[bytes]:
    """A Dask worker of the scheduler at ``address`` with ``threads`` threads (``nanny=False``: the
    worker is this very process, so killing it loses its games)."""
    command = [DASK, "worker", address, "--nthreads", str(threads), "--no-dashboard"]
    return subprocess.Popen(command + ([] if nanny else ["--no-nanny"]),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
