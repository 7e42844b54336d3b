"""Finding the live processes a test started, by a marker in their environment."""

from __future__ import annotations

from pathlib import Path


def processes_marked(variable: str, marker: str) -> list[int]:
    """Pids of live (not zombie) processes whose environment has ``variable=marker``."""
    found = []
    needle = f"{variable}={marker}".encode()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            environ = (entry / "environ").read_bytes()
            state = (entry / "stat").read_text().rsplit(") ", 1)[1][0]
        except (OSError, IndexError):
            continue
        if needle in environ.split(b"\0") and state != "Z":
            found.append(int(entry.name))
    return found
