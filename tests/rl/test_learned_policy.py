"""The learned-policy bot's parts, in process: policy files (round trip, every refusal), the setup
check, the masked softmax, never an illegal action, and a deterministic training run.

``fixtures/liars_dice-3p.npz`` is what ``python examples/rl/train.py --out FILE`` writes (Liar's
Dice, 3 players, seed 1, 6,000 games against random)."""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest
from numpy.typing import NDArray
from hypothesis import given, settings
from hypothesis import strategies as st

from bots.learned.__main__ import main as learned_main
from bots.learned.network import (
    Network,
    PolicyFileError,
    PolicyMismatch,
    Setup,
    load_network,
    masked_softmax,
    save_network,
)
from arena_bot.sdk import BotExit, Clock
from bots.learned.play import VectorPolicy, draw, softmax_policy, vector_bot
from bots.shared.match import Match
from engine.registry import get_game

ROOT = Path(__file__).parents[2]
FIXTURE = Path(__file__).parent / "fixtures" / "liars_dice-3p.npz"
GAME = get_game("liars_dice")
CONFIG = GAME.configure(3, "standard", None)
TRAINED = load_network(FIXTURE)


def tiny(setup: Setup, sizes: tuple[int, ...], seed: int = 0) -> Network:
    rng = np.random.default_rng(seed)
    weights = tuple(rng.normal(0, 1, (n, m)) for n, m in zip(sizes, sizes[1:], strict=False))
    return Network(setup, weights, tuple(rng.normal(0, 1, m) for m in sizes[1:]))


def write_npz(path: Path, **entries: object) -> Path:
    with path.open("wb") as out:
        np.savez(out, **entries)  # type: ignore[arg-type]
    return path


def fixture_entries() -> dict[str, object]:
    with np.load(FIXTURE) as data:
        return {name: data[name] for name in data.files}


def test_the_fixture_is_a_policy_for_three_player_liars_dice() -> None:
    network = load_network(FIXTURE)
    assert network.setup == Setup("liars_dice", 1, "standard", 3, '{"dice": 5}')
    assert (network.inputs, network.actions) == (24, 91)  # the encoder's 18 + 2P, the action table
    assert [w.shape for w in network.weights] == [(24, 32), (32, 91)]
    network.check(GAME, CONFIG)


def test_a_saved_network_loads_as_the_same_network_in_float32(tmp_path: Path) -> None:
    network = tiny(Setup.of(CONFIG), (24, 5, 91))
    save_network(tmp_path / "p.npz", network)
    loaded = load_network(tmp_path / "p.npz")
    assert loaded.setup == network.setup
    for ours, theirs in zip((*network.weights, *network.biases), (*loaded.weights, *loaded.biases), strict=True):
        assert np.array_equal(theirs, ours.astype(np.float32))


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"format": np.array("arena-policy/9")}, "format 'arena-policy/9', expected 'arena-policy/1'"),
        ({"game": None}, "no 'game' entry"),
        ({"bias_1": None}, "no 'bias_1' entry"),
        ({"weight_1": np.zeros((31, 91), np.float32)}, "layer 1 takes 31 inputs, layer 0 gives 32"),
        ({"bias_0": np.zeros(7, np.float32)}, "layer 0: weight (24, 32) and bias (7,) do not fit"),
        ({"weight_0": np.zeros((24, 32), np.int32)}, "layer 0 is not floating point"),
        ({"bias_0": np.full(32, np.nan, np.float32)}, "layer 0 holds a value that is not finite"),
        ({"players": np.array("three")}, "bad setup entry"),
    ],
)
def test_a_broken_policy_file_is_refused_naming_the_file_and_the_fault(tmp_path: Path, change: dict[str, object], message: str) -> None:
    entries = {k: v for k, v in {**fixture_entries(), **change}.items() if v is not None}
    path = write_npz(tmp_path / "broken.npz", **entries)
    with pytest.raises(PolicyFileError) as caught:
        load_network(path)
    assert str(caught.value).startswith(f"policy file {path}: ")
    assert message in str(caught.value) and "\n" not in str(caught.value)


