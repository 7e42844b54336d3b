"""Games installed as plugins, through the real ``arena`` command: an entry point of ``arena.games``
registers a game that the kit can check; a broken one is skipped with one line naming its
distribution, and listed as broken."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from plugin_games import arena_command, install_kit_game, plugin_env, write_distribution


def arena(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([arena_command(), *args], capture_output=True, text=True, env=env, timeout=240)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder holding the installed kit game ``plug_card`` and five broken distributions."""
    site = tmp_path_factory.mktemp("site")
    install_kit_game(site, "plug_card")
    (site / "future_card.py").write_text(
        "from plug_card.game import TrickGame\n\n\n"
        "class FutureGame(TrickGame):\n    contract = 2\n    name = 'future_card'\n\n\nGAME = FutureGame()\n",
        encoding="utf-8")
    (site / "bare_card.py").write_text(
        "from plug_card.game import TrickGame\n\n\n"
        "class BareGame(TrickGame):\n    name = 'bare_card'\n    variants = ()\n\n\nGAME = BareGame()\n",
        encoding="utf-8")
    write_distribution(site, "bare-card", {"bare_card": "bare_card:GAME"})
    write_distribution(site, "broken-import", {"gone": "no_such_module_anywhere:GAME"})
    write_distribution(site, "not-a-game", {"dumps": "json:dumps"})
    write_distribution(site, "future-card", {"future_card": "future_card:GAME"})
    write_distribution(site, "second-wongar", {"wongar": "engine.wongar:GAME"})
    return site


def env_of(site: Path) -> dict[str, str]:
    return plugin_env(site, site / "plug_card")


def test_an_installed_game_is_registered_beside_the_built_in_ones(site: Path) -> None:
    done = arena(env_of(site), "games", "--json")
    assert done.returncode == 0, done.stderr
    listing = json.loads(done.stdout)
    games = {entry["key"]: entry for entry in listing if "key" in entry}
    assert {"wongar@2", "waroong@2", "plug_card@1"} <= set(games)
    assert games["wongar@2"]["origin"] == "built-in"
    assert games["plug_card@1"]["origin"] == "distribution arena-game-plug-card 0.1.0 (entry point plug_card = plug_card:GAME)"
    assert "future_card@1" not in games


def test_each_broken_plugin_is_one_warning_line_and_listed_as_broken(site: Path) -> None:
    done = arena(env_of(site), "games", "--json")
    assert done.returncode == 0, done.stderr
    broken = {entry["broken"].split()[1]: entry["reason"] for entry in json.loads(done.stdout) if "broken" in entry}
    assert broken == {
        "bare-card": "its variants are not a non-empty tuple of engine.core.Variant",
        "broken-import": "cannot be imported: ModuleNotFoundError: No module named 'no_such_module_anywhere'",
        "not-a-game": "loads to a function, not an engine.core.Game instance",
        "future-card": "game future_card declares engine contract 2; this Arena supports 1",
        "second-wongar": "its key wongar@2 is already registered by built-in",
    }
    warnings = [line for line in done.stderr.splitlines() if "skipped the installed game" in line]
    assert len(warnings) == 5 and len(done.stderr.splitlines()) == 5, done.stderr
    for name, reason in broken.items():
        assert any(f"distribution {name} 0.1.0" in line and line.endswith(reason) for line in warnings)
    table = arena(env_of(site), "games")
    assert table.returncode == 0 and table.stdout.count("│ broken ") == 5, table.stdout


def test_a_game_that_cannot_load_is_unknown_to_every_command(site: Path) -> None:
    done = arena(env_of(site), "games", "show", "future_card")
    assert done.returncode == 2
    assert "error: unknown game 'future_card'" in done.stderr
    assert "(5 installed games could not be loaded: arena games lists why)" in done.stderr


