"""``arena game check``'s checks fail a game that breaks the contract, each in its own check: the
kit's game with one fault put in at a time."""

from __future__ import annotations

import importlib
import random
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from plugin_games import imported_kit_game

from arena.gamekit.checks import run_checks


@pytest.fixture(scope="module")
def kit(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleType]:
    """The kit game's module, scaffolded as ``unit_card`` and imported."""
    with imported_kit_game("unit_card", tmp_path_factory.mktemp("kit")) as module:
        yield module


def failed_checks(game: Any) -> set[str]:
    return {failure.check for failure in run_checks(game, (1, 2)).failures}


def test_the_kit_game_passes(kit: ModuleType) -> None:
    report = run_checks(kit.GAME, (1, 2))
    assert report.failures == []
    assert report.setups == 6 and report.playouts_per_second > 0 and report.sizes.observation > 0


def test_a_deal_that_ignores_the_seed_fails_every_check_that_replays(kit: ModuleType) -> None:
    class Unseeded(kit.TrickGame):  # type: ignore[name-defined, misc]
        def _new_state(self, config: Any, seed: int) -> Any:
            return super()._new_state(config, random.randrange(1 << 30))

    assert failed_checks(Unseeded()) == {"determinism", "replay", "clone independence"}  # clones are made by replay


def test_a_clone_that_shares_the_hands_fails_clone_independence(kit: ModuleType) -> None:
    class SharingState(kit.TrickState):  # type: ignore[name-defined, misc]
        def clone(self) -> Any:
            copy = super().clone()
            copy.hands = self.hands
            return copy

    class Sharing(kit.TrickGame):  # type: ignore[name-defined, misc]
        def _new_state(self, config: Any, seed: int) -> Any:
            state = super()._new_state(config, seed)
            state.__class__ = SharingState
            return state

    assert "clone independence" in failed_checks(Sharing())


def test_descending_legal_actions_fail_the_playouts(kit: ModuleType) -> None:
    class Descending(kit.TrickState):  # type: ignore[name-defined, misc]
        def legal_actions(self, seat: int) -> list[int]:
            return list(reversed(super().legal_actions(seat)))

    class Backwards(kit.TrickGame):  # type: ignore[name-defined, misc]
        def _new_state(self, config: Any, seed: int) -> Any:
            state = super()._new_state(config, seed)
            state.__class__ = Descending
            return state

    report = run_checks(Backwards(), (1,))
    playouts = [f for f in report.failures if f.check == "random playouts"]
    assert len(playouts) == 6 and all("not ascending" in f.detail for f in playouts)


def test_an_observation_too_big_to_send_fails_the_playouts(kit: ModuleType) -> None:
    class Padded(kit.TrickState):  # type: ignore[name-defined, misc]
        def observation(self, seat: int) -> Any:
            return {**super().observation(seat), "padding": "x" * (70 << 10)}

    class Big(kit.TrickGame):  # type: ignore[name-defined, misc]
        def _new_state(self, config: Any, seed: int) -> Any:
            state = super()._new_state(config, seed)
            state.__class__ = Padded
            return state

    report = run_checks(Big(), (1,))
    assert any(f.check == "random playouts" and "observation is 71" in f.detail for f in report.failures)


def test_a_deal_that_depends_on_the_hash_seed_fails_only_across_processes(kit: ModuleType) -> None:
    package = Path(kit.__file__).parent
    (package / "hashed.py").write_text(
        "from unit_card.game import TrickGame\n\n\n"
        "class HashedDeal(TrickGame):\n"
        "    def _new_state(self, config, seed):\n"
        "        return super()._new_state(config, seed + hash('deal') % 100_003)\n",
        encoding="utf-8")
    hashed = importlib.import_module("unit_card.hashed").HashedDeal()
    report = run_checks(hashed, (1, 2))
    assert {f.check for f in report.failures} == {"determinism across processes"}
    assert all("PYTHONHASHSEED" in f.detail for f in report.failures)


def test_another_seats_observation_need_not_be_refused_when_it_does_not_say_whose_it_is(kit: ModuleType) -> None:
    def named(config: Any, seat: int, seen: Any, rng: random.Random) -> Any:
        state = kit.sample(config, kit.GAME.action_table(config), seat, {**seen, "seat": seat}, rng)
        state.__class__ = Unnamed
        return state

    class Unnamed(kit.TrickState):  # type: ignore[name-defined, misc]
        def observation(self, seat: int) -> Any:
            return {key: value for key, value in super().observation(seat).items() if key != "seat"}

        def determinize(self, seat: int, rng: random.Random) -> Any:
            return named(self.config, seat, self.observation(seat), rng)

    class UnnamedGame(kit.TrickGame):  # type: ignore[name-defined, misc]
        def _new_state(self, config: Any, seed: int) -> Any:
            state = super()._new_state(config, seed)
            state.__class__ = Unnamed
            return state

        def sample_state(self, config: Any, seat: int, observation: Any, rng: random.Random) -> Any:
            return named(config, seat, observation, rng)

    assert "hidden information" not in failed_checks(UnnamedGame())
