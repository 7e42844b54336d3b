"""The site's HTML pages from the templates in ``templates/``: autoescaped, and every text made
inert (:func:`arena.inert.terminal`) first, since bots choose their names and versions."""

from __future__ import annotations

from typing import Any

from arena.inert import html_templates

_environment = html_templates("arena.site")


def render_page(template: str, **values: Any) -> str:
    """The page ``template`` rendered with ``values``; ``root`` is the path back to the site's top
    folder (``""`` or ``"../"``) for links and the shared files."""
    return _environment.get_template(template).render(**values)
