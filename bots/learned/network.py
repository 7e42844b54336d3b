"""A learned policy as a file: a small numpy network scoring every action of a game's action table.

The network reads the vector of a seat's observation (the game's encoder, :mod:`engine.encoding`)
and gives one score (logit) per action id: ``tanh`` hidden layers, none for a linear policy, and a
linear last layer. :func:`masked_softmax` turns the scores of the legal actions into
probabilities; illegal actions get probability 0.

A policy file is a numpy ``.npz`` (no pickled objects) holding ``format`` (:data:`FORMAT`), the
setup it was trained for (``game``, ``version``, ``variant``, ``players``, ``knobs`` as JSON) and
the layers ``weight_0``, ``bias_0``, ``weight_1``, ... (``weight_i`` of shape ``(inputs,
outputs)``). :func:`load_network` checks the file; :meth:`Network.check` checks it against a match.
"""

from __future__ import annotations

import json
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from engine.core import Game, MatchConfig

#: The ``format`` entry of a policy file this module reads and writes.
FORMAT = "arena-policy/1"

Array = NDArray[np.floating[Any]]


class PolicyFileError(ValueError):
    """A policy file that cannot be read or used; the message is one line naming the file."""


class PolicyMismatch(PolicyFileError):
    """A policy file made for another setup (game, version, variant, players, knobs, sizes)."""


@dataclass(frozen=True, slots=True)
class Setup:
    """The game configuration a policy was trained for; ``knobs`` is canonical JSON (sorted keys)."""

    game: str
    version: int
    variant: str
    players: int
    knobs: str

    @classmethod
    def of(cls, config: MatchConfig) -> Setup:
        """The setup of ``config``."""
        return cls(config.game, config.version, config.variant, config.players,
                   json.dumps(dict(config.knobs), sort_keys=True))

    def describe(self) -> str:
        """``liars_dice@1 standard, 3 players, knobs {"dice": 5}``."""
        return f"{self.game}@{self.version} {self.variant}, {self.players} players, knobs {self.knobs}"


@dataclass(frozen=True, slots=True)
class Network:
    """The layers (``weights[i]`` of shape ``(inputs, outputs)``, ``biases[i]`` of ``(outputs,)``)
    of a policy for ``setup``; raises :class:`PolicyFileError` when the shapes do not chain."""

    setup: Setup
    weights: tuple[Array, ...]
    biases: tuple[Array, ...]

    def __post_init__(self) -> None:
        if not self.weights or len(self.weights) != len(self.biases):
            raise PolicyFileError("a network needs as many biases as weights, and at least one layer")
        for i, (weight, bias) in enumerate(zip(self.weights, self.biases, strict=True)):
            if weight.ndim != 2 or bias.shape != (weight.shape[1],):
                raise PolicyFileError(f"layer {i}: weight {weight.shape} and bias {bias.shape} do not fit")
            if i and weight.shape[0] != self.weights[i - 1].shape[1]:
                raise PolicyFileError(f"layer {i} takes {weight.shape[0]} inputs, "
                                      f"layer {i - 1} gives {self.weights[i - 1].shape[1]}")
            if not (np.all(np.isfinite(weight)) and np.all(np.isfinite(bias))):
                raise PolicyFileError(f"layer {i} holds a value that is not finite")

    @property
    def inputs(self) -> int:
        """The vector length it reads."""
        return int(self.weights[0].shape[0])

    @property
    def actions(self) -> int:
        """The scores it gives: the length of the action table."""
        return int(self.weights[-1].shape[1])

    def layer_outputs(self, vectors: Array) -> list[Array]:
        """``vectors`` (one, or a batch as rows) and each layer's output after it, the scores last."""
        outputs = [vectors]
        for i, (weight, bias) in enumerate(zip(self.weights, self.biases, strict=True)):
            out = outputs[-1] @ weight + bias
            outputs.append(out if i == len(self.weights) - 1 else np.tanh(out))
        return outputs

    def probabilities(self, vector: Array, mask: NDArray[np.integer[Any]]) -> Array:
        """The policy's probability of each action for ``vector``: 0 wherever ``mask`` is 0."""
        return masked_softmax(self.layer_outputs(vector)[-1], mask)

    def check(self, game: Game, config: MatchConfig) -> None:
        """Raise :class:`PolicyMismatch` unless this policy was made for ``config`` and its sizes
        are the game's (encoder length in, action table length out)."""
        wanted = Setup.of(config)
        if wanted != self.setup:
            raise PolicyMismatch(f"the policy was trained for {self.setup.describe()}, "
                                 f"not {wanted.describe()}")
        size = game.encoder(config).size
        actions = len(game.action_table(config))
        if (self.inputs, self.actions) != (size, actions):
            raise PolicyMismatch(f"the policy reads {self.inputs} inputs and scores {self.actions} "
                                 f"actions; {wanted.describe()} has {size} and {actions}")


