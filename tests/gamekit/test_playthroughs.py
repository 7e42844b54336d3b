"""The golden playthroughs stored with the built-in games: each is what the engine plays now, and a
change anywhere in a game shows as a unified diff at the step that changed."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from arena.gamekit.playthrough import difference, parse_header, playthrough_text, stored_playthroughs
from arena.gamekit.setups import random_decision
from engine.core import Game, derive_seed
from engine.registry import get_game

BUILT_IN = [get_game("wongar"), get_game("waroong")]
#: The seed games and the plugin game shipped with the examples (installed by CI like any plugin).
SHIPPED = [*BUILT_IN, get_game("liars_dice")]
STORED = [(game, path) for game in SHIPPED for path in stored_playthroughs(game)]


def test_every_variant_and_player_count_has_two_seeds() -> None:
    for game in BUILT_IN:
        names = {path.name for path in stored_playthroughs(game)}
        wanted = {f"{v.name}-{p}p-seed{s}.txt" for v in game.variants for p in range(3, 6) for s in (1, 2)}
        assert wanted <= names, f"{game.key} lacks {sorted(wanted - names)}"
    dice = get_game("liars_dice")
    names = {path.name for path in stored_playthroughs(dice)}
    assert {f"{v.name}-{p}p-seed1.txt" for v in dice.variants for p in range(2, 7)} <= names


@pytest.mark.parametrize(("game", "path"), STORED, ids=[f"{g.name}-{p.stem}" for g, p in STORED])
def test_the_engine_still_plays_each_stored_playthrough(game: Game, path: Path) -> None:
    assert difference(game, path) is None, f"{path} no longer matches: arena game check {game.name}"


def test_a_changed_step_shows_as_a_diff(tmp_path: Path) -> None:
    game = get_game("waroong")
    config = game.configure(3)
    lines = playthrough_text(game, config, 5).splitlines(keepends=True)
    chosen = next(i for i, line in enumerate(lines) if line.startswith("  chosen: ") and i > 40)
    lines[chosen] = "  chosen: 999 something else\n"
    stored = tmp_path / "changed.txt"
    stored.write_text("".join(lines), encoding="utf-8")
    diff = difference(game, stored)
    assert diff is not None
    assert "-  chosen: 999 something else\n" in diff
    changed = [line[0] for line in diff.splitlines()[2:] if line[:1] in "+-"]
    assert changed == ["-", "+"], diff


def test_the_header_says_how_to_play_it_again() -> None:
    game = get_game("wongar")
    text = playthrough_text(game, game.configure(4, "initiated"), 3)
    setup = parse_header(text.partition("\n")[0])
    assert (setup.key, setup.variant, setup.players, setup.seed) == (game.key, "initiated", 4, 3)
    assert setup.knobs == dict(game.configure(4).knobs)
    assert text.rstrip().splitlines()[-3].startswith("  scores: ")


def test_a_playthrough_of_another_game_is_refused(tmp_path: Path) -> None:
    wongar, waroong = get_game("wongar"), get_game("waroong")
    stored = tmp_path / "other.txt"
    stored.write_text(playthrough_text(wongar, wongar.configure(3), 1), encoding="utf-8")
    with pytest.raises(ValueError, match=f"playthrough of {wongar.key}, not {waroong.key}"):
        difference(waroong, stored)
    stored.write_text("not a playthrough\n", encoding="utf-8")
    with pytest.raises(ValueError, match="not an arena playthrough header"):
        difference(waroong, stored)


@pytest.mark.parametrize("name", ["wongar", "waroong"])
def test_each_seat_reads_its_own_events_in_order_each_as_often_as_it_happened(name: str) -> None:
    game = get_game(name)
    config = game.configure(3, game.default_variant)
    text = playthrough_text(game, config, 1)
    written: list[list[str]] = [[] for _ in range(3)]
    for line in text.splitlines():
        found = re.match(r"^  (all|seat \d+|seats [\d,]+) gets? event (.*)$", line)
        if found:
            who = found[1]
            seats = range(3) if who == "all" else [int(s) for s in who.split(" ")[1].split(",")]
            assert len(set(seats)) == len(seats), line
            for seat in seats:
                written[seat].append(found[2])
    state = game.start(config, 1)
    rng = random.Random(derive_seed(1, "playthrough"))
    while not state.is_over():
        state.apply(*random_decision(state, rng))
    for seat in range(3):
        seen = [json.dumps(event, sort_keys=True, ensure_ascii=False) for event in state.events(seat)[0]]
        assert written[seat] == seen, f"seat {seat}"
