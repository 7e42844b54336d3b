"""Attacks through the protocol alone (what a remote bot could do too): learning the deal from
what the referee sends, and flooding the referee with junk so that honest rivals time out."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

from deal_cracker import candidates, cracks
from random_bots import connected_random_bots

from arena.clock import TimeControl
from arena.handle import BotHandle, close_all
from arena.manifest import BotSpec
from arena.record import MatchRecord
from arena.referee import FaultPolicy, play_match
from engine.core import Game
from hostile_helpers import check_match
from protocols.transport import Hub

HERE = Path(__file__).parent
# Trusted, so unsandboxed: the protocol layer must hold by itself (THREATS.md, "Layers").
CRACKER = BotSpec("cracker", (sys.executable, str(HERE / "deal_cracker.py")), trusted=True)
FLOODER = BotSpec("flooder", (sys.executable, str(HERE / "flood_bot.py"), "seat"), trusted=True)
# Generous, so that only the flood (never a busy test machine) could make an honest reply late.
CONTROL = TimeControl(1.0, grace=0.5)


def test_the_cracker_finds_a_deal_from_its_seed(wongar: Game) -> None:
    config = wongar.configure(3)
    state = wongar.start(config, 123456789)
    start = {"game": "wongar", "version": config.version, "variant": config.variant,
             "knobs": dict(config.knobs), "players": 3, "seat": 1, "match": "wongar-123456789"}
    assert 123456789 in candidates(start, {"seq": 1})
    assert cracks(start, state.observation(1), 123456789)
    assert not cracks(start, state.observation(1), 123456788)


def test_nothing_sent_to_a_bot_identifies_the_deal(
    wongar: Game, hub: Hub, honest: list[BotHandle], tmp_path: Path
) -> None:
    cracker = BotHandle.launch(CRACKER, hub, tmp_path)
    config = wongar.configure(3)
    records: list[MatchRecord] = []
    try:
        # Large seeds, as drawn by default (a small one could equal a seat number or a seq).
        for seed in (2**40 + 5, 2**63 + 11, 918273645546372819, 2**40 + 5):
            records.append(play_match(wongar, config, seed, [cracker, *honest], CONTROL))
    finally:
        cracker.close()
    for record in records:
        assert record.faults == ()
        verdicts = [d.info for d in record.decisions if d.seat == 0]
        assert verdicts and all(v == verdicts[0] for v in verdicts)
        assert verdicts[0] is not None and verdicts[0]["cracked"] is False
        assert isinstance(verdicts[0]["tried"], int) and verdicts[0]["tried"] >= 3
    match_ids = [r.detail["match"] for r in records]
    assert len(set(match_ids)) == len(records)
    assert not any(str(r.seed) in str(r.detail["match"]) for r in records)


def test_junk_from_a_seat_and_from_strangers_costs_honest_seats_nothing(
    wongar: Game, hub: Hub, honest: list[BotHandle], tmp_path: Path
) -> None:
    flooder = BotHandle.launch(FLOODER, hub, tmp_path)
    refused = hub.refused
    try:
        records = [play_match(wongar, wongar.configure(3), seed, [flooder, *honest], CONTROL,
                              FaultPolicy(strikes=1000)) for seed in (5, 6, 7)]
    finally:
        flooder.close(grace=0.2)
    for record in records:
        assert not [f for f in record.faults if f.seat != 0], record.faults
        assert all(not d.fallback for d in record.decisions if d.seat != 0)
        dropped = record.detail["dropped"]
        assert isinstance(dropped, list) and dropped[0] > 0 and dropped[1:] == [0, 0]
    assert hub.refused > refused and sum(int(r.detail["refused"]) for r in records) > 0


def test_a_stranger_flooding_a_match_socket_costs_its_seats_nothing(
    wongar: Game, tmp_path: Path
) -> None:
    with Hub() as hub, connected_random_bots(hub, 3, tmp_path) as seats:
        stranger = subprocess.Popen(
            [sys.executable, str(HERE / "flood_bot.py"), "stranger", hub.endpoint, "60"],
            stdout=subprocess.PIPE, text=True,
        )
        try:
            assert stranger.stdout is not None and stranger.stdout.readline() == "flooding\n"
            time.sleep(0.2)  # under way
            records = [play_match(wongar, wongar.configure(3), seed, seats, CONTROL)
                       for seed in (7, 8)]
        finally:
            stranger.kill()
            stranger.wait()
    for record in records:
        check_match(wongar, record, [], ())
    assert sum(int(r.detail["refused"]) for r in records) > 0
