"""``arena test``: is the candidate better than the baseline? A paired sequential test."""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path
from typing import Annotated

import typer

from arena.cli.common import SEED_MAX, console, fail, say, user_errors
from arena.cli.play import parse_knobs
from arena.cli.results import open_store
from arena.cli.running import require_sandbox, runner_lock
from arena.clock import CLOCK_HELP
from arena.store.db import Store
from arena.tournament.config import MOST_CONCURRENCY, MOST_DEALS, TournamentConfig
from arena.tournament.display import Display, Tally
from arena.tournament.executors import LocalExecutor
from arena.tournament.headtohead import BASELINE, CANDIDATE, Entrant, head_to_head_config, parse_sprt
from arena.tournament.plan import effective_concurrency
from arena.tournament.runner import RunSummary, run_tournament, validate
from arena.tournament.schedule import build_schedule
from arena.tournament.sprt import SprtMonitor
from leaderboards.paired import mean_interval
from leaderboards.sprt import score_to_elo

#: Exit status when the test accepts H0 (the candidate is not better).
EXIT_H0 = 1
#: Exit status when no verdict was reached (the deal limit, or games that could not be played).
EXIT_UNDECIDED = 3

def head_to_head_command(
    game: Annotated[str, typer.Argument(help="The game (see arena games).")],
    candidate: Annotated[
        str, typer.Option("--candidate", help="The new bot: a built-in name, a command or a manifest.")
    ],
    baseline: Annotated[
        str, typer.Option("--baseline", help="The bot to beat: a built-in name, a command or a manifest.")
    ],
    fill: Annotated[
        list[str] | None,
        typer.Option("--fill", help="A bot for each other seat (repeatable; default: copies of the baseline)."),
    ] = None,
    players: Annotated[
        int | None, typer.Option("--players", min=2, help="Seats at the table without --fill (default 3).")
    ] = None,
    candidate_nodes: Annotated[int | None, typer.Option("--candidate-nodes", min=1,
                                                        help="The candidate's node budget (ARENA_NODES).")] = None,
    baseline_nodes: Annotated[int | None, typer.Option("--baseline-nodes", min=1,
                                                       help="The baseline's node budget (and its copies').")] = None,
    fill_nodes: Annotated[int | None, typer.Option("--fill-nodes", min=1,
                                                   help="The --fill bots' node budget.")] = None,
    sprt: Annotated[
        str, typer.Option("--sprt", help="The hypotheses and error rates: elo0=0,elo1=5[,alpha=0.05,beta=0.05].")
    ] = "elo0=0,elo1=5",
    max_deals: Annotated[
        int, typer.Option("--max-deals", min=1, max=MOST_DEALS,
                          help="The most deals played (each twice per seat rotation).")
    ] = 2000,
    tc: Annotated[
        str, typer.Option("--tc", help="Time control MOVE[+INCREMENT][/BANK][~GRACE], e.g. 200ms or 1s+100ms/10s.")
    ] = "1s",
    clock: Annotated[str, typer.Option("--clock", help=CLOCK_HELP)] = "auto",
    strikes: Annotated[int, typer.Option("--strikes", min=1, help="Faults before a seat is forfeited.")] = 3,
    seed: Annotated[int | None, typer.Option("--seed", min=0, max=SEED_MAX, help="Master seed (random if omitted).")] = None,
    concurrency: Annotated[
        int, typer.Option("--concurrency", "-j", min=0, max=MOST_CONCURRENCY,
                          help="Matches in parallel; 0: from the cores.")
    ] = 0,
    db: Annotated[
        Path | None,
        typer.Option("--db", help="Store the games in this results database; the same test run "
                                  "again with it resumes (default: nothing is kept)."),
    ] = None,
    variant: Annotated[str | None, typer.Option("--variant", help="The game variant.")] = None,
    knob: Annotated[list[str] | None, typer.Option("--knob", "-k", help="A rules knob, NAME=VALUE.")] = None,
    no_sandbox: Annotated[
        bool, typer.Option("--no-sandbox", help="Run untrusted bots unconfined (no sandbox needed).")
    ] = False,
    pin_cpus: Annotated[
        bool, typer.Option("--pin-cpus/--no-pin-cpus", help="Run each match slot on a processor of its own.")
    ] = True,
) -> None:
    """Test whether CANDIDATE is stronger than BASELINE with a sequential probability ratio test,
    playing as few games as the question needs. With --fill, each deal is played twice with the
    fill bots in the same seats, once with the candidate and once with the baseline in its place,
    in every seat rotation, and the test looks at the candidate's score minus the baseline's, deal
    by deal. Without --fill the other seats are copies of the baseline, whose own score would be
    1/2, so only the candidate's games are played. The test is checked after every deal and stops
    as soon as it is decided. Prints the LLR with its bounds, the
    score difference with its 95% interval and the verdict, live and at the end.

    Exit status: 0 H1 accepted (the candidate is at least elo1 better), 1 H0 accepted (it is not
    better than elo0), 3 no verdict within --max-deals (or some games could not be played), 2 bad
    input, 130 interrupted.

    \b
    Examples:
      arena test GAME --candidate ismcts --candidate-nodes 60 --baseline ismcts --baseline-nodes 20
      arena test GAME --candidate "python3 v2.py" --baseline "python3 v1.py" --fill greedy --fill random
      arena test GAME --candidate bots/v2.toml --baseline bots/v1.toml --sprt elo0=0,elo1=10 --db v2.db
    """
    fills = fill or []
    if fills and players is not None and players != 1 + len(fills):
        raise fail(f"--players {players} does not match the {len(fills)} --fill bots (one per other seat)")
    with user_errors():
        extra: dict[str, object] = {
            "time_control": tc, "clock": clock, "strikes": strikes, "concurrency": concurrency,
            "pin_cpus": pin_cpus, "table_size": players or 3,
        }
        if seed is not None:
            extra["seed"] = seed
        if no_sandbox:
            extra["sandbox"] = False
        config = head_to_head_config(
            game,
            Entrant(candidate, candidate_nodes),
            Entrant(baseline, baseline_nodes),
            [Entrant(bot, fill_nodes) for bot in fills],
            parse_sprt(sprt),
            max_deals=max_deals,
            knobs={k: str(v) for k, v in parse_knobs(knob or []).items()},
            variant=variant,
            extra=extra,
        )
    require_sandbox(config)
    with user_errors():
        validate(config)
    _describe(config)
    with ExitStack() as stack:
        guard: Callable[[], None] | None = None
        if db is not None:
            guard = stack.enter_context(runner_lock(db)).check
            store = stack.enter_context(open_store(db, must_exist=False))
        else:
            folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="arena-test-")))
            store = stack.enter_context(Store(folder / "test.db"))
        summary, monitor, seconds = _run(config, store, guard)
    _conclude(summary, monitor, seconds, config)


