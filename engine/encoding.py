"""A seat's observation as a fixed-size vector of numbers: part of the engine contract, optional.

:meth:`engine.core.Game.encoder` returns an :class:`Encoder` for a configuration. Its
:meth:`~Encoder.encode` reads one observation (what :meth:`engine.core.State.observation` gives a
seat, nothing else) and returns :attr:`~Encoder.size` floats, laid out as :meth:`~Encoder.fields`
lists them. Because it reads only the observation, a vector never carries what the seat cannot see.

The generic default (:class:`GenericEncoder`) works for any game. It learns the observation's
*shape* from the game itself: the observations of every seat along a few seeded random playouts of
the configuration (:data:`SCHEMA_PLAYOUTS`, so the same configuration always gives the same layout).
Then, walking the observation as a tree:

* a number or a boolean is one slot (``true`` is 1);
* a string is a one-hot over the strings seen at that place (sorted); a string never seen is all 0;
* a place that may be ``null`` gets a slot that is 1 when it is ``null``;
* a list is a length slot, then its items, at most :data:`MAX_ITEMS` of them (the last ones when the
  list is longer), each laid out by the union of every item's shape seen there; missing items are 0;
* a map is its keys in sorted order; a key seen in no sample is left out.

A game overrides :meth:`~engine.core.Game.encoder` to give a hand-written layout.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from arena_bot.wire_types import Wire, WireMap

if TYPE_CHECKING:
    from engine.core import Game, MatchConfig

#: The seeded random playouts whose observations make a configuration's generic layout.
SCHEMA_PLAYOUTS = 4
#: At most this many decisions of each schema playout are observed (the rest are played unseen).
SCHEMA_DECISIONS = 400
#: The most items of a list the generic layout holds (the last ones of a longer list).
MAX_ITEMS = 16


@dataclass(frozen=True, slots=True)
class Field:
    """A run of ``length`` slots of a vector, named ``name`` and described by ``doc``."""

    name: str
    length: int
    doc: str


class Encoder:
    """Observations of one configuration as vectors of :attr:`size` floats."""

    size: int

    def encode(self, observation: WireMap) -> list[float]:
        """The vector of ``observation`` (exactly :attr:`size` floats)."""
        raise NotImplementedError

    def fields(self) -> list[Field]:
        """The layout, in order; the lengths add up to :attr:`size`."""
        raise NotImplementedError


@dataclass(slots=True)
class _Shape:
    """What was seen at one place of the observation tree."""

    nullable: bool = False
    number: bool = False
    strings: set[str] = field(default_factory=set)
    items: _Shape | None = None
    longest: int = 0
    keys: dict[str, _Shape] | None = None
    width: int = 0
    slot_of: dict[str, int] = field(default_factory=dict)
    order: tuple[tuple[str, _Shape], ...] = ()

    def learn(self, value: Wire) -> None:
        """Widen this shape to hold ``value``."""
        if value is None:
            self.nullable = True
        elif isinstance(value, bool | int | float):
            self.number = True
        elif isinstance(value, str):
            self.strings.add(value)
        elif isinstance(value, list):
            self.items = self.items or _Shape()
            self.longest = max(self.longest, min(len(value), MAX_ITEMS))
            for item in value[-MAX_ITEMS:]:
                self.items.learn(item)
        elif isinstance(value, dict):
            self.keys = {} if self.keys is None else self.keys
            for key, item in value.items():
                self.keys.setdefault(str(key), _Shape()).learn(item)

    def fields(self, name: str) -> Iterator[Field]:
        """This shape's slots, ``name`` being where it sits in the observation."""
        if self.nullable:
            yield Field(f"{name}?null", 1, "1 when null")
        if self.number:
            yield Field(name, 1, "the number (true is 1)")
        if self.strings:
            yield Field(name, len(self.strings), "one-hot: " + ", ".join(sorted(self.strings)))
        if self.items is not None:
            yield Field(f"{name}.length", 1, f"how many items (the last {self.longest} are laid out)")
            for i in range(self.longest):
                yield from self.items.fields(f"{name}[{i}]")
        for key in sorted(self.keys or {}):
            assert self.keys is not None
            yield from self.keys[key].fields(f"{name}.{key}" if name else key)

    def write(self, value: Wire, out: list[float]) -> None:
        """Append ``value``'s slots to ``out`` (zeros where it has nothing of this shape)."""
        if self.nullable:
            out.append(1.0 if value is None else 0.0)
        if self.number:
            out.append(float(value) if isinstance(value, bool | int | float) else 0.0)
        if self.slot_of:
            one_hot = [0.0] * len(self.slot_of)
            if isinstance(value, str) and value in self.slot_of:
                one_hot[self.slot_of[value]] = 1.0
            out.extend(one_hot)
        if self.items is not None:
            items = value[-self.longest :] if isinstance(value, list) and self.longest else []
            out.append(float(len(value)) if isinstance(value, list) else 0.0)
            for item in items:
                self.items.write(item, out)
            out.extend([0.0] * (self.items.width * (self.longest - len(items))))
        for key, shape in self.order:
            if isinstance(value, dict) and key in value:
                shape.write(value[key], out)
            else:
                out.extend([0.0] * shape.width)

    def settle(self) -> int:
        """Fix :attr:`width` (the slot count) here and below, once learning is done; the width."""
        for shape in [*(self.keys or {}).values(), *([self.items] if self.items else [])]:
            shape.settle()
        self.width = sum(f.length for f in self.fields(""))
        self.slot_of = {string: i for i, string in enumerate(sorted(self.strings))}
        self.order = tuple(sorted((self.keys or {}).items()))
        return self.width


