"""The engine contract as checks any game can be put through (``arena game check``).

Each check runs over one :class:`~arena.gamekit.setups.Setup` and a list of seeds and raises
``AssertionError`` with what is wrong; an exception the game itself raises is a failure too.
:func:`run_checks` runs every check over every setup of a game and gathers a :class:`CheckReport`.
Nothing here names a game: what is checked is only what docs/engine-contract.md promises.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import msgpack

from arena.gamefault import failure_text
from arena.gamekit.elsewhere import fingerprint, fingerprints_elsewhere
from arena.gamekit.setups import Setup, game_setups, play_out, random_decision
from engine.core import ConfigError, Game, IllegalAction, State, Wire, WireMap, replay
from engine.presentation import seat_names

#: The largest observation (msgpack bytes) a game may hand a seat: it travels in every ``act``.
OBSERVATION_LIMIT = 64 << 10


@dataclass(slots=True)
class Sizes:
    """The largest observation and event list seen, in msgpack bytes."""

    observation: int = 0
    events: int = 0


def packed(value: object, what: str) -> int:
    """The msgpack size of ``value``, after checking that both msgpack and JSON can carry it."""
    try:
        data: bytes = msgpack.packb(value, use_bin_type=True, strict_types=False)
    except (TypeError, ValueError) as exc:
        raise AssertionError(f"{what} is not msgpack-able: {exc}") from None
    try:
        json.dumps(value)
    except (TypeError, ValueError) as exc:
        raise AssertionError(f"{what} is not JSON-able: {exc}") from None
    return len(data)


def _views(state: State, players: int) -> list[object]:
    return [state.observation(seat) for seat in range(players)]


def check_action_table(setup: Setup, seeds: Sequence[int], sizes: Sizes) -> None:
    """Ids are positions, labels are non-blank, forms are unique and look up their id, all packable."""
    table = setup.game.action_table(setup.config)
    assert len(table) > 0, "the action table is empty"
    for position, spec in enumerate(table):
        assert spec.id == position, f"action at position {position} has id {spec.id}"
        assert spec.label.strip(), f"action {spec.id} has a blank label"
        assert table.id_of(*spec.form) == spec.id, f"form {spec.form!r} does not look up action {spec.id}"
    packed(table.to_wire(), "the action table")


def check_playouts(setup: Setup, seeds: Sequence[int], sizes: Sizes) -> None:
    """Random playouts, every step: who moves, ascending legal ids in the table, packable views and
    events of a bounded size; at the end a consistent result and a picture for each seat."""
    players = setup.config.players
    table_size = len(setup.game.action_table(setup.config))
    for seed in seeds:
        state = setup.game.start(setup.config, seed)
        rng = random.Random(seed * 7919)
        cursors = [0] * players
        steps = 0
        while not state.is_over():
            where = f"seed {seed}, decision {steps}"
            movers = state.to_move()
            assert movers, f"{where}: the game is not over but no seat is to move"
            assert list(movers) == sorted(set(movers)), f"{where}: to_move {movers} is not ascending"
            for seat in range(players):
                legal = state.legal_actions(seat)
                if seat in movers:
                    assert legal, f"{where}: seat {seat} is to move with no legal action"
                    assert legal == sorted(set(legal)), f"{where}: legal actions {legal} not ascending"
                    assert 0 <= legal[0] and legal[-1] < table_size, f"{where}: legal {legal} outside the table"
                else:
                    assert legal == [], f"{where}: seat {seat} is not to move but is offered {legal}"
                size = packed(state.observation(seat), f"{where}: seat {seat}'s observation")
                assert size <= OBSERVATION_LIMIT, f"{where}: seat {seat}'s observation is {size} bytes"
                sizes.observation = max(sizes.observation, size)
                events, cursors[seat] = state.events(seat, cursors[seat])
                sizes.events = max(sizes.events, packed(events, f"{where}: seat {seat}'s events"))
            state.apply(*random_decision(state, rng))
            steps += 1
        assert state.to_move() == (), f"seed {seed}: the game is over but to_move is {state.to_move()}"
        result = state.result()
        assert len(result.scores) == len(result.ranks) == players, f"seed {seed}: result not one per seat"
        assert min(result.ranks) == 1 and max(result.ranks) <= players, f"seed {seed}: ranks {result.ranks}"
        for a in range(players):
            for b in range(players):
                if result.scores[a] > result.scores[b]:
                    assert result.ranks[a] < result.ranks[b], f"seed {seed}: a higher score placed worse"
        packed(result.detail, f"seed {seed}: the result's detail")
        for seat in (None, *range(players)):
            assert state.render(seat).strip(), f"seed {seed}: render({seat}) is blank"


def check_determinism(setup: Setup, seeds: Sequence[int], sizes: Sizes) -> None:
    """The same seed and decisions give the same game; some other seed deals another opening."""
    players = setup.config.players
    for seed in seeds:
        first, decisions = play_out(setup, seed, seed + 1)
        second, again = play_out(setup, seed, seed + 1)
        assert decisions == again, f"seed {seed}: the same policy was offered different choices"
        assert first.result() == second.result(), f"seed {seed}: the same game ended differently"
        for seat in range(players):
            assert first.observation(seat) == second.observation(seat), f"seed {seed}: seat {seat} saw differently"
            assert first.events(seat) == second.events(seat), f"seed {seed}: seat {seat}'s events differ"
    openings = {json.dumps(_views(setup.game.start(setup.config, seed), players), sort_keys=True)
                for seed in range(1, 9)}
    assert len(openings) > 1, "seeds 1-8 all dealt the same opening: the deal ignores the seed"


def check_determinism_elsewhere(setup: Setup, seeds: Sequence[int], sizes: Sizes) -> None:
    """Fresh Python processes with other hash seeds play the same seeds and decisions the same
    (:mod:`arena.gamekit.elsewhere`); not checked for a game class no fresh process can import."""
    here = [fingerprint(setup, seed) for seed in seeds]
    for hash_seed, theirs in fingerprints_elsewhere(setup.game, tuple(seeds)):
        for seed, mine, other in zip(seeds, here, theirs[setup.id]):
            assert mine == other, (
                f"seed {seed}: a fresh Python process (PYTHONHASHSEED={hash_seed}) played the same seed and "
                "decisions otherwise: the game depends on something beside its seed (the order of a set or "
                "dict of strings, hash(), id(), the clock), so a stored match will not replay")


def check_replay(setup: Setup, seeds: Sequence[int], sizes: Sizes) -> None:
    """Replaying a match's decisions from its seed rebuilds it exactly (result, views, events)."""
    for seed in seeds:
        final, decisions = play_out(setup, seed, seed + 2)
        rebuilt = replay(setup.game, setup.config, seed, decisions)
        assert rebuilt.is_over(), f"seed {seed}: the replay did not end"
        assert rebuilt.result() == final.result(), f"seed {seed}: the replay ended differently"
        for seat in range(setup.config.players):
            assert rebuilt.observation(seat) == final.observation(seat), f"seed {seed}: seat {seat}'s view differs"
            assert rebuilt.events(seat) == final.events(seat), f"seed {seed}: seat {seat}'s events differ"