def test_the_kit_game_passes_the_check_and_a_stale_playthrough_fails_it(site: Path) -> None:
    env = env_of(site)
    checked = arena(env, "game", "check", "plug_card", "--seeds", "1")
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert checked.stdout.count("passed") == 10 and "random playouts/s" in checked.stdout
    saved = arena(env, "game", "playthrough", "plug_card", "--seed", "4", "--players", "3", "--variant", "low", "--save")
    assert saved.returncode == 0, saved.stderr
    stored = site / "plug_card" / "plug_card" / "playthroughs" / "low-3p-seed4.txt"
    assert arena(env, "game", "check", "plug_card", "--seeds", "1").returncode == 0
    text = stored.read_text(encoding="utf-8")
    stored.write_text(text.replace("  chosen: ", "  chosen: 99 ", 1), encoding="utf-8")
    try:
        stale = arena(env, "game", "check", "plug_card", "--seeds", "1")
    finally:
        stored.unlink()
    assert stale.returncode == 1
    assert "1 of 1 differ" in stale.stdout and "FAIL stored playthrough low-3p-seed4.txt:" in stale.stdout
    assert "-  chosen: 99 " in stale.stdout and "+  chosen: " in stale.stdout


def test_a_game_that_leaks_a_hand_fails_the_check(tmp_path: Path, site: Path) -> None:
    (tmp_path / "leaky_card.py").write_text(
        "from engine.core import Event\n"
        "from plug_card.game import TrickGame\n\n\n"
        "class LeakyGame(TrickGame):\n    name = 'leaky_card'\n\n"
        "    def _new_state(self, config, seed):\n"
        "        state = super()._new_state(config, seed)\n"
        "        state.log = [Event(None, event.data) for event in state.log]  # every deal told to all\n"
        "        return state\n\n\n"
        "GAME = LeakyGame()\n", encoding="utf-8")
    write_distribution(tmp_path, "leaky-card", {"leaky_card": "leaky_card:GAME"})
    done = arena(plugin_env(tmp_path, site / "plug_card"), "game", "check", "leaky_card", "--seeds", "1")
    assert done.returncode == 1
    failed = [line for line in done.stdout.splitlines() if line.startswith("FAIL ")]
    assert failed and all(line.startswith("FAIL hidden information [leaky_card@1-") for line in failed), done.stdout
    assert "events reveal what determinize resamples" in done.stdout


def test_a_game_that_crashes_is_reported_in_one_line_not_a_traceback(tmp_path: Path, site: Path) -> None:
    (tmp_path / "crash_card.py").write_text(
        "from plug_card.game import TrickGame, TrickState\n\n\n"
        "class CrashState(TrickState):\n"
        "    def apply(self, seat, action):\n"
        "        if len(self.plays) == 2:\n"
        "            raise KeyError('no such card')\n"
        "        super().apply(seat, action)\n\n\n"
        "class CrashGame(TrickGame):\n    name = 'crash_card'\n\n"
        "    def _new_state(self, config, seed):\n"
        "        state = super()._new_state(config, seed)\n"
        "        state.__class__ = CrashState\n"
        "        return state\n\n\n"
        "GAME = CrashGame()\n", encoding="utf-8")
    write_distribution(tmp_path, "crash-card", {"crash_card": "crash_card:GAME"})
    stored = tmp_path / "playthroughs"
    stored.mkdir()
    (stored / "low-3p-seed4.txt").write_text(
        "# arena playthrough crash_card@1 variant=low players=3 seed=4 knobs={}\n", encoding="utf-8")
    env = plugin_env(tmp_path, site / "plug_card")
    checked = arena(env, "game", "check", "crash_card", "--seeds", "1")
    assert checked.returncode == 1 and "Traceback" not in checked.stderr, checked.stderr
    assert "FAIL stored playthrough low-3p-seed4.txt:" in checked.stdout, checked.stdout
    assert "cannot be replayed: the game raised KeyError: 'no such card' (at " in checked.stdout
    written = arena(env, "game", "playthrough", "crash_card")
    assert written.returncode == 1 and "Traceback" not in written.stderr, written.stderr
    assert written.stderr.startswith("error: crash_card@1: the game raised KeyError: 'no such card' (at ")
    # A match the game cannot go on with stops in one line too (the game's fault, status 1).
    played = arena(env, "play", "crash_card", "-b", "random", "-b", "random", "-b", "random")
    assert played.returncode == 1 and "Traceback" not in played.stderr, played.stderr
    assert "error: crash_card@1: the game raised KeyError: 'no such card' (at " in played.stderr
    assert "crash_card.py:7)" in played.stderr


def test_an_installed_game_names_its_package_as_its_reference(site: Path) -> None:
    done = arena(env_of(site), "games", "show", "plug_card", "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["reference"] == (
        "the documentation of its package (distribution arena-game-plug-card 0.1.0 (entry point plug_card = plug_card:GAME))")
