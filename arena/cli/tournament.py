"""``arena tournament``: plan, run, resume and follow a tournament."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Column, Table
from rich.text import Text

import bots as builtin_bots
from arena.cli.common import SEED_MAX, console, fail, inert, say, user_errors
from arena.cli.results import DEFAULT_DB, DbOpt, TournamentOpt, open_store
from arena.cli.running import ClusterOpt, match_executor, require_sandbox, runner_lock
from arena.clock import CLOCK_HELP
from arena.deals import DealSecret, read_secret_file
from arena.rating_input import stored_leaderboard
from arena.remote.cli import invite_command, remote_status, revoke_command
from arena.remote.lane import with_remote_lane
from arena.store.db import Store
from arena.store.lock import RunnerLock
from arena.tournament.builds import ALLOW_FLAG
from arena.tournament.cluster import ClusterLost
from arena.tournament.config import (
    MOST_CONCURRENCY,
    MOST_DEALS,
    Format,
    TournamentConfig,
    config_from_plain,
    load_config,
)
from arena.tournament.cpus import slot_pinnings
from arena.tournament.dealbook import describe_deals, public_deals_allowed
from arena.tournament.display import Display, Tally
from arena.tournament.executors import Executor
from arena.tournament.scratch import runner_scratch
from arena.tournament.plan import effective_concurrency, make_plan
from arena.tournament.late import add_late_entry, late_entry
from arena.tournament.runner import RunSummary, run_tournament, validate
from arena.tournament.sampled import balance
from arena.tournament.schedule import Schedule, build_schedule, stored_results
from arena.tournament.sprt import stored_sprt
from arena.tournament.verify import verify_tournament
from leaderboards.narrow import NarrowingTable, left_out_note
from leaderboards.render_table import render_table

tournament_app = typer.Typer(
    help="Plan, run and resume tournaments (round-robin, gauntlet, sampled and swiss, played in "
    "duplicate).\n\n"
    "\b\nExamples:\n"
    "  arena tournament plan examples/tournament.toml\n"
    "  arena tournament run examples/tournament.toml --db league.db\n"
    "  arena tournament status --db league.db",
    no_args_is_help=True,
)

ConfigArg = Annotated[
    Path | None,
    typer.Argument(
        help="The tournament config (TOML); without one, the built-in ladder of the built-in bots.",
        show_default=False,
    ),
]

#: The tournament played when no config file is given: the built-in bots' ladder, kept with them
#: (it names the game they play in it).
DEFAULT_CONFIG = Path(builtin_bots.__file__).resolve().parent / "ladder.toml"
Seed = Annotated[int | None, typer.Option("--seed", min=0, max=SEED_MAX, help="Master seed (overrides the config).")]
Deals = Annotated[int | None, typer.Option("--deals", min=1, max=MOST_DEALS,
                                           help="Deals per table (overrides the config).")]
Concurrency = Annotated[
    int | None, typer.Option("--concurrency", "-j", min=0, max=MOST_CONCURRENCY,
                             help="Matches in parallel; 0: from the cores.")
]
TableSize = Annotated[int | None, typer.Option("--table-size", help="Bots per table.")]
TimeControlOpt = Annotated[
    str | None, typer.Option("--time-control", help="MOVE[+INCREMENT][/BANK][~GRACE], e.g. 1s+100ms/10s.")
]
Strikes = Annotated[int | None, typer.Option("--strikes", help="Faults before a seat is forfeited.")]
Trusted = Annotated[
    bool | None,
    typer.Option("--trusted/--untrusted", help="Trusted bots keep one process for every deal."),
]
PinCpus = Annotated[
    bool | None,
    typer.Option(
        "--pin-cpus/--no-pin-cpus",
        help="Run each local match slot (referee and bots) on a processor of its own, when there "
        "are enough.",
    ),
]
ClockOpt = Annotated[
    str | None,
    typer.Option("--clock", help=CLOCK_HELP + " Default: the config's clock, else auto."),
]


DealSecretOpt = Annotated[
    Path | None,
    typer.Option(
        "--deal-secret",
        help="A file holding the deal secret (hex, mode 0600) to deal with when the tournament is "
        "first stored, to reproduce its games (default: the config's deal_secret_file, else a "
        "fresh secret, kept in DB.deals).",
    ),
]


def supplied_secret(config: TournamentConfig, option: Path | None) -> DealSecret | None:
    """The deal secret the organiser supplies (``--deal-secret``, else the config's
    ``deal_secret_file``), if any; exit 2 if it cannot be read."""
    path = option if option is not None else (
        Path(config.deal_secret_file) if config.deal_secret_file else None
    )
    if path is None:
        return None
    with user_errors():
        return read_secret_file(path)


def _deals_plan(config: TournamentConfig, supplied: DealSecret | None) -> str:
    """What ``plan`` says of the deals, before anything is stored."""
    if supplied is not None:
        return f"deals: keyed with the supplied deal secret, commitment {supplied.commitment()}"
    if public_deals_allowed(config):
        return ("deals: public (every bot is trusted): they follow from the seed alone, the same "
                "games on any machine")
    return ("deals: keyed with a secret drawn when the tournament is first stored; run and status "
            "show its commitment before play")



AllowChangedOpt = Annotated[
    bool,
    typer.Option(
        ALLOW_FLAG,
        help="Let bots whose files changed since the tournament was stored play on, each change "
        "stored as a new build of the bot (every game says which build played).",
    ),
]


GameOpt = Annotated[str | None, typer.Option("--game", help="The game, name or name@version.")]
VariantOpt = Annotated[str | None, typer.Option("--variant", help="The game's variant.")]
FormatOpt = Annotated[
    str | None,
    typer.Option(
        "--format",
        help="round-robin, gauntlet (with candidates), sampled (with tables_per_bot in the config) "
        "or swiss (with rounds).",
    ),
]
CandidateOpt = Annotated[
    list[str] | None,
    typer.Option("--candidate", help="A gauntlet candidate, by bot name (repeatable)."),
]
KnobOpt = Annotated[
    list[str] | None, typer.Option("--knob", help="A rules knob, KNOB=VALUE (repeatable).")
]


def overrides(knob: list[str] | None = None, **given: Any) -> dict[str, Any]:
    """Config keys set on the command line (``None``: not given); ``knob`` items are KNOB=VALUE."""
    changes = {key: value for key, value in given.items() if value is not None}
    if knob:
        knobs: dict[str, str] = {}
        for item in knob:
            name, equals, value = item.partition("=")
            if not equals or not name.strip():
                raise fail(f"--knob {item!r}: expected KNOB=VALUE")
            knobs[name.strip()] = value.strip()
        changes["knobs"] = knobs
    return changes


def read_config(path: Path | None, changes: dict[str, Any]) -> TournamentConfig:
    """Load the config (the built-in default when ``path`` is ``None``) with the command line's
    changes; user errors exit 2."""
    with user_errors():
        return load_config(DEFAULT_CONFIG if path is None else path, changes)


@tournament_app.command("plan")
def plan_command(
    config_path: ConfigArg = None,
    game: GameOpt = None,
    variant: VariantOpt = None,
    format_name: FormatOpt = None,
    knob: KnobOpt = None,
    candidate: CandidateOpt = None,
    seed: Seed = None,
    deals: Deals = None,
    concurrency: Concurrency = None,
    table_size: TableSize = None,
    time_control: TimeControlOpt = None,
    strikes: Strikes = None,
    trusted: Trusted = None,
    pin_cpus: PinCpus = None,
    clock: ClockOpt = None,
    show_games: Annotated[bool, typer.Option("--games", help="List every game.")] = False,
    deal_secret: DealSecretOpt = None,
) -> None:
    """Print the schedule: tables, games, process generations and the longest it can take.

    \b
    Examples:
      arena tournament plan examples/tournament.toml --games
    """
    config = read_config(
        config_path,
        overrides(
            knob,
            game=game,
            variant=variant,
            format=format_name,
            candidates=candidate,
            seed=seed,
            deals=deals,
            concurrency=concurrency,
            table_size=table_size,
            time_control=time_control,
            strikes=strikes,
            trusted=trusted,
            pin_cpus=pin_cpus,
            clock=clock,
        ),
    )
    schedule = build_schedule(config)
    with user_errors():
        plan = make_plan(config, schedule)
    console.print(f"[bold]{config.name}[/]: {config.game}, {config.format.value}, "
                  f"{config.table_size} bots a table, time control {config.time_control}")
    console.print(f"tables {plan.tables}, deals per table {plan.deals}, games {plan.games}")
    restarts = "one process each (trusted)" if config.trusted else (
        f"{plan.generations} generations: each bot process meets every deal at most once"
    )
    console.print(f"bot processes: {restarts}")
    with user_errors():
        console.print(_deals_plan(config, supplied_secret(config, deal_secret)))
    for line in _format_lines(config, schedule):
        console.print(inert(line))
    console.print(
        f"about {plan.decisions_per_game} decisions a game; at most "
        f"{plan.max_thinking_per_game:.1f} s thinking a game; "
        f"at most {_duration(plan.max_duration)} at concurrency {plan.concurrency}"
    )
    pinned = [p.cpu for p in slot_pinnings(plan.concurrency, config.pin_cpus) if p is not None]
    if pinned:
        console.print(f"each match slot runs on a processor of its own: {', '.join(map(str, pinned))}")
    if show_games:
        console.print(NarrowingTable(lambda left_out: _schedule_table(schedule, left_out),
                                     ("seed", "gen", "table")))


def _schedule_table(schedule: Schedule, left_out: tuple[str, ...]) -> Table:
    """One row per planned game: id, process generation, table, deal, seed and seats, less the
    columns ``left_out``."""
    table = Table(caption=left_out_note(left_out) if left_out else None)
    names = [name for name in ("id", "gen", "table", "deal", "seed", "seats") if name not in left_out]
    for name in names:
        table.add_column(name, no_wrap=name != "seats", overflow="fold")
    for planned in schedule:
        cells: dict[str, str | Text] = {
            "id": planned.id,
            "gen": str(planned.generation),
            "table": str(planned.table),
            "deal": str(planned.deal),
            "seed": str(planned.seed),
            "seats": inert(", ".join(planned.bots)),
        }
        table.add_row(*(cells[name] for name in names))
    return table


def _format_lines(config: TournamentConfig, schedule: Schedule) -> list[str]:
    """What ``plan`` says of the format: a sampled draw's balance, swiss rounds, early stopping."""
    names = [b.name for b in config.bots]
    lines: list[str] = []
    if config.format is Format.SAMPLED:
        lines += balance(schedule.tables, names).describe().splitlines()
    if config.format is Format.SWISS:
        per_round = len(names) // config.table_size
        byes = len(names) % config.table_size
        lines.append(
            f"swiss: {config.rounds} rounds of {per_round} tables; the first drawn at random, each "
            "next from the standings after the one before"
            + (f"; {byes} bots sit out each round (fewest byes first)" if byes else "")
        )
    if config.late_entries:
        lines.append(f"late entries (tables after the others): {', '.join(config.late_entries)}")
    if config.remote is not None:
        remote = ", ".join(b.name for b in config.bots if b.remote)
        lines.append(f"remote entrants (connect to {config.remote.listen}, one game at a time): "
                     f"{remote}; each keeps one connection for every deal, so it can remember "
                     "deals (docs/remote.md)")
    if config.sprt is not None:
        rule = config.sprt
        lines.append(
            f"early stopping: SPRT elo0 {rule.elo0:g}, elo1 {rule.elo1:g}, alpha {rule.alpha:g}, "
            f"beta {rule.beta:g}; stops when the LLR leaves ({rule.lower:.2f}, {rule.upper:.2f}); "
            f"the games above are the most it plays"
        )
    return lines


