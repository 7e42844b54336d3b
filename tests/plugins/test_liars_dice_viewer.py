"""Liar's Dice ships its own replay viewer as package data: the presentation returns the
installed ``viewer.js`` and ``viewer.css``, and the site names them after the game."""

from __future__ import annotations

from importlib.resources import files

from arena.site.viewers import viewer_of
from liars_dice import GAME


def test_the_presentation_returns_the_packaged_viewer_files() -> None:
    presentation = GAME.presentation()
    package = files("liars_dice")
    script, style = presentation.viewer_script(), presentation.viewer_style()
    assert script == package.joinpath("viewer.js").read_text(encoding="utf-8")
    assert style == package.joinpath("viewer.css").read_text(encoding="utf-8")
    assert 'R.games.liars_dice = function (container, ctx)' in script
    assert "innerHTML" not in script and ".dice-count" in style


def test_the_site_serves_the_viewer_under_the_game_name() -> None:
    viewer = viewer_of(GAME)
    assert (viewer.script, viewer.style) == ("liars_dice.viewer.js", "liars_dice.viewer.css")
    assert set(viewer.files) == {"liars_dice.viewer.js", "liars_dice.viewer.css"}
