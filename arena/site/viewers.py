"""The games' own viewers on the site and the live page: each game's script and style sheet, as
its presentation provides them (:mod:`engine.presentation`), under file names made from the
game's name. A game without a viewer has no files here and gets the generic view."""

from __future__ import annotations

from dataclasses import dataclass

from arena.site.names import file_stem
from engine.core import Game


@dataclass(frozen=True, slots=True)
class Viewer:
    """A game's viewer files: their names in the shared ``static`` folder (``None``: the game
    ships none) and their texts by name."""

    script: str | None
    style: str | None
    files: dict[str, str]


def viewer_of(game: Game) -> Viewer:
    """``game``'s viewer, named ``<game>.viewer.js`` and ``<game>.viewer.css``."""
    presentation = game.presentation()
    stem = file_stem(game.name)
    files: dict[str, str] = {}
    script, style = presentation.viewer_script(), presentation.viewer_style()
    if script is not None:
        files[f"{stem}.viewer.js"] = script
    if style is not None:
        files[f"{stem}.viewer.css"] = style
    return Viewer(
        f"{stem}.viewer.js" if script is not None else None,
        f"{stem}.viewer.css" if style is not None else None,
        files,
    )
