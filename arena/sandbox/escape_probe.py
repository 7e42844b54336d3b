"""A sandboxed probe that tries a few escapes and prints, as one JSON map, what came of each.

Run by ``arena doctor`` (see :mod:`arena.sandbox.selftest`) as an untrusted bot in ``FOLDER``:
``python escape_probe.py REFEREE_PID PORT FOLDER FORKS`` (``FORKS`` 0: no fork bomb). Each attempt
is reported as ``"blocked: why"`` or ``"ESCAPED: what it got"``. Besides escapes it observes what
the jail promises: no file beside its own in its folder (where the doctor leaves one), no
supplementary groups, no capabilities and ``no_new_privs``. It imports only the standard library.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import sys
import time
from collections.abc import Callable


def _environ(referee: int) -> str:
    with open(f"/proc/{referee}/environ", "rb") as file:
        return f"read {len(file.read())} bytes of the referee's environment"


def _signal(referee: int) -> str:
    os.kill(referee, signal.SIGCONT)  # harmless if it got through, but it must not
    return f"signalled pid {referee}"


def _network(port: int) -> str:
    socket.create_connection(("127.0.0.1", port), timeout=2).close()
    return f"reached 127.0.0.1:{port}"


def _write(folder: str) -> str:
    for target in (os.path.join(folder, "planted"), "/usr/planted", "/planted", "/dev/planted",
                   "/dev/shm/planted", "/etc/planted"):
        try:
            with open(target, "w") as file:
                file.write("x")
            return f"wrote {target}"
        except OSError:
            continue
    raise PermissionError("no place outside its tmpfs is writable")


def _neighbours() -> str:
    own = {os.path.basename(__file__)}
    seen = sorted(set(os.listdir(".")) - own)
    if seen:
        return f"sees {', '.join(seen)} in its folder"
    raise PermissionError("its folder holds nothing but its own files")


def _groups() -> str:
    groups = set(os.getgroups()) - {os.getgid()}
    if groups:
        return f"has groups {sorted(groups)}"
    raise PermissionError("no supplementary groups")


def _privileges() -> str:
    with open("/proc/self/status") as status:
        fields = dict(line.rstrip("\n").split(":\t", 1) for line in status if ":\t" in line)
    held = {k: v for k, v in fields.items() if k.startswith("Cap") and int(v, 16)}
    if held or fields.get("NoNewPrivs") != "1":
        return f"capabilities {held}, NoNewPrivs {fields.get('NoNewPrivs')}"
    raise PermissionError("no capabilities, no_new_privs set")


def _fork_bomb(count: int) -> str:
    children = []
    try:
        for _ in range(count):
            pid = os.fork()
            if pid == 0:
                time.sleep(30)
                os._exit(0)
            children.append(pid)
        return f"started {len(children)} processes"
    finally:
        for pid in children:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)


def main(argv: list[str]) -> int:
    referee, port, folder, forks = int(argv[0]), int(argv[1]), argv[2], int(argv[3])
    attempts: dict[str, Callable[[], str]] = {
        "read the referee's environment": lambda: _environ(referee),
        "signal a process outside": lambda: _signal(referee),
        "reach 127.0.0.1 without network": lambda: _network(port),
        "write outside its tmpfs": lambda: _write(folder),
        "see the files beside it": _neighbours,
        "keep supplementary groups": _groups,
        "keep privileges": _privileges,
    }
    if forks:
        attempts[f"start {forks} processes"] = lambda: _fork_bomb(forks)
    report = {}
    for name, attempt in attempts.items():
        try:
            report[name] = "ESCAPED: " + attempt()
        except OSError as exc:
            report[name] = f"blocked: {exc.strerror or exc}"
    print(json.dumps(report), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