class GenericEncoder(Encoder):
    """The layout learned from a configuration's sample observations (see the module doc)."""

    def __init__(self, samples: Iterable[WireMap]) -> None:
        self._shape = _Shape()
        for observation in samples:
            self._shape.learn(observation)
        self.size = self._shape.settle()
        self._fields = list(self._shape.fields(""))

    def encode(self, observation: WireMap) -> list[float]:
        out: list[float] = []
        self._shape.write(observation, out)
        return out

    def fields(self) -> list[Field]:
        return list(self._fields)


_generic: dict[tuple[str, str, int, str], GenericEncoder] = {}


def generic_encoder(game: Game, config: MatchConfig) -> GenericEncoder:
    """The generic encoder of ``config``, learned once per configuration and kept."""
    key = (config.key, config.variant, config.players, repr(sorted(config.knobs.items())))
    if key not in _generic:
        _generic[key] = GenericEncoder(sample_observations(game, config))
    return _generic[key]


def sample_observations(game: Game, config: MatchConfig) -> Iterator[WireMap]:
    """Every seat's observation along :data:`SCHEMA_PLAYOUTS` seeded random playouts of ``config``
    (the first :data:`SCHEMA_DECISIONS` decisions of each, and the end)."""
    for seed in range(SCHEMA_PLAYOUTS):
        state = game.start(config, seed)
        rng = random.Random(seed)
        decisions = 0
        while True:
            if decisions < SCHEMA_DECISIONS or state.is_over():
                for seat in range(config.players):
                    yield state.observation(seat)
            if state.is_over():
                break
            seat = rng.choice(state.to_move())
            state.apply(seat, rng.choice(state.legal_actions(seat)))
            decisions += 1


class Builder:
    """Collects a hand-written encoder's values in order, and with ``layout`` its fields too."""

    def __init__(self, layout: bool = False) -> None:
        self.values: list[float] = []
        self.fields: list[Field] = []
        self.layout = layout

    def numbers(self, name: str, values: Iterable[float], doc: str) -> None:
        """A run of numbers (booleans as 0/1)."""
        run = [float(v) for v in values]
        self.values.extend(run)
        if self.layout:
            self.fields.append(Field(name, len(run), doc))

    def one_hot(self, name: str, choices: Sequence[object], value: object, doc: str) -> None:
        """A one-hot over ``choices``; all 0 when ``value`` is none of them."""
        run = [1.0 if value == choice else 0.0 for choice in choices]
        self.values.extend(run)
        if self.layout:
            self.fields.append(Field(name, len(run), f"{doc}; one-hot: {', '.join(map(str, choices))}"))


class BuiltEncoder(Encoder):
    """A hand-written encoder: :meth:`build` lays an observation out with a :class:`Builder`, always
    the same fields in the same order; the layout is read off ``sample``, an observation of the
    configuration."""

    def __init__(self, sample: WireMap) -> None:
        built = Builder(layout=True)
        self.build(sample, built)
        self._fields = built.fields
        self.size = len(built.values)

    def build(self, observation: WireMap, out: Builder) -> None:
        """Lay ``observation`` out into ``out``."""
        raise NotImplementedError

    def encode(self, observation: WireMap) -> list[float]:
        built = Builder()
        self.build(observation, built)
        return built.values

    def fields(self) -> list[Field]:
        return list(self._fields)
