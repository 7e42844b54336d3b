"""The organiser's settings for every match: the frame limit for bots and the clock, enforced in a real match and carried by tournament configs."""

from __future__ import annotations

from pathlib import Path

import pytest

from arena.clock import ClockRule, TimeControl
from arena.record import FaultKind
from arena.referee import FaultPolicy, run_match
from arena.tournament import TournamentError
from arena.tournament.config import TournamentConfig, config_from_plain, load_config
from engine.core import Game
from hostile_helpers import check_match, hostile
from protocols.codec import bot_limits


def test_a_lower_frame_limit_makes_a_fat_reply_malformed(wongar: Game, tmp_path: Path) -> None:
    config = wongar.configure(3)
    bots = [hostile("fat-info"), hostile("echo"), hostile("echo")]
    record = run_match(wongar, config, 4, bots, TimeControl(2.0), FaultPolicy(strikes=2),
                       limits=bot_limits(4))
    check_match(wongar, record, [0], (FaultKind.MALFORMED, FaultKind.MALFORMED))
    assert all("exceeds the limit of 4096" in f.detail for f in record.faults)
    roomy = run_match(wongar, config, 4, bots, TimeControl(2.0), limits=bot_limits(16))
    assert roomy.faults == () and roomy.detail["info_dropped"][0] > 0  # the 4 KiB cap still holds


def config_with(tmp_path: Path, extra: str) -> TournamentConfig:
    """A three-bot tournament config with the top-level lines ``extra``."""
    base = 'name = "t"\ngame = "wongar"\ntable_size = 3\ntime_control = "1s"\nseed = 1\n'
    bots = "".join(f'[[bots]]\nname = "r{i}"\nbot = "random"\n' for i in range(3))
    path = tmp_path / "t.toml"
    path.write_text(base + extra + "\n" + bots)
    return load_config(path)


def test_frame_limit_in_a_tournament_config(tmp_path: Path) -> None:
    default, small = config_with(tmp_path, ""), config_with(tmp_path, "frame_limit_kb = 8")
    assert default.frame_limit_kb == 64 and "frame_limit_kb" not in default.to_plain()
    assert small.frame_limit_kb == 8 and small.to_plain()["frame_limit_kb"] == 8
    assert small.fingerprint() != default.fingerprint()
    with pytest.raises(TournamentError, match="frame_limit_kb: must be at least 1"):
        config_with(tmp_path, "frame_limit_kb = 0")


def test_clock_in_a_tournament_config(tmp_path: Path) -> None:
    default, cpu = config_with(tmp_path, ""), config_with(tmp_path, 'clock = "cpu"\nwall_cap = 4')
    assert default.clock == ClockRule("auto") and "clock" not in default.to_plain()
    assert cpu.clock == ClockRule("cpu", 4.0)
    assert cpu.to_plain()["clock"] == "cpu" and cpu.to_plain()["wall_cap"] == 4.0
    assert config_from_plain(cpu.to_plain()).clock == cpu.clock
    for bad, why in (('clock = "sundial"', "clock: clock 'sundial' is not one of"),
                     ("wall_cap = 0.5", "wall_cap: the wall-time cap must be at least 1")):
        with pytest.raises(TournamentError, match=why):
            config_with(tmp_path, bad)