def _describe(config: TournamentConfig) -> None:
    """What is compared, and how."""
    def who(name: str) -> str:
        entry = config.bot(name)
        return entry.bot + ("" if entry.nodes is None else f" (nodes {entry.nodes})")

    baseline = BASELINE if config.paired else f"{BASELINE}-1"
    others = [b.name for b in config.bots if b.name not in config.candidates]
    rule = config.sprt
    assert rule is not None
    seats = (f"fill: {', '.join(who(name) for name in others)}; each deal played with the "
             "candidate and with the baseline in the same seats" if config.paired
             else f"the other seats copies of the baseline, whose own score is 1/2")
    say(f"candidate {who(CANDIDATE)} against baseline {who(baseline)} at {config.game}, "
        f"{config.table_size} seats, {seats}")
    say(f"SPRT elo0 {rule.elo0:g}, elo1 {rule.elo1:g}, alpha {rule.alpha:g}, beta {rule.beta:g}: "
        f"stops when the LLR leaves ({rule.lower:.2f}, {rule.upper:.2f}); at most {config.deals} "
        f"deals ({len(build_schedule(config))} games)")


def _run(
    config: TournamentConfig, store: Store, guard: Callable[[], None] | None
) -> tuple[RunSummary, SprtMonitor, float]:
    """Play until the test decides, with the live display; exit 130 on Ctrl-C. Returns the run's
    summary, the test on the stored games, and the seconds it took."""
    display = Display(Tally(total=len(build_schedule(config))), console, f"test {config.name}")
    executor = LocalExecutor(effective_concurrency(config), pin_cpus=config.pin_cpus)
    started = time.monotonic()
    try:
        with user_errors(), display:
            summary = run_tournament(config, store, executor, display, guard=guard)
    except KeyboardInterrupt:
        say(f"stopped: {len(store.stored_ids(config.name))} games stored in {store.path}; games in "
            "progress were dropped", err=True)
        raise typer.Exit(130) from None
    monitor = SprtMonitor(config)
    monitor.add_stored(store.games(config.name))
    return summary, monitor, time.monotonic() - started


def _conclude(summary: RunSummary, monitor: SprtMonitor, seconds: float,
              config: TournamentConfig) -> None:
    """The final lines, and the exit status of the verdict."""
    result = monitor.result()
    per = len(config.candidates) * config.table_size
    say(f"played {summary.played} games in {seconds:.1f} s ({summary.already} were already "
        f"stored); {per * monitor.blocks} games in {monitor.blocks} complete "
        f"{'deal pairs' if config.paired else 'blocks'} counted")
    say(monitor.describe())
    if not config.paired:
        mean, interval = mean_interval({v - 0.5: n for v, n in monitor.observations().items()})
        if mean is not None:
            spread = "" if interval is None else f" (95% {interval[0]:+.4f} .. {interval[1]:+.4f})"
            elo = f", Elo {score_to_elo(0.5 + mean):+.1f}" if -0.5 < mean < 0.5 else ""
            say(f"score difference against the baseline: {mean:+.4f}{spread}{elo}")
    if summary.failed:
        say(f"{summary.failed} games could not be played (see above)", err=True)
    if result.verdict == "H1":
        say("verdict: H1, the candidate is better")
        return
    if result.verdict == "H0":
        say("verdict: H0, the candidate is not better")
        raise typer.Exit(EXIT_H0)
    say(f"verdict: none within {config.deals} deals")
    raise typer.Exit(EXIT_UNDECIDED)
