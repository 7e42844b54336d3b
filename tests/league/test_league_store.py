"""The league in the store and on the command line, without playing: schema 6 keeps every stored
game of an older store; config, entrant and command errors are one clear line and exit 2 with
nothing changed; versions, retirement and the table template behave as documented."""

from __future__ import annotations

import sqlite3
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from arena.cli.app import app
from arena.errors import ArenaError
from arena.league.book import (
    RatingRow,
    TableRow,
    add_ratings,
    add_table,
    entrants,
    league,
    ratings_history,
    tables,
)
from arena.league.config import label, load_league_config, table_config, table_name, unlabel
from arena.league.run import league_state
from arena.league.site import build_league_site
from arena.live.watch import Watch
from arena.store.db import BotRow, Placement, Store
from arena.store.migrations import MIGRATIONS
from arena.tournament.config import BotEntry
from arena.tournament.schedule import build_schedule
from arena.record import MatchRecord
from tests.site.site_league import play

runner = CliRunner()

CONFIG = """name = "spring"
game = "wongar"
variant = "basic"
table_size = 3
time_control = "1s"
seed = 7
{extra}
[[bots]]
name = "random"
bot = "random"

[[bots]]
name = "greedy"
bot = "greedy"
nodes = 4

[[bots]]
name = "ismcts"
bot = "ismcts"
nodes = 20
"""


