"""Referee overhead: per-decision round trip in a full match, against a raw ROUTER/DEALER ping-pong.

Both are measured in this one run, on the same machine, with the same message sizes:

* referee: ``run_match`` between instant built-in bots (``random``), each decision's time as the
  referee records it (``act`` sent → ``action`` received and decoded);
* raw: a bare ROUTER socket and one bare DEALER echo process per seat exchanging msgpack maps built
  live from the very observations, legal lists and events of the replayed match (packb/unpackb
  only), with the same engine work between messages, so bots idle as long as in the match.

The two alternate, match by match, so that load from elsewhere on the machine falls on both.

Usage: python benchmarks/referee_overhead.py [GAME] [--rounds N]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import msgpack
import zmq

from arena.clock import TimeControl
from arena.manifest import resolve_bot
from arena.referee import run_match
from engine.core import Game, MatchConfig
from engine.registry import games, get_game

ECHO = """
import sys, msgpack, zmq
context = zmq.Context()
socket = context.socket(zmq.DEALER)
socket.setsockopt(zmq.LINGER, 0)
socket.connect(sys.argv[1])
socket.send(b"ready")
while True:
    message = msgpack.unpackb(socket.recv())
    if message is None:
        break
    socket.send(msgpack.packb({"type": "action", "seq": message["seq"], "action": message["legal"][0],
                               "seat": message["seat"]}))
"""


def raw_ping_pong(game: Game, config: MatchConfig, seed: int, decisions: list[tuple[int, int]]) -> list[float]:
    """Round-trip seconds of each decision of a played match, replayed through a bare ROUTER and one
    DEALER echo process per seat.

    Between messages the loop does the same engine work as the referee (observation, legal actions,
    events, apply), so the bots idle for as long as in the real match; only the protocol layer
    (typed messages, validation, limits, time control, fault handling) is missing.
    """
    folder = tempfile.mkdtemp(prefix="arena-bench-")
    endpoint = f"ipc://{os.path.join(folder, 'raw.sock')}"
    context = zmq.Context()
    router = context.socket(zmq.ROUTER)
    router.setsockopt(zmq.LINGER, 0)
    router.bind(endpoint)
    echoes = [subprocess.Popen([sys.executable, "-c", ECHO, endpoint]) for _ in range(config.players)]
    times: list[float] = []
    try:
        identities = [router.recv_multipart()[0] for _ in echoes]
        state = game.start(config, seed)
        since = [0] * config.players
        for ply, (seat, action) in enumerate(decisions):
            legal = state.legal_actions(seat)
            events, since[seat] = state.events(seat, since[seat])
            payload = {
                "type": "act", "seq": ply, "seat": seat, "ply": ply,
                "observation": state.observation(seat), "legal": legal, "events": list(events),
                "clock": {"move_ms": 1000, "bank_ms": 0, "increment_ms": 0},
            }
            router.send_multipart([identities[seat], msgpack.packb(payload)])
            sent = time.monotonic()
            router.poll(5000)
            _, reply = router.recv_multipart()
            msgpack.unpackb(reply)
            times.append(time.monotonic() - sent)
            state.apply(seat, action)
        for identity in identities:
            router.send_multipart([identity, msgpack.packb(None)])
        for echo in echoes:
            echo.wait(5)
    finally:
        for echo in echoes:
            echo.kill()
            echo.wait()
        router.close()
        context.term()
        shutil.rmtree(folder, ignore_errors=True)
    return times


def percentile(values: list[float], q: int) -> float:
    return statistics.quantiles(values, n=100, method="inclusive")[q - 1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", nargs="?", default=None)
    parser.add_argument("--rounds", type=int, default=8, help="alternating rounds of each (default 8)")
    args = parser.parse_args()
    key = args.game or ("wongar" if any(g.name == "wongar" for g in games().values()) else next(iter(games())))
    game = get_game(key)
    config = game.configure(game.min_players)
    bots = [resolve_bot("random")] * config.players
    referee: list[float] = []
    raw: list[float] = []
    for round_number in range(args.rounds):
        seed = 1000 + round_number
        record = run_match(game, config, seed, bots, TimeControl(1.0))
        assert not record.faults, record.faults
        referee.extend(d.elapsed for d in record.decisions)
        raw.extend(raw_ping_pong(game, config, seed, [(d.seat, d.action) for d in record.decisions]))
    print(f"game {game.key}, {config.players} seats, {args.rounds} rounds, {len(referee)} decisions each way")
    print(f"{'':10}{'p50 µs':>10}{'p99 µs':>10}")
    for name, values in (("raw", raw), ("referee", referee)):
        print(f"{name:10}{percentile(values, 50) * 1e6:10.1f}{percentile(values, 99) * 1e6:10.1f}")
    for q in (50, 99):
        print(f"ratio referee/raw at p{q}: {percentile(referee, q) / percentile(raw, q):.2f}")


if __name__ == "__main__":
    main()
