"""Helpers for referee tests: the misbehaving bot's spec, and live members of a process group."""

from __future__ import annotations

import sys
from pathlib import Path

from arena.manifest import BotSpec

BOTS = Path(__file__).parent / "botprograms"

def misbehaving(mode: str) -> BotSpec:
    """The spec of the misbehaving test bot in ``mode``."""
    return BotSpec(f"misbehave-{mode}", (sys.executable, str(BOTS / "misbehave.py"), mode))


def live_group_members(pgid: int) -> list[int]:
    """Pids of processes in group ``pgid`` that are not zombies (read from /proc)."""
    members = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2 :].split()
        if int(fields[2]) == pgid and fields[0] != "Z":
            members.append(int(entry.name))
    return members
