"""The live page's web app: the page, its shared files, the current view as JSON, a stream of
server-sent events that pushes the view whenever it changes, and the replay of each finished game
whose deal every seating has played (``/games/<id>.html``, as on the published site)."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable
from importlib import resources

import anyio
from jinja2 import Environment, PackageLoader, select_autoescape
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Route


from arena.live.watch import Watch
from arena.site.viewers import viewer_of
from engine.registry import games, get_game

#: The files the page loads, by name: from the site's shared files, and the live page's own (every
#: registered game's own viewer is served beside them).
ASSETS = {
    "site.css": ("arena.site", "text/css"),
    "replay.js": ("arena.site", "text/javascript"),
    "live.js": ("arena.live", "text/javascript"),
    "live.css": ("arena.live", "text/css"),
}

#: Seconds between keep-alive comments on a quiet event stream.
KEEP_ALIVE = 15.0

_HEADERS = {"Cache-Control": "no-store", "X-Content-Type-Options": "nosniff"}


def create_app(watch: Watch, interval: float = 0.5, stopping: Callable[[], bool] = lambda: False) -> Starlette:
    """The app serving ``watch``; the view is looked at every ``interval`` seconds while anyone
    is connected (and never when nobody is). Event streams end once ``stopping()`` is true, so
    the server can stop without cutting them."""
    assets = {
        name: (resources.files(package).joinpath("static", name).read_bytes(), kind)
        for name, (package, kind) in ASSETS.items()
    }
    by_key = {key: viewer_of(game) for key, game in games().items()}
    viewers = [viewer_of(get_game(name)) for name in sorted({g.name for g in games().values()})]
    for viewer in by_key.values():
        for name, text in viewer.files.items():
            assets[name] = (text.encode(), "text/css" if name.endswith(".css") else "text/javascript")
    templates = Environment(loader=PackageLoader("arena.live", "templates"), autoescape=select_autoescape(default=True))
    page = templates.get_template("live.html.j2").render(
        title="Arena live",
        scripts=[v.script for v in viewers if v.script], styles=[v.style for v in viewers if v.style],
    )

    async def index(request: Request) -> Response:
        return HTMLResponse(page, headers={**_HEADERS, "Content-Security-Policy": (
            "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:"
        )})

    async def asset(request: Request) -> Response:
        found = assets.get(str(request.path_params["name"]))
        if found is None:
            return Response("not found", status_code=404, media_type="text/plain")
        return Response(found[0], media_type=found[1], headers=_HEADERS)

    async def replay(request: Request) -> Response:
        name = str(request.path_params["name"])
        stem, _, kind = name.rpartition(".")
        found = await anyio.to_thread.run_sync(watch.replay, stem, by_key) if kind in ("html", "js") else None
        if found is None:
            return Response("no replay of this game (yet): it is published once every seating of its deal is "
                            "played", status_code=404, media_type="text/plain")
        if kind == "html":
            return HTMLResponse(found[0], headers=_HEADERS)
        return Response(found[1], media_type="text/javascript", headers=_HEADERS)

    async def state(request: Request) -> Response:
        return JSONResponse(await anyio.to_thread.run_sync(watch.snapshot), headers=_HEADERS)

    async def events(request: Request) -> Response:
        async def stream() -> AsyncIterator[str]:
            last = ""
            quiet = 0.0
            while not stopping() and not await request.is_disconnected():
                view = await anyio.to_thread.run_sync(watch.snapshot)
                view.pop("time", None)
                text = json.dumps(view, separators=(",", ":"), allow_nan=False)
                if text != last:
                    last, quiet = text, 0.0
                    yield f"event: view\ndata: {text}\n\n"
                elif quiet >= KEEP_ALIVE:
                    quiet = 0.0
                    yield ": still here\n\n"
                await anyio.sleep(interval)
                quiet += interval

        return StreamingResponse(stream(), media_type="text/event-stream", headers=_HEADERS)

    return Starlette(routes=[
        Route("/", index),
        Route("/state", state),
        Route("/events", events),
        Route("/static/{name}", asset),
        Route("/games/{name}", replay),
        Route("/favicon.ico", lambda request: Response(status_code=204)),  # a replay page asks for one
    ])