def _duration(seconds: float) -> str:
    minutes, secs = divmod(int(round(seconds)), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}h{minutes:02d}m{secs:02d}s"


@tournament_app.command("run")
def run_command(
    config_path: ConfigArg = None,
    game: GameOpt = None,
    variant: VariantOpt = None,
    format_name: FormatOpt = None,
    knob: KnobOpt = None,
    candidate: CandidateOpt = None,
    db: DbOpt = DEFAULT_DB,
    cluster: ClusterOpt = None,
    seed: Seed = None,
    deals: Deals = None,
    concurrency: Concurrency = None,
    table_size: TableSize = None,
    time_control: TimeControlOpt = None,
    strikes: Strikes = None,
    trusted: Trusted = None,
    pin_cpus: PinCpus = None,
    clock: ClockOpt = None,
    no_sandbox: Annotated[bool, typer.Option(
        "--no-sandbox", help="Run untrusted bots unconfined; the tournament is stored and published "
        "as unsandboxed.")] = False,
    allow_changed_bots: AllowChangedOpt = False,
    deal_secret: DealSecretOpt = None,
) -> None:
    """Play the tournament into the results database, then print its leaderboard; games already
    stored are not replayed. Without CONFIG, the built-in ladder: greedy at level 1, greedy and
    ismcts at one table of the game its file (bots/ladder.toml) names, ten deals in duplicate,
    node budgets (greedy 1 and 4, ismcts 40) under a 5 s clock. Untrusted bots (any but built-in and `trusted = true`
    ones) run in the sandbox; without a working one (see `arena doctor`) the run is refused unless
    --no-sandbox is given.

    Ctrl-C stops cleanly (games in progress are dropped, never half-stored); run again or use
    `arena tournament resume` to play the rest. One runner at a time per database: another is
    refused. Command-line bots run in the config file's folder.

    \b
    Examples:
      arena tournament run
      arena tournament run examples/tournament.toml --db league.db -j 2
    """
    config = read_config(
        config_path,
        overrides(
            knob,
            game=game,
            variant=variant,
            format=format_name,
            candidates=candidate,
            seed=seed,
            deals=deals,
            concurrency=concurrency,
            table_size=table_size,
            time_control=time_control,
            strikes=strikes,
            trusted=trusted,
            pin_cpus=pin_cpus,
            clock=clock,
            sandbox=False if no_sandbox else None,
        ),
    )
    require_sandbox(config)
    with user_errors():
        validate(config)
    supplied = supplied_secret(config, deal_secret)
    with runner_lock(db) as lock, open_store(db, must_exist=False) as store:
        _play(config, store, _executor(config, cluster), allow_changed_bots, supplied, lock=lock)