def test_a_missing_file_and_a_file_that_is_no_npz_are_refused(tmp_path: Path) -> None:
    with pytest.raises(PolicyFileError, match=r"policy file .*nothing\.npz does not exist"):
        load_network(tmp_path / "nothing.npz")
    (tmp_path / "text.npz").write_text("weights\n")
    with pytest.raises(PolicyFileError, match=r"text\.npz is not a numpy \.npz file \(not a zip archive\)"):
        load_network(tmp_path / "text.npz")


@pytest.mark.parametrize(
    ("players", "variant", "knobs", "wanted"),
    [
        (2, "standard", None, "not liars_dice@1 standard, 2 players"),
        (3, "wild-ones", None, "not liars_dice@1 wild-ones, 3 players"),
        (3, "standard", {"dice": 4}, 'knobs {"dice": 4}'),
    ],
)
def test_a_policy_checked_against_another_setup_names_both(players: int, variant: str, knobs: dict[str, object] | None, wanted: str) -> None:
    network = load_network(FIXTURE)
    with pytest.raises(PolicyMismatch) as caught:
        network.check(GAME, GAME.configure(players, variant, knobs))
    assert "the policy was trained for liars_dice@1 standard, 3 players" in str(caught.value)
    assert wanted in str(caught.value)


def test_a_policy_of_the_right_setup_but_the_wrong_sizes_is_refused() -> None:
    with pytest.raises(PolicyMismatch, match="reads 20 inputs and scores 91 actions; .* has 24 and 91"):
        tiny(Setup.of(CONFIG), (20, 91)).check(GAME, CONFIG)


def test_the_bot_exits_with_status_2_and_one_line_for_a_bad_policy_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert learned_main(["--policy", str(tmp_path / "none.npz")]) == 2
    err = capsys.readouterr().err
    assert err == f"learned: policy file {tmp_path / 'none.npz'} does not exist\n"


def test_the_masked_softmax_is_zero_off_the_mask_and_sums_to_one() -> None:
    scores = np.array([[5.0, 1.0, 900.0, -3.0], [0.0, 0.0, 0.0, 0.0]])
    mask = np.array([[1, 1, 0, 1], [0, 1, 0, 1]], np.int8)
    p = masked_softmax(scores, mask)
    assert np.allclose(p.sum(axis=1), 1.0)
    assert p[0, 2] == 0.0 and p[1, 0] == 0.0 and p[1, 2] == 0.0
    assert np.allclose(p[1], [0, 0.5, 0, 0.5])
    assert np.allclose(p[0, [0, 1, 3]], np.exp([5.0, 1.0, -3.0]) / np.exp([5.0, 1.0, -3.0]).sum())
    with pytest.raises(ValueError, match="no legal action"):
        masked_softmax(scores, np.array([[0, 0, 0, 0], [1, 0, 0, 0]], np.int8))


@settings(max_examples=60, deadline=None)
@given(
    legal=st.sets(st.integers(0, 90), min_size=1, max_size=91),
    seed=st.integers(0, 2**32 - 1),
    best=st.booleans(),
)
def test_the_policy_never_picks_an_illegal_action_even_when_it_scores_them_highest(legal: set[int], seed: int, best: bool) -> None:
    network = TRAINED
    mask = np.zeros(91, np.int8)
    mask[sorted(legal)] = 1
    # Make every illegal action the network's overwhelming favourite.
    biases = (*network.biases[:-1], network.biases[-1] + 1e4 * (1 - mask))
    tilted = Network(network.setup, network.weights, biases)
    vector = np.random.default_rng(seed).normal(0, 3, 24).astype(np.float32)
    decide = softmax_policy(tilted, random.Random(seed), best=best)
    assert all(decide(vector, mask) in legal for _ in range(5))


