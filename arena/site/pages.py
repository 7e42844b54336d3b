"""The site's HTML pages from the templates in ``templates/``: autoescaped, and every text made
inert (:func:`arena.inert.terminal`) first, since bots choose their names and versions."""

from __future__ import annotations

from typing import Any

from jinja2 import Environment, PackageLoader, select_autoescape

from arena.inert import terminal


def _inert(value: object) -> object:
    return terminal(value) if isinstance(value, str) else value


_environment = Environment(
    loader=PackageLoader("arena.site", "templates"),
    autoescape=select_autoescape(["html", "j2"], default=True),
    finalize=_inert,
    trim_blocks=True,
    lstrip_blocks=True,
)


def render_page(template: str, **values: Any) -> str:
    """The page ``template`` rendered with ``values``; ``root`` is the path back to the site's top
    folder (``""`` or ``"../"``) for links and the shared files."""
    return _environment.get_template(template).render(**values)
