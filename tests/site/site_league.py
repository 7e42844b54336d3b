"""A stored tournament for the site's tests, made quickly: every scheduled game of a real config
played to the end through the engine by seeded random choices (no bot processes), with a fault
for the bot called ``faulty`` and ``info`` maps that try to inject markup, committed to a real
results database."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import pytest

from arena.record import DecisionRecord, Fault, FaultKind, MatchRecord
from arena.site.build import SiteReport, build_site
from arena.store.db import BotRow, Placement, Store
from arena.tournament.config import load_config
from arena.tournament.schedule import build_schedule
from engine.registry import get_game
from leaderboards.model import RatingSettings

#: A value that must never reach a published file.
SECRET = "s3cr3t-token-value"
#: A bot name that is markup (and not a safe file name).
BETA = "beta <i>bot</i> & co"
#: An ``info`` text that would run script if it were ever treated as markup.
MARKUP = '<img src="http://127.0.0.1:9/leak.png" onerror="document.title=\'pwned\'">'

CONFIG = """
name = "{name}"
game = "{game}"
variant = "{variant}"
table_size = 3
deals = 1
time_control = "1s"
seed = 11
[[bots]]
name = "alpha"
bot = "random"
env = {{ ARENA_SEED = "1", API_TOKEN = "{secret}" }}
[[bots]]
name = "{beta}"
bot = "greedy"
[[bots]]
name = "faulty"
bot = "python3 faulty_bot.py --level 3"
"""


def store_league(folder: Path, game: str, variant: str, unplayed: int = 0, forfeit: bool = False) -> Path:
    """``folder/<game>.db`` holding the tournament of :data:`CONFIG` for ``game``, all but its
    last ``unplayed`` scheduled games; with ``forfeit``, ``faulty`` crashes after its illegal
    reply and forfeits every game."""
    toml = folder / f"{game}.toml"
    toml.write_text(CONFIG.format(name=f"{game}-night", game=game, variant=variant, secret=SECRET, beta=BETA))
    (folder / "faulty_bot.py").write_text("raise SystemExit(0)\n")
    config = load_config(toml)
    path = folder / f"{game}.db"
    with Store(path) as store:
        store.add_tournament(config.name, config.fingerprint(), config.to_plain(), [
            BotRow(b.name, "1.0", ("python3", "-m", "bots.random", "--depth", "4"), f"files-{b.name}")
            for b in config.bots
        ])
    play_scheduled(path, game, variant, len(build_schedule(config).games) - unplayed, forfeit)
    return path


def play_scheduled(path: Path, game: str, variant: str, count: int, forfeit: bool = False) -> None:
    """Play and store the first ``count`` scheduled games of :func:`store_league`'s tournament in
    ``path`` that are not stored yet."""
    config = load_config(path.with_suffix(".toml"))
    with Store(path) as store:
        stored = store.stored_ids(config.name)
        for scheduled in build_schedule(config).games[:count]:
            if scheduled.id in stored:
                continue
            placement = Placement(scheduled.id, scheduled.generation, scheduled.table,
                                  scheduled.deal, scheduled.rotation)
            record = play(game, variant, scheduled.seed, scheduled.bots)
            store.add_game(config.name, placement, crash_faulty(record) if forfeit else record)


def play(game_name: str, variant: str, seed: int, bots: tuple[str, ...]) -> MatchRecord:
    """A whole game by seeded random choices; ``faulty`` makes an illegal reply at its 3rd turn."""
    game = get_game(game_name)
    config = game.configure(len(bots), variant, {})
    state = game.start(config, seed)
    rng = random.Random(seed)
    decisions: list[DecisionRecord] = []
    faults: list[Fault] = []
    turns = [0] * len(bots)
    while not state.is_over():
        seat = state.to_move()[0]
        action = rng.choice(state.legal_actions(seat))
        turns[seat] += 1
        faulted = bots[seat] == "faulty" and turns[seat] == 3
        if faulted:
            faults.append(Fault(seat, FaultKind.ILLEGAL, len(decisions), "action 99999 is not legal now"))
        info = {"depth": turns[seat], "note": MARKUP} if bots[seat] == "alpha" else None
        decisions.append(DecisionRecord(seat, action, 0.001 * (1 + seat), info, faulted))
        state.apply(seat, action)
    result = state.result()
    return MatchRecord(
        game=game_name, version=game.version, variant=config.variant, knobs=dict(config.knobs),
        seed=seed, bots=bots, decisions=tuple(decisions), faults=tuple(faults),
        scores=result.scores, ranks=result.ranks, duration=0.5, detail={"result": result.detail},
    )


def crash_faulty(record: MatchRecord) -> MatchRecord:
    """``record`` with ``faulty`` crashing after its last decision and forfeiting: ranked last,
    whatever its score."""
    seat = record.bots.index("faulty")
    others = [record.scores[s] for s in range(record.players) if s != seat]
    ranks = tuple(record.players if s == seat else 1 + sum(o > record.scores[s] for o in others)
                  for s in range(record.players))
    crash = Fault(seat, FaultKind.CRASH, len(record.decisions), "exited with status 1")
    return replace(record, faults=record.faults + (crash,), forfeited=(seat,), ranks=ranks)


_published: dict[str, tuple[Path, SiteReport]] = {}


def published(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, SiteReport]]:
    """A stored tournament of each game and its published site, ``{game: (database, site)}``,
    made once per test run (the site tests and the browser tests share them)."""
    if not _published:
        folder = tmp_path_factory.mktemp("leagues")
        for game, variant in (("wongar", "basic"), ("waroong", "five-stars")):
            db = store_league(folder, game, variant)
            with Store(db) as store:
                site = build_site(store, folder / f"site-{game}", settings=RatingSettings(bootstrap_samples=10))
            _published[game] = (db, site)
    return _published