def test_the_trained_policy_picks_legal_actions_in_every_seat_of_seeded_games() -> None:
    network = load_network(FIXTURE)
    encoder, actions = GAME.encoder(CONFIG), len(GAME.action_table(CONFIG))
    decisions = 0
    for seed in range(12):
        state = GAME.start(CONFIG, seed)
        policies = [softmax_policy(network, random.Random(seed * 3 + s), best=seed % 2 == 0) for s in range(3)]
        while not state.is_over():
            seat = state.to_move()[0]
            legal = state.legal_actions(seat)
            mask = np.zeros(actions, np.int8)
            mask[list(legal)] = 1
            action = policies[seat](np.asarray(encoder.encode(state.observation(seat)), np.float32), mask)
            assert action in legal
            state.apply(seat, action)
            decisions += 1
    assert decisions > 200


def test_the_bot_answers_from_the_encoded_observation_and_refuses_a_policy_answering_illegally() -> None:
    state = GAME.start(CONFIG, 7)
    seat = state.to_move()[0]
    seen: list[tuple[list[float], list[int]]] = []

    def lowest_legal(match: Match) -> VectorPolicy:
        def decide(vector: NDArray[np.float32], mask: NDArray[np.int8]) -> int:
            seen.append((vector.tolist(), mask.tolist()))
            return int(np.flatnonzero(mask)[0])
        return decide

    match = Match(GAME, CONFIG, seat, random.Random(1))
    choose = vector_bot(lowest_legal)(match)
    legal = tuple(state.legal_actions(seat))
    assert choose(state.observation(seat), legal, Clock(1.0, 0.0, 0.0)) == legal[0]
    ((vector, mask),) = seen
    assert vector == pytest.approx(GAME.encoder(CONFIG).encode(state.observation(seat)))
    assert [i for i, m in enumerate(mask) if m] == list(legal) and len(mask) == 91
    illegal = next(a for a in range(91) if a not in legal)
    refusing = vector_bot(lambda match: lambda vector, mask: illegal)(match)
    with pytest.raises(BotExit, match=f"^the policy chose action {illegal}, which is not legal now$"):
        refusing(state.observation(seat), legal, Clock(1.0, 0.0, 0.0))


def test_a_draw_never_lands_on_a_probability_of_zero() -> None:
    rng = random.Random(4)
    probabilities = np.array([0.0, 0.25, 0.0, 0.0, 0.75, 0.0])
    drawn = [draw(probabilities, rng) for _ in range(2000)]
    assert set(drawn) == {1, 4}
    assert 0.2 < drawn.count(1) / len(drawn) < 0.3


def trainer() -> ModuleType:
    """``examples/rl/train.py`` as a module."""
    spec = importlib.util.spec_from_file_location("rl_train_example", ROOT / "examples" / "rl" / "train.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


def test_training_from_a_seed_writes_the_same_policy_file_twice(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    train = trainer()
    options = ["--episodes", "12", "--batch", "4", "--hidden", "6", "--evaluate", "0", "--seed", "5"]
    for name in ("a.npz", "b.npz"):
        assert train.main([*options, "--out", str(tmp_path / name)]) == 0
    assert (tmp_path / "a.npz").read_bytes() == (tmp_path / "b.npz").read_bytes()
    assert train.main([*options[:-1], "6", "--out", str(tmp_path / "c.npz")]) == 0
    assert (tmp_path / "c.npz").read_bytes() != (tmp_path / "a.npz").read_bytes()
    trained = load_network(tmp_path / "a.npz")
    trained.check(GAME, CONFIG)
    assert [w.shape for w in trained.weights] == [(24, 6), (6, 91)]
    assert "wrote" in capsys.readouterr().out


def test_the_saved_network_reads_raw_vectors_as_training_read_standardised_ones() -> None:
    train = trainer()
    learner = train.Learner(GAME, CONFIG, 8, 0.01, np.random.default_rng(3))
    raw = np.random.default_rng(4).normal(2, 3, (5, 24))
    training = Network(learner.setup, tuple(learner.weights), tuple(learner.biases))
    standardised = (raw - learner.shift) * learner.scale
    assert np.allclose(learner.network().layer_outputs(raw)[-1], training.layer_outputs(standardised)[-1])
    assert not np.allclose(learner.scale, 1.0)  # the fold is not trivially the identity