@tournament_app.command("resume")
def resume_command(
    db: DbOpt = DEFAULT_DB,
    tournament: TournamentOpt = None,
    cluster: ClusterOpt = None,
    concurrency: Concurrency = None,
    pin_cpus: PinCpus = None,
    allow_changed_bots: AllowChangedOpt = False,
    deal_secret: DealSecretOpt = None,
) -> None:
    """Play exactly the stored tournament's games that are not stored yet (after Ctrl-C or a crash,
    and games void by a host fault), as `run` would: the same bots from the folders stored with
    them, from any current folder.

    \b
    Examples:
      arena tournament resume --db league.db
    """
    if not db.exists():
        raise fail(f"{db}: no results database here (give --db PATH)")
    with runner_lock(db) as lock, open_store(db) as store:
        with user_errors():
            row = store.tournament(tournament)
            plain = dict(row.config)
            plain.update(overrides(concurrency=concurrency, pin_cpus=pin_cpus))
            config = config_from_plain(plain, source=f"{db}: tournament {row.name!r}")
        require_sandbox(config)
        with user_errors():
            validate(config)
        supplied = supplied_secret(config, deal_secret)
        _play(config, store, _executor(config, cluster), allow_changed_bots, supplied, lock=lock)


@tournament_app.command("status")
def status_command(db: DbOpt = DEFAULT_DB, tournament: TournamentOpt = None) -> None:
    """Show how far a stored tournament is: games stored and missing, faults, standings, and
    every void attempt at a game (a host fault) with its reason.

    \b
    Examples:
      arena tournament status --db league.db
    """
    with open_store(db) as store, user_errors():
        row = store.tournament(tournament)
        config = config_from_plain(row.config, source=f"{db}: tournament {row.name!r}")
        games = store.games(row.name)
        schedule = build_schedule(config, stored_results(games) if config.rounds else None)
        stored = store.stored_ids(row.name)
        tally = Tally(total=len(schedule))
        for game in games:
            tally.add(game.record)
        sprt = stored_sprt(config, games)
        deals = describe_deals(store.deal_commitment(row.name))
        voided = store.voided(row.name)
    missing = len(schedule) - len(stored & {g.id for g in schedule})
    decided = sprt is not None and sprt.verdict is not None
    say(
        f"{row.name}: {tally.done} of {tally.total} games stored, "
        f"{'none' if decided else missing} to play, "
        f"{tally.flagged} faults and forfeits ({tally.faults} faults, {tally.forfeits} forfeits)"
    )
    say(deals)
    if schedule.rounds:
        say(f"swiss: {schedule.rounds_played(stored)} of {schedule.rounds} rounds played, "
            f"{schedule.formed} formed")
    if sprt is not None:
        say(sprt.describe() + (": stopped early" if decided and missing else ""))
    table = Table(Column("bot", overflow="fold"), "games", "place", "wins", "faults", title="standings")
    for bot, standing in tally.ordered():
        table.add_row(inert(bot), str(standing.games), f"{standing.average_rank:.2f}",
                      str(standing.wins), str(standing.flagged))
    console.print(table)
    say("faults: every fault and forfeit, counted as the leaderboard counts them")
    for void in voided:
        state = "stored since" if void.game_id in stored else "to play again"
        say(f"void: game {void.game_id} (attempt {void.attempt}, {state}): {void.reason}")
    remote_status(db, config)


