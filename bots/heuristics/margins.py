"""What a bot maximises, from each seat's estimated final points: its lead, or a reward in (0, 1)."""

from __future__ import annotations

import math
from collections.abc import Sequence

#: Points of lead that make a reward of about 0.73 (and of deficit, 0.27).
REWARD_SCALE = 4.0


def margin(values: Sequence[float], seat: int) -> float:
    """``seat``'s lead over the best other seat (negative when behind)."""
    return values[seat] - max(v for s, v in enumerate(values) if s != seat)


def rewards(values: Sequence[float]) -> list[float]:
    """Per seat, a reward in (0, 1): a logistic curve of its lead over the best other seat, so
    that winning counts most and every point of margin still counts a little."""
    return [1 / (1 + math.exp(-margin(values, seat) / REWARD_SCALE)) for seat in range(len(values))]
