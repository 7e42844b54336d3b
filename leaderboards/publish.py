"""Write the published files of a leaderboard into a directory."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from leaderboards.errors import LeaderboardError
from leaderboards.model import Leaderboard
from leaderboards.render_html import render_html
from leaderboards.render_json import render_json
from leaderboards.render_markdown import render_markdown


@dataclass(frozen=True, slots=True)
class Published:
    """Where each form was written."""

    html: Path
    markdown: Path
    json: Path


def publish(board: Leaderboard, out_dir: Path, bot_pages: Mapping[str, str] | None = None) -> Published:
    """Write ``index.html``, ``leaderboard.md`` and ``leaderboard.json`` into ``out_dir`` (created if
    missing; existing files of those names are replaced); ``bot_pages`` links each bot's name in
    the page to its own page (see :func:`render_html`). Raises :class:`LeaderboardError` if the
    directory cannot be written."""
    files = Published(
        out_dir / "index.html", out_dir / "leaderboard.md", out_dir / "leaderboard.json"
    )
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
        files.html.write_text(render_html(board, bot_pages), encoding="utf-8")
        files.markdown.write_text(render_markdown(board), encoding="utf-8")
        files.json.write_text(render_json(board), encoding="utf-8")
    except OSError as exc:
        raise LeaderboardError(f"cannot write the leaderboard to {out_dir}: {exc.strerror or exc}") from None
    return files
