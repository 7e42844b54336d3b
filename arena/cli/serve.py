"""``arena serve``: a live page of a tournament for the projector."""

from __future__ import annotations

import shutil
import signal
import socket
from types import FrameType
from typing import Annotated

import typer

from arena.cli.common import fail
from arena.cli.results import DEFAULT_DB, DbOpt, TournamentOpt
from arena.live.files import make_live_folder
from protocols.guard import raise_open_files_limit


def serve_command(
    db: DbOpt = DEFAULT_DB,
    tournament: TournamentOpt = None,
    host: Annotated[
        str, typer.Option("--host", help="Address to listen on; another machine can look only if this is not 127.0.0.1.")
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", "-p", min=1, max=65535, help="Port to listen on.")] = 8017,
    show_hands: Annotated[
        bool,
        typer.Option("--show-hands", help="Also show every seat's hidden cards (only where no entrant can watch)."),
    ] = False,
    interval: Annotated[
        float, typer.Option("--interval", min=0.05, help="Seconds between looks at the games in play.")
    ] = 0.5,
) -> None:
    """Serve a live page of a tournament: the games in play with their boards updating as
    decisions are made, progress, running standings, and the leaderboard when the run ends.
    Start it before or during `arena tournament run` on the same database; open the address it
    prints. Only public information is shown unless --show-hands. Ctrl-C stops it.

    \b
    Examples:
      arena serve --db league.db
      arena serve --db league.db --host 0.0.0.0 --port 8080
    """
    if not db.parent.is_dir():
        raise fail(f"{db.parent}: no such folder for the results database")
    try:
        with socket.create_server((host, port)):
            pass
    except OSError as exc:
        raise fail(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    try:
        folder = make_live_folder(db)
    except OSError as exc:
        raise fail(f"cannot make the live folder beside {db}: {exc.strerror or exc}") from None
    raise_open_files_limit()  # as every listening command does: many viewers, many descriptors
    import uvicorn  # the web stack loads only for this command

    from arena.live.app import create_app
    from arena.live.watch import Watch

    server: uvicorn.Server | None = None
    app = create_app(Watch(db, tournament, show_hands), interval,
                     stopping=lambda: server is not None and server.should_exit)
    server = uvicorn.Server(uvicorn.Config(app, host=host, port=port, log_level="warning",
                                           timeout_graceful_shutdown=max(2, round(4 * interval))))
    shown = f"[{host}]" if ":" in host else host
    print(f"live view of {db} at http://{shown}:{port}/  (Ctrl-C stops)", flush=True)
    # uvicorn re-raises the signal that stopped it; as an exit, so the live folder is removed.
    signal.signal(signal.SIGTERM, _exit_on_signal)
    try:
        server.run()
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _exit_on_signal(signum: int, frame: FrameType | None) -> None:
    raise SystemExit(128 + signum)
