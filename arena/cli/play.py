"""``arena play``: one match between bots, optionally watched, with a result table."""

from __future__ import annotations

import json
import secrets
import time
from dataclasses import replace
from pathlib import Path
from typing import Annotated, NoReturn

import typer
from rich.live import Live
from rich.table import Table
from rich.text import Text

from arena.cli.audience import audience_view
from arena.cli.common import SEED_MAX, console, fail, inert, say, user_errors
from arena.cli.series import play_games, series_table
from arena.clock import CLOCK_HELP, ClockRule, TimeControl
from arena.deals import DealSecret, Dealing, read_secret_file, write_secret_file
from arena.manifest import resolve_bot
from arena.record import DecisionRecord, MatchRecord
from arena.referee import FaultPolicy, run_match
from arena.remote.connection import how_to_start
from arena.remote.match import Hosting, Seat, host_match
from arena.remote.seats import Countdown, remote_name, remote_spec
from arena.sandbox.selftest import refusal
from engine.core import ConfigError, State
from engine.registry import get_game
from leaderboards.results import common_clock
from protocols.codec import BOT_FRAME_LIMIT, bot_limits
from protocols.transport import Peer


#: Exit status of `arena play` when a match is void by a host fault.
VOID_EXIT = 3


def parse_knobs(pairs: list[str]) -> dict[str, object]:
    """``name=value`` strings as a map; raises :class:`ConfigError` for a pair without ``=``."""
    knobs: dict[str, object] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name.strip():
            raise ConfigError(f"--knob expects NAME=VALUE, not {pair!r}")
        knobs[name.strip()] = value
    return knobs