@tournament_app.command("verify")
def verify_command(
    db: DbOpt = DEFAULT_DB, tournament: TournamentOpt = None, deal_secret: DealSecretOpt = None
) -> None:
    """Check that a stored tournament's deals were not chosen: its revealed deal secret (or, for
    the organiser before the reveal, the one in DB.deals or --deal-secret FILE) matches the
    commitment stored before play, every stored game was dealt from its scheduled deal keyed with
    it, and every game replays to its stored scores. Exit 1 naming each game that does not.

    \b
    Examples:
      arena tournament verify --db league.db
      arena tournament verify --db league.db --deal-secret league.secret
    """
    with open_store(db) as store, user_errors():
        supplied = None if deal_secret is None else read_secret_file(deal_secret)
        found = verify_tournament(store, tournament, supplied)
    for problem in found.problems:
        say(problem, err=True)
    if found.problems:
        raise fail(f"{len(found.problems)} of {found.games} games failed the check", code=1)
    what = "dealt from their scheduled seeds" if found.public else (
        f"dealt from their scheduled seeds keyed with {found.source}, which matches the commitment"
    )
    say(f"verified {found.games} games: {what}; every one replays to its stored scores")


@tournament_app.command("add-bot")
def add_bot_command(
    bot: Annotated[
        str,
        typer.Argument(
            help="A built-in bot's name, a command line (run in the current folder) or a manifest "
            "file.",
            show_default=False,
        ),
    ],
    db: DbOpt = DEFAULT_DB,
    tournament: TournamentOpt = None,
    name: Annotated[
        str | None, typer.Option("--name", help="Its name in the tournament (default: its own).")
    ] = None,
    nodes: Annotated[
        int | None, typer.Option("--nodes", help="A node budget, given as ARENA_NODES.")
    ] = None,
    trusted: Annotated[
        bool, typer.Option("--trusted", help="The organiser's own bot: it may run unsandboxed.")
    ] = False,
) -> None:
    """Add a late entrant to a stored round-robin or sampled tournament: its tables join the
    schedule after every other (a sampled one: tables_per_bot tables against the bots that have
    met it least), no stored game changes, and the stored config records the entry
    (late_entries). Then play its games with `arena tournament resume`.

    \b
    Examples:
      arena tournament add-bot "python3 newbot.py" --name newbot --db league.db
    """
    if not db.exists():
        raise fail(f"{db}: no results database here (give --db PATH)")
    with runner_lock(db), open_store(db) as store, user_errors():
        stored = store.tournament(tournament)
        before = len(build_schedule(config_from_plain(stored.config, source=str(db))))
        config = add_late_entry(store, tournament, late_entry(bot, name, nodes, trusted, Path.cwd()))
    after = len(build_schedule(config))
    say(
        f"added {config.bots[-1].name} to {config.name}: {after - before} new games "
        f"({after} in all); play them with: arena tournament resume --db {db}"
    )


