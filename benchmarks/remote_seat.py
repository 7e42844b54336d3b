"""Remote seats: what tcp with CURVE on the loopback adds to a decision, against a local ipc seat.

One hub listens on ``tcp://127.0.0.1`` (CURVE) beside its private ipc endpoints. Seat 0 is played
alternately, match by match, by two instances of the built-in ``random`` bot (written with the
SDK): one started by the referee and connected over ipc, one started as a remote entrant would be
and connected over tcp with CURVE. The other seats are local ``random`` bots. Each decision's time
is what the referee records (``act`` sent → ``action`` received); interleaving puts load from
elsewhere on both alike. The figures show the transport's cost only: a real remote entrant adds
its network's round trip.

Usage: python benchmarks/remote_seat.py [GAME] [--matches N]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from arena.clock import TimeControl
from arena.handle import BotHandle, close_all
from arena.manifest import resolve_bot
from arena.referee import play_match
from arena.remote.keys import new_keys
from arena.remote.seats import remote_spec
from engine.registry import games, get_game
from protocols.transport import Hub


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", nargs="?", default=next(iter(games())))
    parser.add_argument("--matches", type=int, default=20)
    args = parser.parse_args()
    game = get_game(args.game)
    config = game.configure(game.min_players)
    control = TimeControl.parse("5s")
    keys = new_keys()
    times: dict[str, list[float]] = {"ipc": [], "tcp+CURVE": []}
    with tempfile.TemporaryDirectory() as logs, Hub(curve=keys, listen="tcp://127.0.0.1:*") as hub:
        others = BotHandle.launch_all([resolve_bot("random")] * (config.players - 1), hub, Path(logs))
        local = BotHandle.launch(resolve_bot("random"), hub, Path(logs))
        remote = BotHandle.remote(remote_spec("remote-random"), hub)
        env = {**os.environ, "ARENA_ENDPOINT": hub.listening or "", "ARENA_TOKEN": remote.peer.token,
               "ARENA_SERVER_KEY": keys.public.decode()}
        process = subprocess.Popen([sys.executable, "-m", "bots.random"], env=env)
        try:
            if hub.wait_connected([remote.peer], 10):
                raise SystemExit("the remote bot did not connect")
            for match in range(2 * args.matches):
                label, seat = (("ipc", local), ("tcp+CURVE", remote))[match % 2]
                record = play_match(game, config, match // 2, [seat, *others], control)
                times[label] += [d.elapsed for d in record.decisions if d.seat == 0 and not d.fallback]
        finally:
            close_all([*others, local, remote])
            process.wait(5)
    print(f"{args.game}, {args.matches} matches per transport, seat 0's decisions (ms):")
    medians = {}
    for label, found in times.items():
        found.sort()
        medians[label] = statistics.median(found)
        p95 = found[int(0.95 * (len(found) - 1))]
        print(f"  {label:10} n={len(found):5}  median {medians[label] * 1000:.3f}  p95 {p95 * 1000:.3f}")
    print(f"  ratio of medians tcp+CURVE / ipc: {medians['tcp+CURVE'] / medians['ipc']:.2f}")


if __name__ == "__main__":
    main()
