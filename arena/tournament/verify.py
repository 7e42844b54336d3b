"""Checking a stored tournament's deals: that they were not chosen, and that every game replays.

With the revealed deal secret (or the organiser's, before the reveal) anyone holding the database
can check that the secret is the one committed to before play, that each stored game was dealt
from the seed its place in the schedule gives (keyed with that secret), and that replaying its
decisions from that deal gives its stored scores.
"""

from __future__ import annotations

from dataclasses import dataclass

from arena.deals import DealSecret, DealSecretError, check_commitment, engine_seed
from arena.store.db import Store
from arena.tournament.config import config_from_plain
from arena.tournament.dealbook import deal_book_path, stored_secrets
from arena.tournament.replay import replayed_otherwise
from arena.tournament.schedule import build_schedule, stored_results
from engine.core import EngineError, replay
from engine.registry import get_game


@dataclass(frozen=True, slots=True)
class Verification:
    """What a check found: games checked, how the tournament deals (``public``: from the seeds
    alone), where its secret came from, and one line per problem (none: all is well)."""

    games: int
    public: bool
    source: str
    problems: tuple[str, ...]


def verify_tournament(
    store: Store, tournament: str | None = None, supplied: DealSecret | None = None
) -> Verification:
    """Check the stored ``tournament`` (the only one when ``None``) as the module says, with its
    revealed secret, else ``supplied``, else the one in the deal book beside the database.

    Raises :class:`DealSecretError` if no secret is at hand or it is not the one committed to.
    """
    row = store.tournament(tournament)
    name = f"{store.path}: tournament {row.name!r}"
    committed = store.deal_commitment(row.name)
    secret: DealSecret | None = None
    source = "public deals: the seeds alone"
    if committed is not None:
        if committed.revealed is not None:
            secret, source = DealSecret.from_hex(committed.revealed, name), "the revealed secret"
        elif supplied is not None:
            secret, source = supplied, "the supplied secret"
        else:
            secret = stored_secrets(store.path).get(row.name)
            source = f"the secret in {deal_book_path(store.path)}"
            if secret is None:
                raise DealSecretError(
                    f"{name}: its deal secret is not revealed yet (it is once every game is "
                    "played); the organiser can check now with --deal-secret FILE"
                )
        check_commitment(secret, committed.commitment, name)
    config = config_from_plain(row.config, source=name)
    games = store.games(row.name)
    scheduled = build_schedule(config, stored_results(games) if config.rounds else None).by_id()
    problems: list[str] = []
    for stored in games:
        game_id, record = stored.placement.game_id, stored.record
        planned = scheduled.get(game_id)
        if planned is None:
            problems.append(f"game {game_id}: not in the tournament's schedule")
            continue
        if record.seed != engine_seed(secret, planned.seed):
            problems.append(f"game {game_id}: not dealt from its scheduled deal")
            continue
        try:
            final = replay(get_game(f"{record.game}@{record.version}"), record.config, record.seed,
                           [(d.seat, d.action) for d in record.decisions])
        except EngineError as exc:
            problems.append(f"game {game_id}: does not replay: {exc}")
            continue
        if not final.is_over():
            problems.append(f"game {game_id}: its decisions do not finish the game")
        elif (differs := replayed_otherwise(final, record)) is not None:
            problems.append(f"game {game_id}: {differs}")
    return Verification(len(games), committed is None, source, tuple(problems))