def arena(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, " ".join(result.output.split())


@pytest.fixture
def db(tmp_path: Path) -> Path:
    config = tmp_path / "league.toml"
    config.write_text(CONFIG.format(extra="[matchmaking]\nplacement_games = 6\n"))
    path = tmp_path / "l.db"
    code, out = arena("league", "init", str(config), "--db", str(path))
    assert code == 0, out
    return path


def versions(db: Path) -> list[tuple[str, int, bool]]:
    with Store(db) as store:
        return [(v.bot, v.version, v.active) for v in entrants(store, "spring")]


def test_a_schema_5_store_gains_the_league_tables_and_keeps_its_games(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    record = MatchRecord(game="wongar", version=1, variant="basic", knobs={}, seed=3,
                         bots=("a", "b"), decisions=(), faults=(), scores=(1, 2), ranks=(2, 1),
                         duration=0.1)
    with Store(path) as store:
        store.add_tournament("t", "f", {"n": 1}, [BotRow(n, "1", ("x",), "h") for n in "ab"])
        store.add_game("t", Placement("g1", 0, 0, 0, 0), record)
    raw = sqlite3.connect(path)
    for table in ("league_owners", "league_submissions", "league_ratings", "league_tables",
                  "league_entrants", "leagues"):
        raw.execute(f"DROP TABLE {table}")
    raw.execute("PRAGMA user_version = 5")
    raw.commit()
    raw.close()
    with Store(path) as store:
        assert store.schema_version() == len(MIGRATIONS) == 8
        assert [g.record for g in store.games("t")] == [record]
        assert store.rows("SELECT count(*) FROM league_entrants") == [(0,)]


def test_a_schema_6_store_keeps_its_ratings_as_exact_fits(db: Path) -> None:
    raw = sqlite3.connect(db)
    for table in ("league_owners", "league_submissions", "league_ratings"):
        raw.execute(f"DROP TABLE {table}")
    raw.execute("CREATE TABLE league_ratings (league TEXT NOT NULL, tables INTEGER NOT NULL, "
                "bot TEXT NOT NULL, version INTEGER NOT NULL, elo REAL NOT NULL, sd REAL NOT NULL, "
                "games INTEGER NOT NULL, PRIMARY KEY (league, tables, bot, version))")
    raw.execute("INSERT INTO league_ratings VALUES ('spring', 2, 'greedy', 1, 1550.5, 40.0, 6)")
    raw.execute("PRAGMA user_version = 6")
    raw.commit()
    raw.close()
    with Store(db) as store:
        assert store.schema_version() == 8
        assert ratings_history(store, "spring") == [RatingRow(2, "greedy", 1, 1550.5, 40.0, 6, True)]
        add_ratings(store, "spring", [RatingRow(2, "greedy", 1, 1540.0, 45.0, 6, False)])
        assert [r.exact for r in ratings_history(store, "spring")] == [False, True]


def test_init_stores_the_league_and_version_1_of_each_bot(db: Path) -> None:
    assert versions(db) == [("greedy", 1, True), ("ismcts", 1, True), ("random", 1, True)]
    with Store(db) as store:
        row = league(store, None)
        assert row.policy.placement_games == 6 and row.table_size == 3
        assert "bots" not in row.template and tables(store, "spring") == []
        greedy = [v for v in entrants(store, "spring") if v.bot == "greedy"][0]
        assert greedy.entry.nodes == 4 and greedy.arrived == 0


def test_update_retires_the_old_version_and_retire_keeps_it_listed(db: Path) -> None:
    assert arena("league", "update", "greedy", "greedy", "--nodes", "8", "--db", str(db)) == (
        0, "added greedy@2; greedy@1 retired")
    assert arena("league", "retire", "random", "--db", str(db)) == (0, "retired random@1")
    assert arena("league", "add", "late", "random", "--db", str(db)) == (0, "added late@1")
    assert versions(db) == [("greedy", 1, False), ("ismcts", 1, True), ("random", 1, False),
                            ("greedy", 2, True), ("late", 1, True)]
    code, out = arena("league", "history", "greedy", "--db", str(db))
    assert code == 0 and "greedy@1: arrived after table 0, retired" in out
    assert "greedy@2: arrived after table 0, active" in out and "no rating yet" in out
    code, out = arena("league", "status", "--db", str(db))
    assert code == 0 and "0 tables (0 whole), 0 games" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("add", "greedy", "greedy"), "league 'spring' already has a bot 'greedy'; submit a new "
         "version with: arena league update greedy BOT"),
        (("update", "nobody", "greedy"), "league 'spring' has no bot 'nobody'; add it with: "
         "arena league add nobody BOT"),
        (("add", "a@b", "greedy"), "bot name 'a@b': must be non-empty, without spaces, control characters, "
         "'@', '/' or '\\', and not start with '.'"),
        (("add", "a/b", "greedy"), "bot name 'a/b': must be non-empty"),
        (("add", "..", "greedy"), "bot name '..': must be non-empty"),
        (("add", "x", "no-such-bot-anywhere.toml"), "league add:"),
        (("add", "x", "greedy", "--nodes", "0"), "league add: --nodes must be at least 1, not 0"),
        (("retire", "nobody"), "league 'spring' has no bot 'nobody'"),
        (("history", "nobody"), "league 'spring' has no bot 'nobody'"),
        (("ladder",), "league 'spring' has no stored games yet"),
        (("status", "--league", "autumn"), "no league named 'autumn'"),
    ],
)
def test_bad_entrant_commands_fail_in_one_line_and_change_nothing(
    db: Path, args: tuple[str, ...], message: str
) -> None:
    before = versions(db)
    code, out = arena("league", *args, "--db", str(db))
    assert code == 2 and out.startswith("error:") and message in out
    assert versions(db) == before