def play_command(
    game: Annotated[str, typer.Argument(help="The game's name (see arena games).")],
    bot: Annotated[
        list[str],
        typer.Option("--bot", "-b", help="A bot per seat: a built-in name, a command, a manifest .toml, "
                                          "or remote:NAME (a bot that connects over --listen)."),
    ],
    variant: Annotated[str | None, typer.Option("--variant", help="The game variant.")] = None,
    knob: Annotated[list[str], typer.Option("--knob", "-k", help="A rules knob, NAME=VALUE.")] = [],  # noqa: B006
    seed: Annotated[int | None, typer.Option("--seed", min=0, max=SEED_MAX, help="The deal's seed (random if omitted).")] = None,
    tc: Annotated[
        str, typer.Option("--tc", help="Time control MOVE[+INCREMENT][/BANK][~GRACE], e.g. 200ms or 1s+100ms/10s.")
    ] = "1s",
    strikes: Annotated[int, typer.Option("--strikes", help="Faults before a seat is forfeited.")] = 3,
    watch: Annotated[
        bool, typer.Option("--watch", help="Show running scores, each decision and the board, for an audience.")
    ] = False,
    delay: Annotated[float, typer.Option("--delay", help="Seconds to pause per decision when watching.")] = 0.1,
    games: Annotated[
        int, typer.Option("--games", "-n", min=1,
                          help="Play this many matches, seats rotating, bots kept running; print a summary.")
    ] = 1,
    record: Annotated[
        Path | None,
        typer.Option("--record", help="Write the match record here (JSON; with --games, one record per line)."),
    ] = None,
    logs: Annotated[Path | None, typer.Option("--logs", help="Keep the bots' output in this folder.")] = None,
    clock: Annotated[str, typer.Option("--clock", help=CLOCK_HELP)] = "auto",
    frame_limit_kb: Annotated[
        int, typer.Option("--frame-limit-kb", min=1, help="The largest frame a bot may send, in KiB.")
    ] = BOT_FRAME_LIMIT >> 10,
    no_sandbox: Annotated[
        bool, typer.Option("--no-sandbox", help="Run untrusted bots unconfined (no sandbox needed).")
    ] = False,
    listen: Annotated[
        str | None,
        typer.Option("--listen", help="Host remote:NAME seats on this tcp://HOST:PORT endpoint "
                                      "(encrypted; PORT * picks a free one)."),
    ] = None,
    connect_dir: Annotated[
        Path, typer.Option("--connect-dir", help="Where remote seats' connection files (NAME.env) go.")
    ] = Path("."),
    wait: Annotated[
        float, typer.Option("--wait", help="Seconds to wait for every remote seat to connect.")
    ] = 300.0,
    address: Annotated[
        str | None,
        typer.Option("--address", help="HOST or HOST:PORT written in connection files "
                                        "(default: the --listen endpoint, this machine's name for 0.0.0.0)."),
    ] = None,
    deal_secret: Annotated[
        Path | None,
        typer.Option("--deal-secret", help="A file holding a deal secret (hex, mode 0600) to key the "
                                           "deals with, to play the same games again; made with a "
                                           "fresh secret if it does not exist."),
    ] = None,
) -> None:
    """Play one match, one bot per seat, and print the result. Untrusted bots (any but built-in
    and `trusted = true` ones) run in the sandbox; without a working one (see `arena doctor`) they
    are refused unless --no-sandbox is given.

    \b
    Examples:
      arena play GAME --bot random --bot random --bot random
      arena play GAME -b random -b "python3 mybot.py" -b bots/mine.toml --tc 1s+100ms/10s --watch
      arena play GAME --listen tcp://0.0.0.0:7777 -b remote:alice -b random -b random
      arena play GAME -b "python3 mybot.py" -b random -b random -n 1000

    Each remote:NAME seat gets a connection file NAME.env (see docs/remote.md); the match starts
    once every remote bot has connected, within --wait seconds.

    With --games N (-n) the bots start once and play N matches, each dealt afresh from --seed and seated one place further
    round the table, and a summary per bot is printed: wins, mean place and score, faults.

    With any seat but built-in and `trusted = true` bots, the deals are keyed with a deal secret
    (fresh for each run, or --deal-secret FILE), so that no bot can compute them from --seed; the
    record (--record) keeps the deal's seed and a fresh secret (docs/match-record.md).

    A match stopped by a host fault (the machine too busy to run the bots under the CPU clock;
    docs/tournaments.md) is void: it has no result, and the command says why and exits with status 3.
    """
    with user_errors():
        chosen = get_game(game)
        remote = [remote_name(b) for b in bot]
        specs = [resolve_bot(b) if name is None else remote_spec(name) for b, name in zip(bot, remote)]
        if any(remote) and listen is None:
            raise fail("remote:NAME seats need --listen tcp://HOST:PORT")
        if listen is not None and not any(remote):
            raise fail("--listen needs at least one remote:NAME seat")
        if wait <= 0:
            raise fail("--wait must be a positive number of seconds")
        if games > 1 and (listen is not None or watch):
            raise fail("--games plays local bots unwatched: leave out --listen and --watch")
        if any(remote) and clock == "cpu":
            raise fail("remote seats are timed on the wall clock: --clock cpu cannot time them")
        config = chosen.configure(len(specs), variant, parse_knobs(knob))
        dealing = _dealing(deal_secret, all(s.trusted for s in specs) and not any(remote))
        control = TimeControl.parse(tc)
        policy = FaultPolicy(strikes)
        rule = ClockRule(clock)
    if no_sandbox:
        specs = [replace(spec, trusted=True) for spec in specs]
    elif (refused := refusal(specs)) is not None:
        raise fail(refused)
    if delay < 0:
        raise fail("--delay cannot be negative")
    seed = secrets.randbits(64) if seed is None else seed
    limits = bot_limits(frame_limit_kb)
    presentation = chosen.presentation()  # how --watch words the game
    if listen is not None:
        hosting = Hosting(listen, connect_dir, wait, address)
        seats = [Seat(spec, name is not None) for spec, name in zip(specs, remote)]
        # Watching starts with the first decision, once the countdown is over.
        watching = Live(console=console, auto_refresh=False)
        made = [0]

        def watched(state: State, decision: DecisionRecord) -> None:
            if made[0] == 0:
                watching.start()
            made[0] += 1
            watching.update(audience_view(state, decision, made[0], [s.name for s in specs], presentation),
                            refresh=True)
            time.sleep(delay)

        try:
            with user_errors():
                result = host_match(chosen, config, dealing.engine_seed(seed), seats, control, policy, hosting,
                                    announce=_announce, countdown=_countdown(), log_dir=logs,
                                    limits=limits, clock=rule, on_decision=watched if watch else None)
        finally:
            watching.stop()
        _report(dealing.annotate(result, seed), record)
        return
    if games > 1:
        with user_errors():
            records = play_games(chosen, config, seed, specs, control, games, policy, log_dir=logs,
                                 limits=limits, clock=rule, record=record, dealing=dealing)
        played = [r for r in records if r.void is None]
        if played:
            console.print(series_table(played, [spec.name for spec in specs], seed))
        if len(played) < len(records):
            _void_exit(records[-1], f"game {len(records)} of {games}")
        return
    with user_errors():  # e.g. the CPU clock asked for bots it cannot time
        if watch:
            with Live(console=console, auto_refresh=False) as live:
                names = [spec.name for spec in specs]
                made = [0]

                def show(state: State, decision: DecisionRecord) -> None:
                    made[0] += 1
                    live.update(audience_view(state, decision, made[0], names, presentation), refresh=True)
                    time.sleep(delay)

                result = run_match(chosen, config, dealing.engine_seed(seed), specs, control, policy,
                                   log_dir=logs, on_decision=show, limits=limits, clock=rule)
            if not console.is_terminal:  # a live display not on a terminal ends mid-line
                console.line()
        else:
            result = run_match(chosen, config, dealing.engine_seed(seed), specs, control, policy,
                               log_dir=logs, limits=limits, clock=rule)
    _report(dealing.annotate(result, seed), record)


