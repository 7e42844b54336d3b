"""The game reference pages (docs/games/) document everything the engines produce.

Seeded random games of every variant and player count are played; every observation key path,
event type and field, and phase value met must be in the game's page, and every event type written
in the engine's source too. So the pages cannot fall behind the engines. A game's page is
``docs/games/<name>.md``; its source is the package that defines its class, in ``engine/`` or
installed beside it.
"""

from __future__ import annotations

import ast
import inspect
import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from reference_doc import Reference, read_reference

from engine.core import Game, Wire
from engine.registry import games

ROOT = Path(__file__).resolve().parents[2]
#: Per game: the reference section listing the phase values, and where an observation holds the phase
#: (``None``: a game without phases, each decision alike).
PHASES: dict[str, tuple[str, tuple[str, ...]] | None] = {
    "wongar": ("Decisions", ("pending", "decision")),
    "waroong": ("Phases", ("phase",)),
    "liars_dice": None,
}
GAMES_PER_SETUP = 2


@dataclass
class Seen:
    """What the engine produced in the games played."""

    keys: set[str] = field(default_factory=set)
    events: dict[str, set[str]] = field(default_factory=dict)
    phases: set[str] = field(default_factory=set)


def _paths(value: Wire, prefix: str = "") -> Iterator[str]:
    """Every map key path in ``value``, lists left out of the path (``a.b`` for ``{"a": [{"b": 1}]}``)."""
    if isinstance(value, dict):
        for key, inner in value.items():
            path = f"{prefix}.{key}" if prefix else key
            yield path
            yield from _paths(inner, path)
    elif isinstance(value, list):
        for inner in value:
            yield from _paths(inner, prefix)


def _phase(observation: dict[str, Wire], where: tuple[str, ...]) -> str:
    value: Wire = observation
    for key in where:
        assert isinstance(value, dict)
        value = value[key]
    return str(value)


def _play(game: Game) -> Seen:
    seen = Seen()
    phases = PHASES[game.name]
    for variant in game.variants:
        for players in range(game.min_players, game.max_players + 1):
            for seed in range(GAMES_PER_SETUP):
                state = game.new_state(players, seed=seed, variant=variant.name)
                rng = random.Random(seed)
                while True:
                    for seat in state.to_move() or (0,):
                        observation = state.observation(seat)
                        seen.keys.update(_paths(observation))
                        if phases is not None:
                            seen.phases.add(_phase(observation, phases[1]))
                    if state.is_over():
                        break
                    seat = rng.choice(state.to_move())
                    state.apply(seat, rng.choice(state.legal_actions(seat)))
                for event in state.log:
                    kind = str(event.data["type"])
                    seen.events.setdefault(kind, set()).update(k for k in event.data if k != "type")
    return seen


def _source_event_types(game: Game) -> set[str]:
    """Every ``{"type": "<literal>", ...}`` written in the game's package."""
    found: set[str] = set()
    for source in Path(inspect.getfile(type(game))).parent.glob("*.py"):
        for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Dict):
                for key, value in zip(node.keys, node.values):
                    if (isinstance(key, ast.Constant) and key.value == "type"
                            and isinstance(value, ast.Constant) and isinstance(value.value, str)):
                        found.add(value.value)
    return found


@pytest.fixture(scope="module", params=sorted({g.name for g in games().values()}))
def played(request: pytest.FixtureRequest) -> tuple[Game, Reference, Seen]:
    name: str = request.param
    page = ROOT / "docs" / "games" / f"{name}.md"
    assert name in PHASES, f"{name}: say where its phase is read (PHASES) and write {page}"
    game = next(g for g in games().values() if g.name == name)
    assert page.is_file(), f"{name} has no reference page {page}"
    phases = PHASES[name]
    return game, read_reference(page, None if phases is None else phases[0]), _play(game)


def test_every_observation_key_is_documented(played: tuple[Game, Reference, Seen]) -> None:
    game, reference, seen = played
    missing = sorted(p for p in seen.keys if not reference.documents(p))
    assert not missing, f"docs/games/{game.name}.md does not document the observation keys {missing}"


def test_every_documented_key_is_produced(played: tuple[Game, Reference, Seen]) -> None:
    game, reference, seen = played
    produced = seen.keys | {f"{p.rpartition('.')[0]}.*" for p in seen.keys if "." in p}
    stale = sorted(reference.keys - produced)
    assert not stale, f"docs/games/{game.name}.md documents keys no observation has: {stale}"


def test_every_event_type_and_field_is_documented(played: tuple[Game, Reference, Seen]) -> None:
    game, reference, seen = played
    types = set(seen.events) | _source_event_types(game)
    assert not types - set(reference.events), f"undocumented event types {sorted(types - set(reference.events))}"
    for kind, fields in seen.events.items():
        extra = fields - reference.events[kind]
        assert not extra, f"event {kind!r}: undocumented fields {sorted(extra)}"
    stale = set(reference.events) - types
    assert not stale, f"documented event types the engine never produces: {sorted(stale)}"


def test_every_phase_value_is_documented(played: tuple[Game, Reference, Seen]) -> None:
    game, reference, seen = played
    assert seen.phases <= reference.phases, f"undocumented phase values {sorted(seen.phases - reference.phases)}"
    assert reference.phases - seen.phases <= {"not_started"}, "documented phases never met in play"


def test_the_reader_catches_an_undocumented_key(tmp_path: Path) -> None:
    """The check itself can fail: a page without ``pending.from`` misses what Wongar produces."""
    page = (ROOT / "docs" / "games" / "wongar.md").read_text(encoding="utf-8")
    cut = "\n".join(line for line in page.splitlines() if not line.startswith("| `pending.from`"))
    (tmp_path / "wongar.md").write_text(cut, encoding="utf-8")
    reference = read_reference(tmp_path / "wongar.md", "Decisions")
    assert not reference.documents("pending.from")
    assert reference.documents("pending.decision") and reference.documents("hand.Disc")
    assert reference.documents("figure_cards.Elder") and not reference.documents("figure_cards.Queen")
