"""The reaper of a referee's bot groups: a process that outlives its referee only to remove them.

A bot frozen between its turns gets no parent-death signal while frozen (it is delivered on
thawing), so a referee killed outright would leave its frozen bots behind. Each referee process
that makes bot groups starts one reaper (:func:`arena.sandbox.cgroups.BotGroup.create`), holding the
write end of a pipe the reaper reads. The kernel closes that end however the referee ends; the
reaper then kills and removes every group named after the referee, and exits. A referee that
ended cleanly removed its groups itself, so the reaper finds none.

Run as ``python -m arena.sandbox.reaper REFEREE_PID FD``.
"""

from __future__ import annotations

import os
import sys

from arena.sandbox.cgroups import layout, sweep_orphans


def main(argv: list[str]) -> int:
    """Wait for EOF on the inherited pipe ``FD``, then remove referee ``REFEREE_PID``'s groups."""
    referee, fd = int(argv[1]), int(argv[2])
    while os.read(fd, 4096):
        pass
    where = layout()
    if where is not None and not where.missing:
        sweep_orphans(where, referee)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