def _advance(state: State, rng: random.Random, decisions: int) -> None:
    for _ in range(decisions):
        if state.is_over():
            return
        state.apply(*random_decision(state, rng))


def _snapshot(state: State, players: int) -> str:
    views = {"views": _views(state, players), "to_move": list(state.to_move()),
             "legal": [state.legal_actions(seat) for seat in range(players)], "log": len(state.log)}
    return json.dumps(views, sort_keys=True)


def check_clones(setup: Setup, seeds: Sequence[int], sizes: Sizes) -> None:
    """A clone and its original are independent: playing either changes nothing in the other
    (cloned at the start, a third and two thirds into a random game)."""
    players = setup.config.players
    for seed in seeds:
        rng = random.Random(seed)
        _, decisions = play_out(setup, seed, seed + 3)
        for point in (0, len(decisions) // 3, 2 * len(decisions) // 3):
            state = replay(setup.game, setup.config, seed, decisions[:point])
            before = _snapshot(state, players)
            copy = state.clone()
            where = f"seed {seed}, decision {point}"
            assert _snapshot(copy, players) == before, f"{where}: the clone differs from its original"
            _advance(copy, rng, PLAY_ON)
            assert _snapshot(state, players) == before, f"{where}: playing a clone changed its original"
            other = state.clone()
            _advance(state, rng, PLAY_ON)
            assert _snapshot(other, players) == before, f"{where}: playing the original changed a clone"


def check_illegal(setup: Setup, seeds: Sequence[int], sizes: Sizes) -> None:
    """``apply_checked`` refuses an illegal action, an id outside the table and a seat not to move,
    and a refused action changes nothing."""
    table_size = len(setup.game.action_table(setup.config))
    for seed in seeds:
        state = setup.game.start(setup.config, seed)
        rng = random.Random(seed + 9)
        for _ in range(30):
            if state.is_over():
                break
            movers = state.to_move()
            seat = movers[0]
            legal = set(state.legal_actions(seat))
            before = _snapshot(state, setup.config.players)
            illegal = next((a for a in range(table_size) if a not in legal), None)
            refused = [(seat, table_size), (seat, -1)] + ([(seat, illegal)] if illegal is not None else [])
            idle = [s for s in range(setup.config.players) if s not in movers]
            refused += [(idle[0], min(legal))] if idle else []
            for who, action in refused:
                try:
                    state.apply_checked(who, action)
                except IllegalAction:
                    pass
                else:
                    raise AssertionError(f"seed {seed}: seat {who} was allowed action {action}")
            assert _snapshot(state, setup.config.players) == before, f"seed {seed}: a refused action changed the game"
            state.apply_checked(*random_decision(state, rng))


def check_hidden_information(setup: Setup, seeds: Sequence[int], sizes: Sizes) -> None:
    """The seat-view leak audit: a state resampled in everything a seat cannot see (``determinize``)
    gives that seat the same observation, events, legal actions and turn; ``sample_state`` from the
    observation after a msgpack round trip reproduces it, and both samples play to the end.
    ``sample_state`` refuses an empty observation, and another seat's where the observation says
    whose it is (a ``seat`` key): without one, another seat's may be one the seat could have seen."""
    game, config = setup.game, setup.config
    opening = game.start(config, seeds[0]).observation(0)
    empty: WireMap = {"seat": 0}
    refused: list[tuple[int, WireMap]] = [(0, empty)] + ([(1, opening)] if opening.get("seat") == 0 else [])
    for seat, nonsense in refused:
        try:
            game.sample_state(config, seat, nonsense, random.Random(0))
        except ValueError:
            continue
        raise AssertionError(f"sample_state for seat {seat} accepted an observation it could not see: {nonsense!r}"[:200])
    for seed in seeds:
        state = game.start(config, seed)
        rng = random.Random(seed + 13)
        steps = audits = 0
        while True:
            if rng.random() < 0.1 or state.is_over():
                play_on = PLAY_ON if audits == 0 else PLAY_ON_LATER
                for seat in range(config.players):
                    _audit_seat(game, state, seat, rng, f"seed {seed}, decision {steps}", play_on)
                audits += 1
            if state.is_over():
                break
            state.apply(*random_decision(state, rng))
            steps += 1


def _audit_seat(game: Game, state: State, seat: int, rng: random.Random, where: str, play_on: int) -> None:
    config = state.config
    seen = state.observation(seat)
    other = state.determinize(seat, random.Random(rng.getrandbits(32)))
    assert other.observation(seat) == seen, f"{where}: seat {seat}'s observation reveals what determinize resamples"
    assert other.events(seat) == state.events(seat), f"{where}: seat {seat}'s events reveal what determinize resamples"
    assert other.legal_actions(seat) == state.legal_actions(seat), f"{where}: seat {seat}'s legal actions differ"
    assert other.to_move() == state.to_move(), f"{where}: determinize for seat {seat} changed who is to move"
    wire: Wire = msgpack.unpackb(msgpack.packb(seen, use_bin_type=True, strict_types=False), raw=False)
    assert isinstance(wire, dict)
    sample = game.sample_state(config, seat, wire, random.Random(rng.getrandbits(32)))
    assert sample.observation(seat) == seen, f"{where}: sample_state for seat {seat} does not reproduce its view"
    if seat in state.to_move():
        assert seat in sample.to_move(), f"{where}: sample_state lost seat {seat}'s turn"
        assert sample.legal_actions(seat) == state.legal_actions(seat), f"{where}: sampled legal actions differ"
    assert sample.is_over() == state.is_over(), f"{where}: sample_state disagrees on the game being over"
    for copy in (other, sample):
        _advance(copy, rng, play_on)
        assert play_on < PLAY_ON or copy.is_over(), f"{where}: a resampled state for seat {seat} did not end"


#: Decisions a resampled state may take to end (beyond this it counts as not ending): the states of
#: a seed's first audit are played to the end, later ones :data:`PLAY_ON_LATER` decisions on.
PLAY_ON = 100_000
PLAY_ON_LATER = 40


def check_bad_setups(setup: Setup, seeds: Sequence[int], sizes: Sizes) -> None:
    """Bad player counts, variants and knobs raise ``ConfigError`` naming what is allowed."""
    game = setup.game
    if setup.config.players != game.min_players or setup.config.variant != game.default_variant:
        return  # about the game, not the setup: checked once
    low = game.min_players
    bad: list[tuple[str, int, str | None, dict[str, object]]] = [
        (f"{low}-{game.max_players} players", game.max_players + 1, None, {}),
        (game.variants[0].name, low, "no-such-variant", {}),
        ("no_such_knob", low, None, {"no_such_knob": 1}),
    ]
    bad += [(knob.name, low, None, {knob.name: "?? not a value ??"}) for knob in game.knobs]
    for named, players, variant, knobs in bad:
        try:
            game.configure(players, variant, knobs)
        except ConfigError as exc:
            assert named in str(exc), f"the error {str(exc)!r} does not name {named!r}"
        else:
            raise AssertionError(f"a bad setup was accepted (the error should name {named!r})")


def check_presentation(setup: Setup, seeds: Sequence[int], sizes: Sizes) -> None:
    """The game's words say something at every step (decisions, events, who is next, the picture);
    its running scores are none or one per seat and end at the result; a viewer's files are not
    blank."""
    presentation = setup.game.presentation()
    players = setup.config.players
    names = seat_names([f"bot{s}" for s in range(players)])
    for seed in seeds:
        state = setup.game.start(setup.config, seed)
        rng = random.Random(seed + 3)
        while not state.is_over():
            scores = presentation.running_scores(state)
            assert scores == [] or len(scores) == players, f"seed {seed}: running scores {scores!r}"
            assert presentation.next_text(state, names), f"seed {seed}: no words for who is next"
            assert presentation.picture(state), f"seed {seed}: a blank picture"
            seat, action = random_decision(state, rng)
            assert presentation.action_text(state, seat, action), f"seed {seed}: no words for {action}"
            seen = len(state.log)
            state.apply(seat, action)
            for event in state.log[seen:]:
                assert presentation.event_text(event.data, names), f"seed {seed}: no words for {event.data!r}"
        final = presentation.running_scores(state)
        assert final in ([], list(state.result().scores)), f"seed {seed}: final scores {final!r}"
    for text in (presentation.viewer_script(), presentation.viewer_style()):
        assert text is None or text.strip(), "a viewer file is blank"


@dataclass(frozen=True, slots=True)
class Check:
    """A named check of the contract."""

    name: str
    run: Callable[[Setup, Sequence[int], Sizes], None]


CHECKS: tuple[Check, ...] = (
    Check("action table", check_action_table),
    Check("random playouts", check_playouts),
    Check("determinism", check_determinism),
    Check("determinism across processes", check_determinism_elsewhere),
    Check("replay", check_replay),
    Check("clone independence", check_clones),
    Check("illegal actions refused", check_illegal),
    Check("hidden information", check_hidden_information),
    Check("bad setups named", check_bad_setups),
    Check("presentation", check_presentation),
)


@dataclass(frozen=True, slots=True)
class Failure:
    """One check that failed on one setup, and why."""

    check: str
    setup: str
    detail: str


@dataclass(slots=True)
class CheckReport:
    """What :func:`run_checks` found: the failures, time per check, sizes and playout speed."""

    game: str
    setups: int
    seeds: tuple[int, ...]
    failures: list[Failure] = field(default_factory=list)
    seconds: dict[str, float] = field(default_factory=dict)
    sizes: Sizes = field(default_factory=Sizes)
    playouts_per_second: float = 0.0
    decisions_per_second: float = 0.0

    @property
    def passed(self) -> bool:
        """Whether every check passed on every setup."""
        return not self.failures


def run_checks(game: Game, seeds: Sequence[int], checks: Sequence[Check] = CHECKS) -> CheckReport:
    """Run ``checks`` over every setup of ``game`` with ``seeds``; then time plain random playouts."""
    setups = game_setups(game)
    report = CheckReport(game.key, len(setups), tuple(seeds))
    for check in checks:
        started = time.perf_counter()
        for setup in setups:
            try:
                check.run(setup, seeds, report.sizes)
            except Exception as exc:  # noqa: BLE001 (whatever the game raises is a failure to report)
                report.failures.append(Failure(check.name, setup.id, failure_text(exc)))
        report.seconds[check.name] = time.perf_counter() - started
    if not any(f.check == "random playouts" for f in report.failures):
        report.playouts_per_second, report.decisions_per_second = playout_speed(setups, seeds)
    return report


def playout_speed(setups: Sequence[Setup], seeds: Sequence[int]) -> tuple[float, float]:
    """Plain random playouts per second and decisions per second over ``setups`` and ``seeds``."""
    started = time.perf_counter()
    playouts = decisions = 0
    for setup in setups:
        for seed in seeds:
            _, made = play_out(setup, seed, seed)
            playouts += 1
            decisions += len(made)
    elapsed = max(time.perf_counter() - started, 1e-9)
    return playouts / elapsed, decisions / elapsed
