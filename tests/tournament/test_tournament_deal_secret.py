"""A tournament's deal secret, with a real runner and store: drawn and committed to before play
when any bot is untrusted, kept owner-only beside the database, the same after a resume, a clear
error when lost, revealed once every game is played and checked by ``verify``; a field of trusted
bots deals from its seeds alone."""

from __future__ import annotations

import shutil
import sqlite3
import sys
from pathlib import Path

import msgpack
import pytest
from tournament_league import run_arena

from arena.deals import DealSecret, DealSecretError
from arena.rating_input import deal_settings
from arena.site.build import build_site
from arena.site.privacy import LATER, public_settings
from arena.store.db import DealCommitment, Store
from arena.tournament import TournamentError
from arena.tournament.config import TournamentConfig, config_from_plain, parse_config
from arena.tournament.dealbook import deal_book_path, stored_secrets, tournament_secret
from arena.tournament.executors import LocalExecutor
from arena.tournament.jobs import MatchJob
from arena.tournament.late import add_late_entry, late_entry
from arena.tournament.runner import RunSummary, run_tournament
from arena.tournament.schedule import build_schedule
from arena.tournament.verify import verify_tournament
from leaderboards.model import RatingSettings

#: A bot that is not built in (so not trusted), run unsandboxed so that no sandbox is needed here.
OUTSIDER = f"{sys.executable} -m bots.random"


def league(folder: Path, untrusted: bool = True) -> TournamentConfig:
    """Three bots at one table, one deal, master seed 6 (a guessable one). ``trusted = true`` (one
    process for every deal) is about processes: it keeps no bot from being an outsider."""
    first = {"name": "outsider", "bot": OUTSIDER} if untrusted else {"name": "r0", "bot": "random"}
    return parse_config(
        {"name": "keyed", "game": "wongar", "table_size": 3, "deals": 1, "seed": 6,
         "time_control": "2s", "concurrency": 1, "sandbox": False, "trusted": True,
         "bots": [first, {"name": "r1", "bot": "random"}, {"name": "r2", "bot": "random"}]},
        source="test", base=folder,
    )


def play(config: TournamentConfig, db: Path, secret: DealSecret | None = None) -> RunSummary:
    with Store(db) as store:
        return run_tournament(config, store, LocalExecutor(1, pin_cpus=False), deal_secret=secret)


def games(db: Path) -> dict[str, tuple[object, ...]]:
    """Each stored game's engine seed, decisions and scores, by id."""
    with Store(db) as store:
        return {g.placement.game_id: (g.record.seed, [(d.seat, d.action) for d in g.record.decisions],
                                      g.record.scores) for g in store.games()}