def masked_softmax(scores: Array, mask: NDArray[np.integer[Any]]) -> Array:
    """Softmax over the last axis of ``scores`` restricted to ``mask`` (1: legal): probability 0
    where the mask is 0. Raises ``ValueError`` for a row without a legal action."""
    legal = mask.astype(bool)
    if not np.all(legal.any(axis=-1)):
        raise ValueError("no legal action in the mask")
    top = np.max(np.where(legal, scores, -np.inf), axis=-1, keepdims=True)
    exp = np.where(legal, np.exp(np.where(legal, scores - top, 0.0)), 0.0)
    result: Array = exp / exp.sum(axis=-1, keepdims=True)
    return result


def save_network(path: Path, network: Network) -> None:
    """Write ``network`` to ``path`` as a policy file (float32 layers)."""
    s = network.setup
    entries: dict[str, Any] = {  # numpy arrays (Any: savez also takes the keyword allow_pickle)
        "format": np.array(FORMAT), "game": np.array(s.game), "version": np.array(s.version),
        "variant": np.array(s.variant), "players": np.array(s.players), "knobs": np.array(s.knobs),
    }
    for i, (weight, bias) in enumerate(zip(network.weights, network.biases, strict=True)):
        entries[f"weight_{i}"] = weight.astype(np.float32)
        entries[f"bias_{i}"] = bias.astype(np.float32)
    with path.open("wb") as out:
        np.savez(out, **entries)


def load_network(path: Path) -> Network:
    """The network in the policy file ``path``; raises :class:`PolicyFileError` naming the file
    and what is wrong (missing, not an ``.npz``, another format, missing or ill-shaped entries)."""
    if not path.is_file():
        raise PolicyFileError(f"policy file {path} does not exist")
    try:
        if not zipfile.is_zipfile(path):
            raise ValueError("not a zip archive")
        with np.load(path, allow_pickle=False) as data:
            entries = {name: data[name] for name in data.files}
    except (OSError, ValueError, zipfile.BadZipFile) as exc:
        raise PolicyFileError(f"policy file {path} is not a numpy .npz file ({exc})") from None
    try:
        return _network_from(entries)
    except PolicyFileError as exc:
        raise PolicyFileError(f"policy file {path}: {exc}") from None


def _network_from(entries: dict[str, NDArray[Any]]) -> Network:
    found = str(entries["format"]) if "format" in entries else "none"
    if found != FORMAT:
        raise PolicyFileError(f"format {found!r}, expected {FORMAT!r}")
    missing = [key for key in ("game", "version", "variant", "players", "knobs", "weight_0", "bias_0")
               if key not in entries]
    if missing:
        raise PolicyFileError(f"no {missing[0]!r} entry")
    try:
        setup = Setup(str(entries["game"]), int(entries["version"]), str(entries["variant"]),
                      int(entries["players"]), str(entries["knobs"]))
    except (TypeError, ValueError) as exc:
        raise PolicyFileError(f"bad setup entry: {exc}") from None
    weights: list[Array] = []
    biases: list[Array] = []
    while f"weight_{len(weights)}" in entries:
        i = len(weights)
        if f"bias_{i}" not in entries:
            raise PolicyFileError(f"no 'bias_{i}' entry")
        weight, bias = entries[f"weight_{i}"], entries[f"bias_{i}"]
        if weight.dtype.kind != "f" or bias.dtype.kind != "f":
            raise PolicyFileError(f"layer {i} is not floating point")
        weights.append(weight.astype(np.float64))
        biases.append(bias.astype(np.float64))
    return Network(setup, tuple(weights), tuple(biases))
