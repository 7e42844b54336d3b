"""Tournament configs: valid files load; bad ones are rejected naming the file, key and problem."""

from __future__ import annotations

from pathlib import Path

import pytest

from arena.tournament import TournamentError
from arena.tournament.config import Format, config_from_plain, load_config

GOOD = """
name = "night"
game = "wongar"
table_size = 3
deals = 2
time_control = "2s+500ms/10s"
seed = 7

[[bots]]
name = "a"
bot = "random"
[[bots]]
name = "b"
bot = "random"
env = { ARENA_SEED = "2" }
[[bots]]
name = "c"
bot = "mine.toml"
[[bots]]
bot = "random"
"""


MANIFEST = """
name = "mine"
version = "3"
command = ["sh", "-c", "exit 0"]
"""


def write(tmp_path: Path, text: str) -> Path:
    (tmp_path / "mine.toml").write_text(MANIFEST)
    path = tmp_path / "league.toml"
    path.write_text(text)
    return path


def test_good_config_loads_with_defaults_and_resolved_manifest(tmp_path: Path) -> None:
    config = load_config(write(tmp_path, GOOD))
    assert config.format is Format.ROUND_ROBIN
    assert [b.name for b in config.bots] == ["a", "b", "c", "random"]
    assert config.bot("c").bot == str(tmp_path / "mine.toml")
    spec = config.bot("c").spec()
    assert (spec.name, spec.version, spec.command) == ("c", "3", ("sh", "-c", "exit 0"))
    assert config.bot("b").spec().env == {"ARENA_SEED": "2"}
    assert config.time_control.bank == 10 and config.time_control.move == 2
    assert config.strikes == 3 and config.concurrency == 0 and not config.trusted
    assert config.pin_cpus


def test_plain_form_round_trips(tmp_path: Path) -> None:
    config = load_config(write(tmp_path, GOOD))
    again = config_from_plain(config.to_plain())
    assert again == config
    assert again.fingerprint() == config.fingerprint()


def test_how_matches_are_run_is_not_part_of_the_fingerprint(tmp_path: Path) -> None:
    config = load_config(write(tmp_path, GOOD))
    elsewhere = load_config(write(tmp_path, GOOD), {"concurrency": 3, "pin_cpus": False})
    assert (elsewhere.concurrency, elsewhere.pin_cpus) == (3, False)
    assert elsewhere.fingerprint() == config.fingerprint()
    assert load_config(write(tmp_path, GOOD), {"seed": 8}).fingerprint() != config.fingerprint()


def test_overrides_win_and_are_validated(tmp_path: Path) -> None:
    path = write(tmp_path, GOOD)
    assert load_config(path, {"deals": 5, "trusted": True}).deals == 5
    with pytest.raises(TournamentError, match=r"league.toml: deals: must be at least 1"):
        load_config(path, {"deals": 0})
    with pytest.raises(TournamentError, match=r"league.toml: deals: must be at most 100,000, not 100,001"):
        load_config(path, {"deals": 100_001})
    with pytest.raises(TournamentError, match=r"league.toml: concurrency: must be at most 1,024, not 5,000"):
        load_config(path, {"concurrency": 5000})


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (("seed = 7", "seed = 7\ncolour = 'red'"), r"league.toml: colour: unknown key"),
        (("deals = 2", 'deals = "two"'), r"deals: expected a whole number, got str"),
        (("table_size = 3", "table_size = 5"), r"table_size: 5 is larger than the field of 4"),
        (('ARENA_SEED = "2" }', 'ARENA_SEED = "2" }\nspeed = 1'), r"bots\[1\].speed: unknown key"),
        (('bot = "mine.toml"', "bot = 3"), r"bots\[2\].bot: expected a string, got int"),
        (('bot = "mine.toml"', 'bot = "absent.toml"'), r"bots\[2\].bot: .*does not exist"),
        (('ARENA_SEED = "2"', "ARENA_SEED = 2"), r"bots\[1\].env.ARENA_SEED: expected a string"),
        (("seed = 7", "seed = 7\ntrusted = 1"), r"trusted: expected true or false, got int"),
        (("seed = 7", "seed = 7\npin_cpus = 'yes'"), r"pin_cpus: expected true or false, got str"),
        (('"2s+500ms/10s"', '"ten minutes"'), r"time_control: .*does not parse"),
        (('name = "b"', 'name = "a"'), r"bot name 'a' appears more than once"),
        (("seed = 7", "seed = 7\nformat = 'knockout'"), r"format: must be one of round-robin, gauntlet, sampled, swiss"),
        (("seed = 7", "seed = 7\ncandidates = ['a']"), r"candidates: only a gauntlet"),
        (("seed = 7", "seed = 7\nformat = 'gauntlet'\ncandidates = ['z']"), r"'z' is not one of"),
        (
            ("seed = 7", "seed = 7\nformat = 'gauntlet'\ncandidates = ['a', 'b', 'c']"),
            r"table_size: 3 needs a pool of 2 bots besides the candidate, but the pool has 1",
        ),
    ],
)
def test_bad_config_names_the_problem(tmp_path: Path, change: tuple[str, str], message: str) -> None:
    old, new = change
    assert old in GOOD
    with pytest.raises(TournamentError, match=message):
        load_config(write(tmp_path, GOOD.replace(old, new, 1)))


def test_missing_file_and_bad_toml(tmp_path: Path) -> None:
    with pytest.raises(TournamentError, match="no such config file"):
        load_config(tmp_path / "absent.toml")
    with pytest.raises(TournamentError, match="not valid TOML"):
        load_config(write(tmp_path, "name = "))
