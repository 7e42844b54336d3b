"""An SDK bot that reports, in each decision's ``info``, what its hooks have seen so far.

``info`` carries the number of ``start`` and ``end`` messages received, the match id, and the
clock's bank in milliseconds, so a test can check that the SDK calls the hooks and passes the clock.
"""

from __future__ import annotations

from engine.core import WireMap
from protocols.messages import End, Start
from protocols.sdk import Choice, Clock, run

seen: dict[str, int | str] = {"starts": 0, "ends": 0, "match": ""}


def on_start(start: Start) -> None:
    seen["starts"] = int(seen["starts"]) + 1
    seen["match"] = start.match


def on_end(end: End) -> None:
    seen["ends"] = int(seen["ends"]) + 1


def choose(observation: WireMap, legal: tuple[int, ...], clock: Clock) -> Choice:
    return Choice(legal[-1], {**seen, "bank_ms": round(clock.bank * 1000)})


if __name__ == "__main__":
    raise SystemExit(run(choose, name="hooked", version="1", on_start=on_start, on_end=on_end))