def test_a_bot_that_cannot_start_is_refused_before_anything_is_stored(db: Path, tmp_path: Path) -> None:
    """The league would stop at the bot's first table: init, add and update start it first."""
    broken = f"{sys.executable} {tmp_path / 'missing.py'}"
    before = versions(db)
    for verb, name in (("add", "broken"), ("update", "greedy")):
        code, out = arena("league", verb, name, broken, "--trusted", "--db", str(db))
        assert code == 2 and out.startswith(f"error: bot '{name}' cannot start: "), out
        assert "Nothing was stored: fix the bot, or give --no-check" in out
    assert versions(db) == before
    config = tmp_path / "broken.toml"
    config.write_text(CONFIG.format(extra="") + f'[[bots]]\nname = "broken"\nbot = "{broken}"\ntrusted = true\n')
    code, out = arena("league", "init", str(config), "--db", str(tmp_path / "new.db"))
    assert code == 2 and "bot 'broken' cannot start: " in out and not (tmp_path / "new.db").exists()
    # Where only the cluster's machines can start it, the organiser says so.
    code, out = arena("league", "add", "broken", broken, "--trusted", "--no-check", "--db", str(db))
    assert (code, out) == (0, "added broken@1")


def test_retiring_twice_and_running_short_of_bots_are_refused(db: Path) -> None:
    assert arena("league", "retire", "random", "--db", str(db))[0] == 0
    code, out = arena("league", "retire", "random", "--db", str(db))
    assert code == 2 and "league 'spring' has no active version of 'random'" in out
    code, out = arena("league", "run", "--db", str(db), "--tables", "1")
    assert code == 2 and "league 'spring' has 2 active bots and a table seats 3" in out
    with Store(db) as store:
        assert tables(store, "spring") == []


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ('format = "swiss"', "format: not a league setting"),
        ("deals = 4", "deals: not a league setting"),
        ("[matchmaking]\nplacement = 3", "matchmaking.placement: unknown setting"),
        ("[matchmaking]\nplacement_games = 0", "matchmaking.placement_games: expected a whole "
         "number from 1 to 10,000, got 0"),
        ("[matchmaking]\nsure_z = 0", "matchmaking.sure_z: expected a number above 0 and at most 1,000, got 0"),
        ("[matchmaking]\ntop_weight = 1e308", "matchmaking.top_weight: expected a number from 0 to 1,000,000"),
        ("[matchmaking]\nprior_sd = nan", "matchmaking.prior_sd: expected a number from 0 to 10,000, got nan"),
        ('[matchmaking]\ntop = "five"', "matchmaking.top: expected a whole number"),
        ("[matchmaking]\nprior_sd = -1.0", "matchmaking.prior_sd: expected a number from 0 to 10,000"),
        ('matchmaking = 3', "matchmaking: expected a table, got 3"),
        ('knobs = { no_such_knob = 1 }', "no_such_knob"),
    ],
)
def test_bad_configs_are_refused_naming_the_key(tmp_path: Path, extra: str, message: str) -> None:
    config = tmp_path / "league.toml"
    config.write_text(CONFIG.format(extra=extra))
    with pytest.raises(ArenaError) as caught:
        load_league_config(config)
    assert message in str(caught.value)
    code, out = arena("league", "init", str(config), "--db", str(tmp_path / "x.db"))
    assert code == 2 and message in out


def test_init_twice_and_a_missing_database_are_refused(db: Path, tmp_path: Path) -> None:
    config = tmp_path / "league.toml"
    code, out = arena("league", "init", str(config), "--db", str(db))
    assert code == 2 and "league 'spring' already exists" in out
    code, out = arena("league", "run", "--db", str(tmp_path / "none.db"))
    assert code == 2 and "no results database here" in out
    assert not (tmp_path / "none.db").exists()


def test_a_table_is_one_round_robin_table_of_its_versions_with_its_own_seed(db: Path) -> None:
    with Store(db) as store:
        row = league(store, None)
        seats = [(("greedy", 1), BotEntry("greedy", "greedy", nodes=4)),
                 (("ismcts", 2), BotEntry("ismcts", "ismcts", nodes=20)),
                 (("random", 1), BotEntry("random", "random"))]
        first = table_config(row.template, "spring", 4, seats, 2)
        second = table_config(row.template, "spring", 5, seats, 2)
    assert first.name == "spring#4" and [b.name for b in first.bots] == [
        "greedy@1", "ismcts@2", "random@1"]
    assert [unlabel(b.name) for b in first.bots] == [key for key, _ in seats]
    assert first.bot("greedy@1").nodes == 4 and first.concurrency == 2
    games = list(build_schedule(first))
    assert len(games) == 3 and {g.deal for g in games} == {0} and {g.table for g in games} == {0}
    assert {tuple(g.bots) for g in games} == {("greedy@1", "ismcts@2", "random@1"),
                                             ("ismcts@2", "random@1", "greedy@1"),
                                             ("random@1", "greedy@1", "ismcts@2")}
    assert first.seed != second.seed and first.seed == table_config(
        row.template, "spring", 4, seats, 1).seed


