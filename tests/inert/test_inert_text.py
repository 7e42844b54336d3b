"""arena.inert: bot text neutralised for terminals, logs and Markdown; Rich and HTML show it inert."""

from __future__ import annotations

import logging
import unicodedata

from hypothesis import given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt
from rich.console import Console

from arena.cli.common import inert
from arena.inert import InertFormatter, markdown, terminal

#: Categories no neutralised text may contain (besides newline and tab where lines are kept).
HIDDEN = {"Cc", "Cf", "Cs", "Zl", "Zp"}
HOSTILE = [
    "\x1b[2J\x1b[H",
    "\x1b[32mseat 0 wins\x1b[0m",
    "\x1b]52;c;aGVsbG8=\x07",
    "\x9b31m C1 CSI",
    "abc\u202edcba",
    "[bold red]x[/]",
    "line\rover",
    "a\nforged line",
]
#: Text ``str.isprintable`` accepts: no controls, format characters, separators or unassigned code points.
PRINTABLE = st.text(st.characters(exclude_categories=["Cc", "Cf", "Cs", "Zl", "Zp", "Zs", "Co", "Cn"]) | st.just(" "))


def hidden(text: str, allowed: str = "") -> list[str]:
    return [c for c in text if c not in allowed and unicodedata.category(c) in HIDDEN]


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_terminal_output_has_no_control_or_format_character(text: str) -> None:
    assert hidden(terminal(text)) == []
    assert hidden(terminal(text, lines=True), allowed="\n\t") == []
    assert hidden(markdown(text)) == []


@settings(max_examples=300, deadline=None)
@given(PRINTABLE)
def test_printable_text_comes_back_unchanged(text: str) -> None:
    assert terminal(text) == text
    assert terminal(text, lines=True) == text


@settings(max_examples=300, deadline=None)
@given(st.text(st.characters(codec="ascii")))
def test_markdown_renders_as_the_same_text(text: str) -> None:
    shown = terminal(text)
    html = MarkdownIt("commonmark").renderInline(markdown(text))
    plain = html.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", '"').replace("&amp;", "&")
    assert "<" not in html.replace("&lt;", "")
    assert plain == shown


def test_escapes_are_visible_and_name_the_character() -> None:
    assert terminal("\x1b[2J\x1b[H") == "\\x1b[2J\\x1b[H"
    assert terminal("\x9b") == "\\x9b"
    assert terminal("a\u202eb") == "a\\u202eb"
    assert terminal("tab\there\nnext") == "tab\\there\\nnext"
    assert terminal("tab\there\nnext\r", lines=True) == "tab\there\nnext\\r"


def test_markdown_escapes_cells_and_markup() -> None:
    assert markdown("a|b") == "a\\|b"
    assert markdown("`code` <b>&amp; [x](y) *e* _u_ ~s~ \\") == (
        "\\`code\\` \\<b\\>\\&amp; \\[x\\](y) \\*e\\* \\_u\\_ \\~s\\~ \\\\"
    )
    assert markdown("x\ny") == "x\\\\ny"


def test_rich_shows_markup_and_sequences_as_text() -> None:
    console = Console(record=True, width=200, force_terminal=True, color_system="truecolor")
    for text in HOSTILE:
        console.print(inert(text))
    out = console.export_text(styles=False)
    assert "[bold red]x[/]" in out
    assert "\\x1b[32mseat 0 wins\\x1b[0m" in out
    assert hidden(out, allowed="\n") == []


def test_log_messages_are_one_inert_line() -> None:
    formatter = InertFormatter("%(levelname)s %(message)s")
    record = logging.LogRecord("arena", logging.WARNING, __file__, 1, "bot said %s", ("\x1b[2J\nforged",), None)
    assert formatter.format(record) == "WARNING bot said \\x1b[2J\\nforged"


def test_arena_inert_is_the_leaderboards_text_neutralising_itself() -> None:
    import arena.inert
    import leaderboards.inert

    for name in ("terminal", "markdown", "html_templates"):
        assert getattr(arena.inert, name) is getattr(leaderboards.inert, name)