def _dealing(secret_file: Path | None, trusted: bool) -> Dealing:
    """The run's deals: keyed with the secret in ``secret_file`` (a fresh one written there first
    if there is no such file); else public when every seat is ``trusted`` (judged before
    --no-sandbox); else keyed with a fresh secret, revealed in the records. Raises
    :class:`DealSecretError` if the file cannot be read or written."""
    if secret_file is not None:
        if not secret_file.exists():
            write_secret_file(secret_file, DealSecret.draw())
            say(f"wrote a fresh deal secret to {secret_file}: give it again to replay these deals",
                err=True)
        return Dealing(read_secret_file(secret_file))
    return Dealing() if trusted else Dealing(DealSecret.draw(), reveal=True)


def _report(result: MatchRecord, record: Path | None) -> None:
    """Write the record where asked, then print the result table and the faults."""
    if record is not None:
        try:
            record.write_text(json.dumps(result.to_wire(), indent=1, allow_nan=False))
        except OSError as exc:
            raise fail(f"cannot write the record to {record}: {exc}") from None
    if result.void is not None:
        _void_exit(result, "the match")
    console.print(result_table(result))
    for fault in result.faults:
        console.print(Text.assemble(
            ("fault", "yellow"), f" seat {fault.seat} (", inert(result.bots[fault.seat]),
            f") {fault.kind.value} at decision {fault.ply}: ", inert(fault.detail),
        ))


def _void_exit(result: MatchRecord, which: str) -> NoReturn:
    """Say that ``result`` is void by a host fault and why, then exit with status 3."""
    say(f"{which} is void: the host, not a bot, was at fault ({result.void}); it has no result "
        "and no bot lost it. Play it again on a less busy machine", err=True)
    raise typer.Exit(VOID_EXIT)


def _announce(files: dict[str, Path], endpoint: str) -> None:
    """Tell the organiser what to hand each remote entrant."""
    console.print(f"Remote seats connect to {endpoint} (encrypted). Give each entrant its file:")
    for name, path in files.items():
        console.print(Text.assemble("  ", (name, "bold"), f": {path}  (mode 0600: it holds the token)"))
    first = next(iter(files.values()))
    console.print(Text(f"and start the bot with, e.g.:\n{how_to_start(first)}"))


def _countdown() -> Countdown:
    """A visible countdown of the remote seats still missing: redrawn each second on a terminal,
    a line every 15 seconds (and whenever someone connects) otherwise."""
    last: list[tuple[int, float]] = []

    def tick(missing: list[Peer], left: float) -> None:
        line = f"waiting for {', '.join(p.label for p in missing)}: {int(left) // 60}:{int(left) % 60:02d} left"
        if console.is_terminal:
            console.print(line, end="\r", highlight=False)
        elif not last or last[-1][0] != len(missing) or last[-1][1] - left >= 15:
            console.print(line, highlight=False)
            last.append((len(missing), left))

    return tick


def seed_text(record: MatchRecord) -> str:
    """The deal's seed as a title says it: ``seed N``, or ``deal seed N, keyed`` (with a secret)."""
    deal = record.detail.get("deal")
    if isinstance(deal, dict):
        return f"deal seed {deal.get('seed')!r}, keyed"
    return f"seed {record.seed}"


def result_table(record: MatchRecord) -> Table:
    """The result of one match: each seat's bot, score, place, faults and reply times."""
    table = Table(title=f"{record.game}@{record.version} {record.variant}  {seed_text(record)}  "
                        f"{len(record.decisions)} decisions in {record.duration:.2f} s  "
                        f"clock: {common_clock([record.detail.get('clock')]) or 'unknown'}")
    for column in ("seat", "bot", "score", "place", "faults", "median ms", "max ms"):
        table.add_column(column, justify="left" if column == "bot" else "right")
    for seat, name in enumerate(record.bots):
        times = sorted(d.elapsed for d in record.decisions if d.seat == seat and not d.fallback)
        median = f"{times[len(times) // 2] * 1000:.1f}" if times else "-"
        worst = f"{times[-1] * 1000:.1f}" if times else "-"
        faults = sum(1 for f in record.faults if f.seat == seat)
        place = str(record.ranks[seat]) + (" (forfeit)" if seat in record.forfeited else "")
        table.add_row(str(seat), inert(name), str(record.scores[seat]), place, str(faults), median, worst)
    return table
