"""The contract every game meets: pure rules, no I/O.

A game is a :class:`Game` (metadata, variants, knobs, the action table, a state factory) and a
:class:`State` (whose turn, what is legal, apply, observe, result). Shaped after OpenSpiel's API:

* Seats are integers ``0 .. players-1`` in clockwise order; "left neighbour" is ``(seat + 1) % n``.
* Actions are integers indexing the game's fixed :class:`ActionTable`; legal actions are ascending.
* Several seats may have to decide at once (simultaneous choices); each applies independently and
  the state resolves once all have.
* All chance comes from the seed: each deck is shuffled from its own seed derived with
  :func:`derive_seed`, so the same seed deals the same cards whatever is played.
* A match replays exactly from ``(game@version, variant, knobs, players, seed, decisions)``.

This module is Arena's public, versioned API for games, installed ones included (docs/engine-contract.md).
:data:`CONTRACT_VERSION` numbers it; a game states the version it was written for in
:attr:`Game.contract`, and the registry refuses a game whose version this Arena does not support.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TypeAlias

from arena_bot.seeds import derive_seed as derive_seed  # re-exported: games and the referee seed with it
from arena_bot.wire_types import Wire as Wire, WireMap as WireMap  # re-exported: the engine contract names them
from engine.encoding import Encoder, generic_encoder
from engine.presentation import Presentation

#: The version of the engine contract this module defines. It changes only when a game written for
#: the previous version would no longer work unchanged.
CONTRACT_VERSION = 1

#: A knob's value after validation.
KnobValue: TypeAlias = bool | int | float | str


class EngineError(Exception):
    """Root of every error the engine raises."""


class ConfigError(EngineError, ValueError):
    """An unknown game, variant, knob or knob value, or an unsupported player count."""


class IllegalAction(EngineError, ValueError):
    """An action that is not legal for that seat now (raised by :meth:`State.apply_checked`)."""


@dataclass(frozen=True, slots=True)
class Knob:
    """A named rules parameter of a game, with its default.

    ``parse`` turns a user's value (a string from the command line, or an already typed value from a
    config file or a stored record) into the canonical value, raising ``ValueError`` with a message that
    says what is allowed. ``choices`` lists the allowed values where they are a closed set.
    """

    name: str
    default: KnobValue
    doc: str
    parse: Callable[[object], KnobValue]
    choices: tuple[KnobValue, ...] = ()

    def check(self, raw: object) -> KnobValue:
        """Return the canonical value of ``raw`` or raise :class:`ConfigError` naming the knob."""
        try:
            value = self.parse(raw)
        except (TypeError, ValueError) as exc:
            raise ConfigError(f"knob {self.name!r}: {exc}") from None
        if self.choices and value not in self.choices:
            allowed = ", ".join(repr(c) for c in self.choices)
            raise ConfigError(f"knob {self.name!r} must be one of {allowed}, not {raw!r}")
        return value


def choice_knob(name: str, default: str, choices: Sequence[str], doc: str) -> Knob:
    """A knob whose value is one of a few strings."""
    return Knob(name, default, doc, parse=_as_str, choices=tuple(choices))


def _as_str(raw: object) -> str:
    if not isinstance(raw, str):
        raise ValueError(f"expected a string, got {type(raw).__name__}")
    return raw.strip()


@dataclass(frozen=True, slots=True)
class Variant:
    """A named way of playing the game (e.g. Wongar's ``basic`` and ``initiated``)."""

    name: str
    doc: str


@dataclass(frozen=True, slots=True)
class ActionSpec:
    """One entry of the action table: its id, a structured msgpack-able form, a readable label."""

    id: int
    form: tuple[Wire, ...]
    label: str


class ActionTable:
    """The fixed, ordered list of every action a game can offer; ids are positions.

    Built from forms in order; looks up by id or by form (forms are unique).
    """

    __slots__ = ("_specs", "_by_form")

    def __init__(self, entries: Iterable[tuple[tuple[Wire, ...], str]]) -> None:
        self._specs: tuple[ActionSpec, ...] = tuple(
            ActionSpec(i, form, label) for i, (form, label) in enumerate(entries)
        )
        self._by_form: dict[tuple[Wire, ...], int] = {}
        for spec in self._specs:
            if spec.form in self._by_form:
                raise ValueError(f"duplicate action form {spec.form!r}")
            self._by_form[spec.form] = spec.id

    def __len__(self) -> int:
        return len(self._specs)

    def __getitem__(self, action: int) -> ActionSpec:
        return self._specs[action]

    def __iter__(self) -> Iterator[ActionSpec]:
        return iter(self._specs)

    def id_of(self, *form: Wire) -> int:
        """The id of the action with this form; ``KeyError`` if there is none."""
        return self._by_form[form]

    def label(self, action: int) -> str:
        """The readable label of ``action``, or a placeholder for an id outside the table."""
        if 0 <= action < len(self._specs):
            return self._specs[action].label
        return f"<unknown action {action}>"

    def to_wire(self) -> list[Wire]:
        """The table as sent to bots: ``[[id, form, label], ...]``."""
        return [[s.id, list(s.form), s.label] for s in self._specs]


@dataclass(frozen=True, slots=True)
class MatchConfig:
    """A validated game setup: everything but the seed and the decisions needed to replay a match."""

    game: str
    version: int
    variant: str
    players: int
    knobs: Mapping[str, KnobValue] = field(default_factory=dict)

    @property
    def key(self) -> str:
        """``name@version``."""
        return f"{self.game}@{self.version}"


@dataclass(frozen=True, slots=True)
class Result:
    """The outcome of a finished game.

    ``scores[s]`` is seat ``s``'s final score; ``ranks[s]`` its place (1 is best; tied seats share the
    better place, the next place skips: 1, 1, 3). ``detail`` holds game-specific tie-break data.
    """

    scores: tuple[int, ...]
    ranks: tuple[int, ...]
    detail: WireMap = field(default_factory=dict)


def ranks_from_keys(keys: Sequence[tuple[int, ...]]) -> tuple[int, ...]:
    """Competition ranks (1, 1, 3, ...) for seats ordered by descending sort ``keys``."""
    return tuple(1 + sum(1 for other in keys if other > mine) for mine in keys)


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened, as seen by ``seats`` (``None``: every seat)."""

    seats: frozenset[int] | None
    data: WireMap

    def visible_to(self, seat: int) -> bool:
        """Whether ``seat`` saw this event."""
        return self.seats is None or seat in self.seats


def seeded_rng(seed: int, *labels: str | int) -> random.Random:
    """A ``random.Random`` on the stream :func:`derive_seed` names."""
    return random.Random(derive_seed(seed, *labels))


class State(ABC):
    """A game position. Mutable; :meth:`clone` before exploring.

    Subclasses keep ``config`` and ``log`` (the event log, appended to as the game goes).
    """

    config: MatchConfig
    log: list[Event]

    @abstractmethod
    def to_move(self) -> tuple[int, ...]:
        """The seats that must decide now, ascending; empty once the game is over."""

    @abstractmethod
    def legal_actions(self, seat: int) -> list[int]:
        """Ascending legal action ids for ``seat``: non-empty if ``seat`` is to move, else empty."""

    @abstractmethod
    def apply(self, seat: int, action: int) -> None:
        """Play ``action`` for ``seat``. Trusted fast path: legality is NOT checked."""

    def apply_checked(self, seat: int, action: int) -> None:
        """Play ``action`` for ``seat`` after checking it; raises :class:`IllegalAction`."""
        if seat not in self.to_move():
            raise IllegalAction(f"seat {seat} is not to move (to move: {list(self.to_move())})")
        if action not in self.legal_actions(seat):
            raise IllegalAction(f"action {action} ({self.action_label(action)}) is not legal for seat {seat} now")
        self.apply(seat, action)

    @abstractmethod
    def observation(self, seat: int) -> WireMap:
        """Exactly what ``seat`` may know now, as a msgpack-able map. Changes nothing in the game.

        Read-only to callers, the map and everything in it: a game may hand out a part that did
        not change since an earlier call as the very same object (so ``is`` tells a caller that it
        is unchanged), and a changed part as a new object, never by changing one handed out before.
        """

    def events(self, seat: int, since: int = 0) -> tuple[list[WireMap], int]:
        """The events ``seat`` saw from log position ``since`` on, and the position to ask from next."""
        seen = [e.data for e in self.log[since:] if e.visible_to(seat)]
        return seen, len(self.log)

    @abstractmethod
    def is_over(self) -> bool:
        """Whether the game has ended."""

    @abstractmethod
    def result(self) -> Result:
        """Scores and ranks; only valid once :meth:`is_over`."""

    @abstractmethod
    def clone(self) -> State:
        """An independent copy: nothing done to the copy affects this state, and vice versa."""

    @abstractmethod
    def determinize(self, seat: int, rng: random.Random) -> State:
        """A full state consistent with ``seat``'s observation, hidden information resampled by ``rng``."""

    @abstractmethod
    def render(self, seat: int | None = None) -> str:
        """A text picture for people: omniscient (``seat=None``) or as ``seat`` sees it."""

    def action_label(self, action: int) -> str:
        """The readable label of ``action`` in this state's game."""
        return self.table().label(action)

    @abstractmethod
    def table(self) -> ActionTable:
        """The action table of this state's game and configuration."""


class Game(ABC):
    """A registered game: metadata, variants, knobs, the action table, and the state factory.

    Subclasses set the class attributes and implement :meth:`action_table` and :meth:`_new_state`.
    ``contract`` is the :data:`CONTRACT_VERSION` the game was written for.
    """

    contract: int = 1
    name: str
    version: int
    title: str
    min_players: int
    max_players: int
    variants: tuple[Variant, ...]
    knobs: tuple[Knob, ...]

    @property
    def key(self) -> str:
        """``name@version``, the registered identity of these rules."""
        return f"{self.name}@{self.version}"

    def presentation(self) -> Presentation:
        """How this game's matches read to people (see :mod:`engine.presentation`); the generic
        view unless the game overrides this."""
        return Presentation()

    def encoder(self, config: MatchConfig) -> Encoder:
        """A seat's observation in ``config`` as a fixed-size vector (see :mod:`engine.encoding`);
        the generic layout learned from sample observations unless the game overrides this."""
        return generic_encoder(self, config)

    @property
    def default_variant(self) -> str:
        """The first variant listed."""
        return self.variants[0].name

    def configure(
        self, players: int, variant: str | None = None, knobs: Mapping[str, object] | None = None
    ) -> MatchConfig:
        """Validate a setup; raises :class:`ConfigError` naming what is allowed."""
        if isinstance(players, bool) or not isinstance(players, int):
            raise ConfigError(f"players must be a whole number, not {players!r}")
        if not self.min_players <= players <= self.max_players:
            raise ConfigError(
                f"{self.name} is for {self.min_players}-{self.max_players} players, not {players}"
            )
        variant = self.default_variant if variant is None else variant
        names = [v.name for v in self.variants]
        if variant not in names:
            raise ConfigError(
                f"{self.name} has no variant {variant!r}; variants: {', '.join(names)}"
            )
        by_name = {k.name: k for k in self.knobs}
        given = dict(knobs or {})
        unknown = sorted(set(given) - set(by_name))
        if unknown:
            allowed = ", ".join(by_name) or "none"
            raise ConfigError(f"{self.name} has no knob {unknown[0]!r}; knobs: {allowed}")
        values = {
            name: knob.check(given[name]) if name in given else knob.default
            for name, knob in by_name.items()
        }
        return MatchConfig(self.name, self.version, variant, players, values)

    def new_state(
        self, players: int, seed: int, variant: str | None = None, **knobs: object
    ) -> State:
        """A fresh game dealt from ``seed``; raises :class:`ConfigError` on a bad setup."""
        return self.start(self.configure(players, variant, knobs), seed)

    def start(self, config: MatchConfig, seed: int) -> State:
        """A fresh game for an already validated ``config``."""
        if config.key != self.key:
            raise ConfigError(f"config is for {config.key}, not {self.key}")
        return self._new_state(config, seed)

    @abstractmethod
    def _new_state(self, config: MatchConfig, seed: int) -> State:
        """Deal a fresh game; ``config`` is already valid."""

    @abstractmethod
    def action_table(self, config: MatchConfig) -> ActionTable:
        """Every action this configuration can ever offer (the same for every state of a match)."""

    @abstractmethod
    def sample_state(
        self, config: MatchConfig, seat: int, observation: WireMap, rng: random.Random
    ) -> State:
        """A full state consistent with what ``seat`` observes, the hidden information sampled by ``rng``.

        ``observation`` is exactly as the game produced it (e.g. after a msgpack round trip). The
        state's ``observation(seat)`` equals it; when ``seat`` is to move, so does
        ``legal_actions(seat)``, and ``to_move()`` holds every seat that decides (a seat whose
        simultaneous pick ``seat`` cannot see may still be deciding in the sample). For search bots.
        Raises :class:`ConfigError` or ``ValueError`` on an observation this game could not have
        produced.
        """


Decision: TypeAlias = tuple[int, int]
"""A ``(seat, action)`` pair, in the order the referee applied them."""


def replay(game: Game, config: MatchConfig, seed: int, decisions: Iterable[Decision]) -> State:
    """Rebuild a match from its seed and decisions, checking each; raises :class:`IllegalAction`."""
    state = game.start(config, seed)
    for seat, action in decisions:
        state.apply_checked(seat, action)
    return state
