"""Referee overhead: per-decision round trip in a full match, against a raw ROUTER/DEALER ping-pong.

Both are measured in one run, interleaved decision by decision so that load from elsewhere on the
machine falls on both alike:

* referee: ``run_match`` between instant built-in bots (``random``), each decision's time as the
  referee records it (``act`` sent → ``action`` received, decoded and validated); played twice:
  with the built-in bots as they run (trusted, unsandboxed), and with the same bots run as
  untrusted ones, in the sandbox, so that each decision also thaws the bot before its ``act`` and
  freezes it after its reply (and its CPU time is read);
* raw: after each round of those decisions, a bare ROUTER socket sends the next round's ``act``
  maps (the same observations as sent, as changes since the seat's last act in protocol 2, legal
  lists and events, so the same sizes; to every deciding seat at
  once in a simultaneous round) with plain ``msgpack.packb`` to bare DEALER echo processes, one
  per seat, which answer with ``action`` maps; timed the same way. Each run has its own raw
  exchanges, interleaved with it.

Usage: python benchmarks/referee_overhead.py [GAME] [--matches N]
"""

from __future__ import annotations

import argparse
import statistics
import time

import msgpack

from dataclasses import replace

from arena.clock import TimeControl
from arena.manifest import BotSpec, resolve_bot
from arena.record import DecisionRecord
from arena.referee import run_match
from arena.sandbox.selftest import sandbox_problem
from engine.core import State, WireMap
from engine.registry import games, get_game
from protocols.delta import changes

from raw_wire import RawWire

class RawPingPong(RawWire):
    """The raw wire; :meth:`after` times one exchange."""

    def __init__(self, players: int) -> None:
        super().__init__(players)
        self.since = [0] * players
        self.seen: list[WireMap | None] = [None] * players
        self.pending: set[int] = set()
        self.times: list[float] = []

    def after(self, state: State, decision: DecisionRecord) -> None:
        """Once a round of decisions is complete, time a raw exchange for the next round: the same
        ``act`` maps the referee is about to send, to all deciding seats at once."""
        self.pending.discard(decision.seat)
        if state.is_over():
            self.since = [0] * len(self.since)
            self.seen = [None] * len(self.seen)
            self.pending.clear()
            return
        if self.pending:
            return
        movers = state.to_move()
        self.pending = set(movers)
        sent: dict[bytes, float] = {}
        for seat in movers:
            events, self.since[seat] = state.events(seat, self.since[seat])
            observation = state.observation(seat)
            changed, gone = changes(self.seen[seat], observation)
            self.seen[seat] = observation
            payload = {
                "type": "act", "seq": len(self.times), "seat": seat, "ply": len(self.times),
                "observation": changed, "legal": state.legal_actions(seat),
                "events": list(events), "clock": {"move_ms": 1000, "bank_ms": 0, "increment_ms": 0},
            }
            if gone:
                payload["gone"] = gone
            self.router.send_multipart([self.identities[seat], msgpack.packb(payload)])
            sent[self.identities[seat]] = time.monotonic()
        while sent:
            self.router.poll(5000)
            identity, reply = self.router.recv_multipart()
            msgpack.unpackb(reply)
            self.times.append(time.monotonic() - sent.pop(identity))


def percentile(values: list[float], q: int) -> float:
    """The ``q``-th percentile of ``values``."""
    return statistics.quantiles(values, n=100, method="inclusive")[q - 1]


def measure(game_name: str | None, matches: int, bot: BotSpec) -> tuple[list[float], list[float]]:
    """Referee decision times and raw exchange times of ``matches`` matches between ``bot``s."""
    names = [g.name for g in games().values()]
    game = get_game(game_name or ("wongar" if "wongar" in names else names[0]))
    config = game.configure(game.min_players)
    raw = RawPingPong(config.players)
    referee: list[float] = []
    try:
        for number in range(matches):
            record = run_match(game, config, 1000 + number, [bot] * config.players, TimeControl(1.0),
                               on_decision=raw.after)
            assert not record.faults, record.faults
            referee.extend(d.elapsed for d in record.decisions)
    finally:
        raw.close()
    return referee, raw.times


def main() -> None:
    parser = argparse.ArgumentParser(description="Referee overhead against a raw ping-pong.")
    parser.add_argument("game", nargs="?", default=None)
    parser.add_argument("--matches", type=int, default=8, help="matches to play per run (default 8)")
    args = parser.parse_args()
    builtin = resolve_bot("random")
    runs = {"built-in": builtin}
    problem = sandbox_problem()
    if problem is None:
        runs["sandboxed"] = replace(builtin, trusted=False)
    else:
        print(f"no sandboxed run: {problem}")
    print(f"game {args.game or 'wongar'}, {args.matches} matches per run; p50 and p99 in µs")
    print(f"{'run':12}{'raw p50':>10}{'referee p50':>13}{'ratio':>7}{'raw p99':>10}{'referee p99':>13}{'ratio':>7}")
    for name, bot in runs.items():
        referee, raw = measure(args.game, args.matches, bot)
        r50, f50 = percentile(raw, 50), percentile(referee, 50)
        r99, f99 = percentile(raw, 99), percentile(referee, 99)
        print(f"{name:12}{r50 * 1e6:10.1f}{f50 * 1e6:13.1f}{f50 / r50:7.2f}"
              f"{r99 * 1e6:10.1f}{f99 * 1e6:13.1f}{f99 / r99:7.2f}   ({len(referee)} decisions)")


if __name__ == "__main__":
    main()
