"""``arena league``: create a continuous league, manage its entrants, run it, read its ladder."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from arena.cli.common import console, fail, inert, say, user_errors
from arena.cli.leaderboard import BoardFormat
from arena.cli.results import DEFAULT_DB, DbOpt, open_store
from arena.cli.running import ClusterOpt, match_executor, require_sandbox, runner_lock
from arena.league.book import (
    LeagueRow,
    add_entrant,
    create_league,
    entrants,
    league,
    ratings_history,
    retire_entrant,
    tables,
    update_entrant,
)
from arena.league.config import SETTLE_SECONDS, Intake, LeagueError, label, load_league_config
from arena.league.fit import PROVISIONAL_SD, league_games, league_outcomes
from arena.league.matchmaking import EntrantKey
from arena.league.owners import owner_folder, owner_token
from arena.league.run import play_league
from arena.league.site import league_board
from arena.league.submissions import SEEN, Submission, intake, submissions
from arena.site.build import private_board
from arena.manifest import builtin_bots
from arena.store.db import Store
from arena.tournament import TournamentError
from arena.tournament.config import BotEntry
from arena.tournament.plan import default_concurrency
from arena.tournament.late import late_entry
from arena.tournament.scratch import runner_scratch
from arena.tournament.startcheck import start_failures, start_refusal
from leaderboards.render_json import render_json
from leaderboards.render_html import render_html
from leaderboards.render_markdown import render_markdown
from leaderboards.render_table import render_table

league_app = typer.Typer(
    help="A continuous league: entrants and new versions come and go, and `arena league run` "
    "chooses and plays duplicate tables, several at once on one pool of match slots.\n\n"
    "\b\nExamples:\n"
    "  arena league init league.toml --db league.db\n"
    "  arena league run --db league.db -j 2\n"
    "  arena league run --db league.db --submissions uploads/\n"
    "  arena league intake --db league.db\n"
    "  arena league token alice --db league.db\n"
    "  arena league ladder --db league.db",
    no_args_is_help=True,
)

LeagueOpt = Annotated[
    str | None, typer.Option("--league", "-l", help="The league (default: the only one stored).")
]
NameArg = Annotated[str, typer.Argument(help="The bot's name in the league.", show_default=False)]
BotArg = Annotated[
    str,
    typer.Argument(help="A built-in bot's name, a command line (run in the current folder) or a "
                   "manifest file.", show_default=False),
]
NodesOpt = Annotated[int | None, typer.Option("--nodes", help="A node budget, given as ARENA_NODES.")]
SubmissionsOpt = Annotated[
    Path | None,
    typer.Option("--submissions", help="The watched submissions folder (instead of the config's).",
                 show_default=False),
]
TrustedOpt = Annotated[
    bool, typer.Option("--trusted", help="The organiser's own bot: it may run unsandboxed.")
]
CheckOpt = Annotated[bool, typer.Option(
    "--check/--no-check",
    help="Start each bot here first, as the league will, and store nothing if one cannot start "
         "(--no-check: for a bot that starts only on the cluster's machines).")]


def _require_start(entries: list[BotEntry], check: bool) -> None:
    """With ``check``, exit 2 naming each bot of ``entries`` (built-in and remote bots aside) that
    cannot start here, in its sandbox unless trusted: the league would stop at its first table."""
    own = [entry for entry in entries if entry.bot not in builtin_bots() and not entry.remote]
    failures = start_failures(own) if check and own else {}
    if failures:
        raise fail(f"{start_refusal(failures)}. Nothing was stored: fix the bot, or give --no-check "
                   "if it starts only on the cluster's machines")


def _entry(name: str, bot: str, nodes: int | None, trusted: bool, command: str) -> BotEntry:
    """The entry ``league add`` or ``update`` was given; exit 2 if it does not resolve here."""
    try:
        return late_entry(bot, name, nodes, trusted, Path.cwd())
    except TournamentError as exc:
        raise fail(f"league {command}: {str(exc).removeprefix('add-bot: ')}") from None


def _store_entrant(store_it: Callable[[Store, LeagueRow, BotEntry], EntrantKey], db: Path,
                   league_name: str | None, entry: BotEntry, check: bool) -> EntrantKey:
    """Store ``entry`` in the league of ``db`` with ``store_it`` (adding or updating), once it
    has started here (with ``check``)."""
    with open_store(db) as store:
        with user_errors():
            row = league(store, league_name)
        _require_start([entry], check)
        with user_errors():
            return store_it(store, row, entry)


@league_app.command("init")
def init_command(
    config: Annotated[Path, typer.Argument(help="The league config (TOML).", show_default=False)],
    db: DbOpt = DEFAULT_DB,
    check: CheckOpt = True,
) -> None:
    """Store a new league and its first entrants (version 1 each); nothing is played yet.

    \b
    Examples:
      arena league init league.toml --db league.db
    """
    with user_errors():
        parsed = load_league_config(config)
    _require_start(list(parsed.template.bots), check)
    with open_store(db, must_exist=False) as store, user_errors():
        create_league(store, parsed)
    say(f"league {parsed.name} created in {db} with {len(parsed.template.bots)} bots; "
        f"play it with: arena league run --db {db}")


@league_app.command("add")
def add_command(name: NameArg, bot: BotArg, db: DbOpt = DEFAULT_DB, league_name: LeagueOpt = None,
                nodes: NodesOpt = None, trusted: TrustedOpt = False, check: CheckOpt = True) -> None:
    """Add a new bot to the league (version 1); it plays its first tables at once.

    \b
    Examples:
      arena league add alice "python3 alice.py" --db league.db
      arena league add deep ismcts --nodes 200 --db league.db
    """
    key = _store_entrant(add_entrant, db, league_name, _entry(name, bot, nodes, trusted, "add"), check)
    say(f"added {label(key)}")


@league_app.command("update")
def update_command(name: NameArg, bot: BotArg, db: DbOpt = DEFAULT_DB,
                   league_name: LeagueOpt = None, nodes: NodesOpt = None,
                   trusted: TrustedOpt = False, check: CheckOpt = True) -> None:
    """Submit a new version of a bot: the version before is retired (it keeps its games and its
    history) and the new one is rated on its own.

    \b
    Examples:
      arena league update alice "python3 alice2.py" --db league.db
    """
    key = _store_entrant(update_entrant, db, league_name, _entry(name, bot, nodes, trusted, "update"), check)
    say(f"added {label(key)}" + (f"; {label((key[0], key[1] - 1))} retired"))


@league_app.command("retire")
def retire_command(name: NameArg, db: DbOpt = DEFAULT_DB, league_name: LeagueOpt = None) -> None:
    """Retire a bot's active version: it plays no more tables and keeps its games and history.

    \b
    Examples:
      arena league retire alice --db league.db
    """
    with open_store(db) as store, user_errors():
        key = retire_entrant(store, league(store, league_name), name)
    say(f"retired {label(key)}")


@league_app.command("run")
def run_command(
    db: DbOpt = DEFAULT_DB,
    league_name: LeagueOpt = None,
    jobs: Annotated[int, typer.Option(
        "--jobs", "-j", min=0,
        help="Games in play at once, across tables (one pool); 0: from the cores, or with "
        "--cluster its threads.")] = 0,
    cluster: ClusterOpt = None,
    count: Annotated[int | None, typer.Option("--tables", min=1,
                                              help="Stop after this many new tables.")] = None,
    folder: SubmissionsOpt = None,
    exact_every: Annotated[int, typer.Option(
        "--exact-every", min=1,
        help="Refit the ratings exactly every this many tables (a cheap step after the others; "
        "always exactly at the end).")] = 10,
) -> None:
    """Play the league until stopped (Ctrl-C) or for --tables new tables, -j games at a time
    across several tables. Tables cut short are completed by the next run first. Before each new
    table the submissions folder (the config's [submissions], or --submissions) is looked at:
    settled new bots and versions are validated and join the league.

    \b
    Examples:
      arena league run --db league.db -j 2
      arena league run --db league.db --tables 10
      arena league run --db league.db --submissions uploads/
      arena league run --db league.db --cluster tcp://scheduler:8786
    """
    if not db.exists():
        raise fail(f"{db}: no results database here (give --db PATH)")
    with runner_lock(db) as lock, open_store(db) as store:
        with user_errors():
            row = _watching(league(store, league_name), folder)
        workers = jobs or (0 if cluster else default_concurrency(row.table_size))
        executor = match_executor(cluster, workers,
                                  pin_cpus=bool(row.template.get("pin_cpus", False)))
        try:
            with user_errors(), runner_scratch():
                summary = play_league(store, row, executor, limit=count, guard=lock.check,
                                      say=say, admit=require_sandbox, exact_every=exact_every)
        except KeyboardInterrupt:
            say(f"stopped: every stored game is kept; tables cut short are completed by: "
                f"arena league run --db {db}", err=True)
            raise typer.Exit(130) from None
    say(f"played {summary.tables} new tables" +
        (f" and completed {summary.completed}" if summary.completed else "") +
        f": {summary.games} games stored" +
        (f", {summary.voided} void by a host fault and played again" if summary.voided else ""))


@league_app.command("intake")
def intake_command(db: DbOpt = DEFAULT_DB, league_name: LeagueOpt = None,
                   folder: SubmissionsOpt = None) -> None:
    """Look at the submissions folder once, as `arena league run` does before each table: note
    new content, validate settled content and add it (a new bot or version) or refuse it, and
    rewrite the owners' fault reports. Refused while a run holds the database.

    \b
    Examples:
      arena league intake --db league.db
      arena league intake --db league.db --submissions uploads/
    """
    if not db.exists():
        raise fail(f"{db}: no results database here (give --db PATH)")
    with runner_lock(db) as lock, open_store(db) as store, user_errors():
        row = _watching(league(store, league_name), folder)
        if row.submissions is None:
            raise LeagueError(f"league {row.name!r} watches no submissions folder; give one with "
                              "--submissions DIR or [submissions] folder in its config")
        intake(store, row, lock.check, say)
        waiting = sum(s.state == SEEN for s in submissions(store, row.name))
    say(f"intake done: {waiting} submission(s) waiting to settle" if waiting else "intake done")


@league_app.command("token")
def token_command(name: NameArg, db: DbOpt = DEFAULT_DB, league_name: LeagueOpt = None) -> None:
    """Print a bot's owner token and its private folder (its games' output, its faults, its
    validation verdicts), made the first time it is asked for. Give the folder's contents to the
    bot's author alone.

    \b
    Examples:
      arena league token alice --db league.db
    """
    with open_store(db) as store, user_errors():
        row = league(store, league_name)
        if not any(v.bot == name for v in entrants(store, row.name)) and not any(
                s.bot == name for s in submissions(store, row.name)):
            raise LeagueError(f"league {row.name!r} has no bot {name!r}")
        token = owner_token(store, row.name, name)
        folder = owner_folder(store, row.name, name)
    print(token)
    say(f"owner folder: {folder.resolve()}", err=True)


def _watching(row: LeagueRow, folder: Path | None) -> LeagueRow:
    """``row`` watching ``folder`` instead of its configured submissions folder, if given."""
    if folder is None:
        return row
    settle = SETTLE_SECONDS if row.submissions is None else row.submissions.settle
    return replace(row, submissions=Intake(str(folder.resolve()), settle))


@league_app.command("status")
def status_command(db: DbOpt = DEFAULT_DB, league_name: LeagueOpt = None) -> None:
    """The league's tables and games, every version with its tables and latest rating, and the
    latest look at each submitted bot (waiting to settle, accepted, or refused and why).

    \b
    Examples:
      arena league status --db league.db
    """
    with open_store(db) as store, user_errors():
        row = league(store, league_name)
        versions = entrants(store, row.name)
        decided = tables(store, row.name)
        games = league_outcomes(store, row.name)
        latest = _latest(store, row)
        whole = sum(len(store.stored_ids(t.tournament)) >= len(t.seats) for t in decided)
        looks = submissions(store, row.name)
    say(f"league {row.name}: {row.template['game']}, {row.table_size} seats, "
        f"{row.template['time_control']}; {len(decided)} tables ({whole} whole), "
        f"{len(games)} games")
    table = Table("bot", "version", "state", "tables", "Elo", "±", title=None)
    played = {key: sum(key in t.seats for t in decided) for key in (v.key for v in versions)}
    for v in versions:
        rating = latest.get(v.key)
        table.add_row(inert(v.bot), str(v.version), "active" if v.active else "retired",
                      str(played[v.key]),
                      "" if rating is None else f"{rating[0]:.0f}",
                      "" if rating is None else _error(rating[1]))
    console.print(table)
    for look in _latest_looks(looks):
        say(f"submission {look.bot}: " + (
            "waiting to settle" if look.state == SEEN else
            f"accepted as {look.bot}@{look.version}" if look.reason is None else
            f"refused: {look.reason}"))


def _latest_looks(looks: list[Submission]) -> list[Submission]:
    """The latest look at each submitted name, by name."""
    latest = {look.bot: look for look in sorted(looks, key=lambda s: s.seen)}
    return [latest[bot] for bot in sorted(latest)]


@league_app.command("ladder")
def ladder_command(
    db: DbOpt = DEFAULT_DB,
    league_name: LeagueOpt = None,
    output: Annotated[
        BoardFormat, typer.Option("--format", "-f", help="table, md (Markdown), json or html.")
    ] = BoardFormat.TABLE,
) -> None:
    """The leaderboard of every version that has played (each version is rated on its own, as
    bot@version), built like `arena leaderboard`'s.

    \b
    Examples:
      arena league ladder --db league.db
      arena league ladder --db league.db --format md > ladder.md
    """
    with open_store(db) as store, user_errors():
        row = league(store, league_name)
        board = private_board(league_board(row, league_games(store, tables(store, row.name))),
                              include_commands=False)
    if output is BoardFormat.TABLE:
        console.print(render_table(board))
        return
    render = {BoardFormat.MD: render_markdown, BoardFormat.JSON: render_json,
              BoardFormat.HTML: render_html}
    print(render[output](board), end="")


@league_app.command("history")
def history_command(name: NameArg, db: DbOpt = DEFAULT_DB, league_name: LeagueOpt = None) -> None:
    """The rating of each version of a bot after every fit (a ? marks a provisional rating, a ~
    a cheap step between exact fits).

    \b
    Examples:
      arena league history alice --db league.db
    """
    with open_store(db) as store, user_errors():
        row = league(store, league_name)
        versions = [v for v in entrants(store, row.name) if v.bot == name]
        if not versions:
            raise LeagueError(f"league {row.name!r} has no bot {name!r}")
        history = ratings_history(store, row.name, name)
    table = Table("version", "after table", "games", "Elo", "±")
    for r in history:
        table.add_row(str(r.version), str(r.tables) + ("" if r.exact else " ~"), str(r.games),
                      f"{r.elo:.0f}", _error(r.sd))
    for v in versions:
        say(f"{label(v.key)}: arrived after table {v.arrived}, "
            + ("active" if v.active else "retired"))
    if history:
        console.print(table)
    else:
        say("no rating yet: it has not played")


def _latest(store: Store, row: LeagueRow) -> dict[tuple[str, int], tuple[float, float]]:
    """Each version's latest rating and standard error."""
    return {(r.bot, r.version): (r.elo, r.sd) for r in ratings_history(store, row.name)}


def _error(sd: float) -> str:
    """A 95% half-interval, with ``?`` when the rating is provisional."""
    return f"{1.96 * sd:.0f}" + ("?" if sd > PROVISIONAL_SD else "")