def interrupt(db: Path, keep: int, unreveal: bool = True) -> None:
    """Make ``db`` look like a run stopped after ``keep`` games: the rest (and the reveal) undone."""
    with sqlite3.connect(db) as conn:
        ids = [row[0] for row in conn.execute("SELECT id FROM games ORDER BY rowid")][keep:]
        for game_id in ids:
            conn.execute("DELETE FROM game_seats WHERE game = ?", (game_id,))
            conn.execute("DELETE FROM games WHERE id = ?", (game_id,))
        if unreveal:
            conn.execute("UPDATE deal_secrets SET revealed = NULL")


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The league with an untrusted bot, played whole once (do not change it: copy it)."""
    folder = tmp_path_factory.mktemp("keyed")
    assert play(league(folder), folder / "league.db").played == 3
    return folder / "league.db"


def copy(db: Path, folder: Path) -> Path:
    """``db`` and its deal book copied into ``folder`` (the book keeps its mode)."""
    for path in (db, deal_book_path(db)):
        shutil.copy2(path, folder / path.name)
    return folder / db.name


def test_an_untrusted_field_deals_keyed_with_a_committed_secret_revealed_at_the_end(played: Path) -> None:
    book = deal_book_path(played)
    assert book.stat().st_mode & 0o777 == 0o600
    secret = stored_secrets(played)["keyed"]
    with Store(played) as store:
        committed = store.deal_commitment("keyed")
        schedule = build_schedule(config_from_plain(store.tournament("keyed").config))
        assert committed is not None
        assert (committed.commitment, committed.revealed) == (secret.commitment(), secret.hex())
        checked = verify_tournament(store)
    seeds = {g.id: g.seed for g in schedule}
    stored = games(played)
    assert {i: s for i, (s, _, _) in stored.items()} == {i: secret.engine_seed(seeds[i]) for i in seeds}
    assert (checked.games, checked.problems, checked.source) == (3, (), "the revealed secret")


def test_a_field_of_trusted_bots_deals_from_its_seeds_alone_unless_given_a_secret(
    tmp_path: Path,
) -> None:
    config = league(tmp_path, untrusted=False)
    with Store(tmp_path / "public.db") as store:
        store.add_tournament(config.name, config.fingerprint(), config.to_plain(), [])
        assert tournament_secret(store, config) is None
        assert store.deal_commitment("keyed") is None
        assert not deal_book_path(store.path).exists()
        secret = DealSecret.draw()
        assert tournament_secret(store, config, secret) == secret  # the organiser's choice
        committed = store.deal_commitment("keyed")
        assert committed is not None and committed.commitment == secret.commitment()
    assert MatchJob.of(config, build_schedule(config).games[0]).seed == build_schedule(config).games[0].seed


def test_a_resumed_run_deals_the_rest_with_the_same_secret(played: Path, tmp_path: Path) -> None:
    db = copy(played, tmp_path)
    interrupt(db, keep=1)
    summary = play(league(played.parent), db)
    assert (summary.already, summary.played) == (1, 2)
    assert games(db) == games(played)
    with Store(db) as store:
        assert verify_tournament(store).problems == ()


def test_the_same_supplied_secret_gives_the_same_games_in_another_database(
    played: Path, tmp_path: Path
) -> None:
    play(league(played.parent), tmp_path / "again.db", stored_secrets(played)["keyed"])
    assert games(tmp_path / "again.db") == games(played)


def test_a_lost_secret_is_a_clear_error_and_only_the_committed_one_is_taken(
    played: Path, tmp_path: Path
) -> None:
    db = copy(played, tmp_path)
    interrupt(db, keep=1)
    secret = stored_secrets(db)["keyed"]
    deal_book_path(db).unlink()
    before = games(db)
    with pytest.raises(DealSecretError, match="its deal secret is missing from .*league.db.deals"):
        play(league(played.parent), db)
    with pytest.raises(DealSecretError, match="not the one committed to"):
        play(league(played.parent), db, DealSecret.draw())
    assert games(db) == before and not deal_book_path(db).exists()
    play(league(played.parent), db, secret)  # the organiser's copy of the secret
    assert games(db) == games(played) and stored_secrets(db) == {"keyed": secret}


def test_games_left_once_the_secret_is_revealed_are_not_played(played: Path, tmp_path: Path) -> None:
    db = copy(played, tmp_path)
    interrupt(db, keep=1, unreveal=False)
    with pytest.raises(TournamentError, match="revealed its deal secret, so the deals of its 2 games"):
        play(league(played.parent), db)
    assert len(games(db)) == 1


def test_a_deal_book_others_may_read_is_refused(played: Path, tmp_path: Path) -> None:
    db = copy(played, tmp_path)
    interrupt(db, keep=1)
    deal_book_path(db).chmod(0o644)
    with pytest.raises(DealSecretError, match="others may read it: chmod 600"):
        play(league(played.parent), db)


def test_verify_finds_a_game_not_dealt_from_its_deal_and_a_wrong_revealed_secret(
    played: Path, tmp_path: Path
) -> None:
    db = copy(played, tmp_path)
    with sqlite3.connect(db) as conn:
        game_id, blob = conn.execute("SELECT id, record FROM games ORDER BY rowid").fetchone()
        wire = msgpack.unpackb(blob, raw=False)
        wire["seed"] += 1
        conn.execute("UPDATE games SET record = ? WHERE id = ?", (msgpack.packb(wire), game_id))
    with Store(db) as store:
        assert verify_tournament(store).problems == (f"game {game_id}: not dealt from its scheduled deal",)
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE deal_secrets SET revealed = ?", (DealSecret.draw().hex(),))
    with Store(db) as store, pytest.raises(DealSecretError, match="not the one committed to"):
        verify_tournament(store)


def test_no_late_entry_once_the_secret_is_revealed_nor_an_untrusted_one_to_public_deals(
    played: Path, tmp_path: Path
) -> None:
    db = copy(played, tmp_path)
    with Store(db) as store, pytest.raises(TournamentError, match="secret was revealed"):
        add_late_entry(store, "keyed", late_entry("random", "late", None, False, tmp_path))
    play(league(tmp_path, untrusted=False), tmp_path / "public.db")
    with Store(tmp_path / "public.db") as store:
        with pytest.raises(TournamentError, match="plays public deals"):
            add_late_entry(store, "keyed", late_entry(OUTSIDER, "late", None, False, tmp_path))
        assert add_late_entry(store, "keyed", late_entry("greedy", "late", None, False, tmp_path))


def test_before_the_reveal_only_the_organiser_can_verify(played: Path, tmp_path: Path) -> None:
    db = copy(played, tmp_path)
    secret = stored_secrets(db)["keyed"]
    interrupt(db, keep=1)
    with Store(db) as store:
        assert verify_tournament(store).source == f"the secret in {deal_book_path(db)}"
        deal_book_path(db).unlink()
        with pytest.raises(DealSecretError, match="not revealed yet"):
            verify_tournament(store)
        checked = verify_tournament(store, supplied=secret)
    assert (checked.games, checked.problems, checked.source) == (1, (), "the supplied secret")


def test_status_shows_the_commitment_and_verify_checks_from_the_command_line(played: Path) -> None:
    secret = stored_secrets(played)["keyed"]
    status = run_arena("tournament", "status", "--db", str(played), cwd=played.parent)
    assert f"commitment {secret.commitment()}, revealed: {secret.hex()}" in status.stdout.replace("\n", "")
    done = run_arena("tournament", "verify", "--db", str(played), cwd=played.parent)
    assert done.returncode == 0, done.stderr
    assert "verified 3 games" in done.stdout


def test_the_site_publishes_the_commitment_during_play_and_the_secret_after(
    played: Path, tmp_path: Path
) -> None:
    secret = stored_secrets(played)["keyed"]
    with Store(played) as store:
        build_site(store, tmp_path / "after", settings=RatingSettings(bootstrap_samples=4))
    after = (tmp_path / "after" / "index.html").read_text(encoding="utf-8")
    assert secret.commitment() in after and secret.hex() in after
    db = copy(played, tmp_path)
    interrupt(db, keep=1)
    with Store(db) as store:
        build_site(store, tmp_path / "during", settings=RatingSettings(bootstrap_samples=4))
    during = "".join(p.read_text(encoding="utf-8") for p in (tmp_path / "during").rglob("*.*")
                     if p.suffix in (".html", ".js", ".json"))
    assert secret.commitment() in during and secret.hex() not in during


def test_published_settings_hide_the_master_seed_and_a_deal_secret_while_running() -> None:
    settings = {"seed": 6, "deal_commitment": "c0ffee", "deal_secret": "5ec12e7"}
    assert public_settings(settings, running=True) == {
        "seed": LATER, "deal_commitment": "c0ffee", "deal_secret": LATER}
    assert public_settings(settings) == settings
    assert deal_settings(None) == {}
    assert deal_settings(DealCommitment("c0ffee")) == {"deal_commitment": "c0ffee"}
