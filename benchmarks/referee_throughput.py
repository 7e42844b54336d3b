"""Referee throughput: decisions per second of whole matches between instant bots, against a raw
round trip of the same messages, measured in one run.

For each game at 3 and 5 players, and for the built-in random bot run trusted and sandboxed
(untrusted: namespaces, control groups, frozen between its turns), the bots are started once and
play ``--matches`` matches through :func:`play_match`; the referee's rate is decisions over the sum
of the records' match durations. After each match the same decisions are replayed as a raw
exchange: a bare ROUTER socket packs each ``act`` map the referee sent (built again from the
replayed game), sends it to a bare DEALER echo process per seat, which unpacks it and answers an
``action`` map, which is unpacked in turn; a simultaneous round goes out to every deciding seat at
once, as the referee sends it. Two raw exchanges follow every match: with the acts as sent
(protocol 2: what changed since the seat's last act) and with whole observations (what a version-1
bot is sent). Referee and raw runs alternate match by match, so load from elsewhere falls on both.

``--protocol 1`` makes the bots speak version 1, whose acts carry whole observations.

Usage: python benchmarks/referee_throughput.py [--matches N] [--protocol 1|2] [--games wongar,...]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import msgpack

from arena.clock import TimeControl
from arena.handle import BotHandle, close_all
from arena.manifest import BotSpec, resolve_bot
from arena.record import MatchRecord
from arena.referee import play_match
from arena.sandbox.selftest import sandbox_problem
from engine.core import Game, MatchConfig, WireMap
from engine.registry import get_game
from protocols.delta import changes
from protocols.messages import PROTOCOL_VERSION
from protocols.transport import Hub

from raw_wire import RawWire

CLOCK = {"move_ms": 10000, "bank_ms": 0, "increment_ms": 0}
Round = list[tuple[int, dict[str, object]]]  # (seat, act map) for every seat deciding at once


def act_rounds(game: Game, config: MatchConfig, record: MatchRecord, whole: bool) -> list[Round]:
    """The act maps of ``record``'s match, round by round, as the referee builds them: with whole
    observations (``whole``) or with what changed since each seat's last act."""
    state = game.start(config, record.seed)
    since = [0] * config.players
    seen: list[WireMap | None] = [None] * config.players
    decisions = iter(record.decisions)
    rounds: list[Round] = []
    while not state.is_over():
        movers = state.to_move()
        acts: Round = []
        for seat in movers:
            events, since[seat] = state.events(seat, since[seat])
            observation = state.observation(seat)
            act: dict[str, object] = {"type": "act", "seq": 0, "seat": seat, "ply": 0,
                                      "legal": state.legal_actions(seat), "events": events,
                                      "clock": CLOCK}
            if whole:
                act["observation"] = observation
            else:
                act["observation"], gone = changes(seen[seat], observation)
                seen[seat] = observation
                if gone:
                    act["gone"] = gone
            acts.append((seat, act))
        rounds.append(acts)
        for _ in movers:
            decision = next(decisions)
            state.apply(decision.seat, decision.action)
    return rounds


class RawExchange(RawWire):
    """The raw wire; :meth:`play` times a match's acts."""

    def play(self, rounds: list[Round]) -> float:
        """Seconds to exchange every act of ``rounds`` (packing and unpacking included)."""
        router, identities, seq = self.router, self.identities, 0
        started = time.perf_counter()
        for acts in rounds:
            for seat, act in acts:
                seq += 1
                act["seq"] = seq
                router.send_multipart([identities[seat], msgpack.packb(act)])
            for _ in acts:
                router.poll(5000)
                msgpack.unpackb(router.recv_multipart()[1])
        return time.perf_counter() - started


def measure(
    game: Game, players: int, bot: BotSpec, matches: int, protocol: int
) -> Iterator[tuple[str, float, float]]:
    """(run, decisions, seconds) for the referee and both raw exchanges, match by match."""
    config = game.configure(players)
    with Hub(None) as hub, tempfile.TemporaryDirectory(prefix="arena-bench-") as logs:
        handles = BotHandle.launch_all([bot] * players, hub, Path(logs))
        raw = RawExchange(players)
        try:
            failed = [h.failure for h in handles if h.failure is not None]
            if failed:
                raise SystemExit(f"a bot did not start: {failed[0]}")
            for number in range(matches):
                record = play_match(game, config, 7000 + number, handles, TimeControl(10.0))
                if record.faults:
                    raise SystemExit(f"faults in a benchmark match: {record.faults}")
                count = len(record.decisions)
                yield "referee", count, record.duration
                yield "raw, as sent", count, raw.play(
                    act_rounds(game, config, record, whole=protocol == 1))
                yield "raw, whole", count, raw.play(act_rounds(game, config, record, whole=True))
        finally:
            raw.close()
            close_all(handles)


def main() -> None:
    parser = argparse.ArgumentParser(description="Referee throughput against a raw round trip.")
    parser.add_argument("--matches", type=int, default=10, help="matches per row (default 10)")
    parser.add_argument("--protocol", type=int, default=PROTOCOL_VERSION, choices=(1, 2),
                        help=f"the version the bots speak (default {PROTOCOL_VERSION})")
    parser.add_argument("--games", default="wongar,waroong", help="comma-separated games")
    parser.add_argument("--players", default="3,5", help="comma-separated player counts")
    args = parser.parse_args()
    builtin = resolve_bot("random")
    builtin = replace(builtin, command=(*builtin.command, f"--protocol={args.protocol}"))
    bots = {"trusted": builtin}
    problem = sandbox_problem()
    if problem is None:
        bots["sandboxed"] = replace(builtin, trusted=False)
    else:
        print(f"no sandboxed rows: {problem}")
    print(f"protocol {args.protocol}, {args.matches} matches per row; decisions per second")
    print(f"{'game':10}{'players':>8} {'bots':10}{'referee':>9}{'raw sent':>10}{'ratio':>7}"
          f"{'raw whole':>11}{'ratio':>7}")
    for name in args.games.split(","):
        game = get_game(name)
        for players in (int(p) for p in args.players.split(",")):
            for label, bot in bots.items():
                decisions: dict[str, float] = {}
                seconds: dict[str, float] = {}
                for run, count, spent in measure(game, players, bot, args.matches, args.protocol):
                    decisions[run] = decisions.get(run, 0) + count
                    seconds[run] = seconds.get(run, 0.0) + spent
                rate = {run: decisions[run] / seconds[run] for run in decisions}
                referee, sent, whole = rate["referee"], rate["raw, as sent"], rate["raw, whole"]
                print(f"{name:10}{players:8} {label:10}{referee:9.0f}{sent:10.0f}{referee / sent:7.2f}"
                      f"{whole:11.0f}{referee / whole:7.2f}", flush=True)


if __name__ == "__main__":
    main()