def test_the_matchmaker_reads_each_versions_tables_from_the_decided_tables(db: Path) -> None:
    with Store(db) as store:
        row = league(store, None)
        decided = [TableRow(0, "spring#0", (("greedy", 1), ("ismcts", 1), ("random", 1)), "due"),
                   TableRow(1, "spring#1", (("greedy", 1), ("ismcts", 1), ("random", 1)), "due")]
        state = league_state(row, entrants(store, "spring"), decided, None)
    assert state.played == 2 and state.recent == tuple(t.seats for t in decided)
    assert {e.key: e.tables for e in state.entrants} == {
        ("greedy", 1): 2, ("ismcts", 1): 2, ("random", 1): 2}


def test_a_tournament_stored_under_a_table_name_stops_the_league_before_it_takes_the_table(
    db: Path, tmp_path: Path
) -> None:
    outside = tmp_path / "outside.toml"
    outside.write_text('name = "spring#0"\ngame = "wongar"\ntable_size = 3\ndeals = 1\ntime_control = "5s"\n'
                       'seed = 1\n' + "".join(f'[[bots]]\nname = "r{i}"\nbot = "random"\n\n' for i in range(3)))
    code, out = arena("tournament", "run", str(outside), "--db", str(db))
    assert code == 0, out
    code, out = arena("league", "run", "--db", str(db), "--tables", "1")
    assert code == 2
    assert f"{db} holds a tournament named 'spring#0', the name of league 'spring''s table 0" in out
    with Store(db) as store:
        assert tables(store, "spring") == [] and {e.bot for e in entrants(store, "spring")} == {"random", "greedy", "ismcts"}


def test_the_leaderboard_of_a_league_database_points_to_its_ladder(db: Path) -> None:
    code, out = arena("leaderboard", "--db", str(db))
    assert code == 2
    assert f"{db} holds league 'spring', a tournament per table: its ladder is arena league ladder --db {db}" in out


def test_a_leagues_games_are_numbered_by_its_tables_on_the_site_and_the_live_page(
    db: Path, tmp_path: Path
) -> None:
    """Each table is a tournament of its own, whose games all sit at its table 0."""
    with Store(db) as store:
        seats = tuple(v.key for v in entrants(store, "spring"))
        bots = tuple(label(key) for key in seats)
        for number in range(2):
            tournament = table_name("spring", number)
            add_table(store, "spring", TableRow(number, tournament, seats, "placement"))
            store.add_tournament(tournament, "f", {"n": number}, [BotRow(b, "1", ("x",), "h") for b in bots])
            for rotation in range(3):
                record = play("waroong", "five-stars", 10 * number, bots[rotation:] + bots[:rotation])
                store.add_game(tournament, Placement(f"g{number}r{rotation}", 0, 0, 0, rotation), record)
        build_league_site(store, tmp_path / "site")
    listed = (tmp_path / "site" / "games.html").read_text(encoding="utf-8")
    assert all(f"<td>{n + 1}.1.{r + 1}</td>" in listed for n in range(2) for r in range(3)), listed
    cards = Watch(db).snapshot()["finished"]
    assert sorted((c["id"], c["table"], c["rotation"]) for c in cards) == [
        (f"g{n}r{r}", n, r) for n in range(2) for r in range(3)]