def _executor(config: TournamentConfig, cluster: str | None) -> Executor:
    """Where ``config``'s matches run (see :func:`arena.cli.running.match_executor`)."""
    return match_executor(cluster, config.concurrency if cluster else effective_concurrency(config),
                          pin_cpus=config.pin_cpus)


def _play(
    config: TournamentConfig,
    store: Store,
    executor: Executor,
    allow_changed: bool,
    supplied: DealSecret | None,
    *,
    lock: RunnerLock,
) -> None:
    """Run on ``executor`` with the live display (the run closes it), under ``lock``; exit 130 on
    Ctrl-C, 2 if the cluster's scheduler or the runner lock is lost, 1 if some games could not be
    played."""
    if not store.writable:
        executor.close(abandon=True)
        raise fail(f"{store.path}: the results database is read-only here; run and resume write it")
    total = len(build_schedule(config))
    display = Display(Tally(total=total), console, config.name)
    resume = f"arena tournament resume --db {store.path}"
    try:
        with user_errors(), display, runner_scratch():
            try:
                executor = with_remote_lane(executor, config, store.path)
                summary = run_tournament(config, store, executor, display, allow_changed,
                                         supplied, guard=lock.check)
            except ClusterLost as exc:
                stored = len(store.stored_ids(config.name))
                raise ClusterLost(
                    f"{exc}: {stored} of {total} games are stored. Play the rest with: "
                    f"{resume} --cluster {exc.address}",
                    exc.address,
                ) from None
        _report(summary, store, config.name)
    except KeyboardInterrupt:
        stored = len(store.stored_ids(config.name))
        if stored == total:
            say(f"stopped: all {total} games are stored; the leaderboard: "
                f"arena leaderboard --db {store.path}", err=True)
        else:
            dropped = " games in progress were dropped;" if display.tally.running else ""
            say(f"stopped: {stored} of {total} games stored;{dropped} play the rest with: {resume}",
                err=True)
        raise typer.Exit(130) from None


def _report(summary: RunSummary, store: Store, tournament: str) -> None:
    say(
        f"played {summary.played} games ({summary.already} were already stored); "
        f"{summary.total - summary.missing} of {summary.total} stored in {store.path}"
        + (f"; {summary.voided} void by a host fault and played again" if summary.voided else "")
    )
    decided = summary.decided
    if summary.sprt is not None:
        say(summary.sprt.describe() + (": stopped early" if decided and summary.missing else ""))
    if summary.missing == 0 or decided:
        with user_errors(), console.status("computing the leaderboard"):
            board = stored_leaderboard(store, tournament)
        console.print(render_table(board))
    if summary.failed:
        raise fail(
            f"{summary.failed} games could not be played (see above); "
            f"`arena tournament resume --db {store.path}` retries them",
            code=1,
        )


tournament_app.command("invite")(invite_command)
tournament_app.command("revoke")(revoke_command)
