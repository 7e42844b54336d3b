"""Text a bot supplies, made inert for people to read: in a terminal, in Markdown, in HTML.

A bot controls its name and version (``hello``), its ``error`` texts, its ``info`` and its output;
fault details quote them. None of it may drive a terminal (escape sequences, controls, bidi
overrides) or a document (Markdown or HTML markup). Every character that could is shown as a
visible escape such as ``\\x1b`` or ``\\u202e``; everything else comes back unchanged.

These functions return plain strings: in Rich, show them as ``rich.text.Text`` (never as markup).
This module sits below both ``leaderboards`` (whose published forms show bots' names) and
``arena`` (which re-exports it from :mod:`arena.inert`, with its log formatting); it imports
neither.
"""

from __future__ import annotations

import unicodedata

from jinja2 import Environment, PackageLoader, select_autoescape

#: Unicode categories never shown raw: controls (C0, DEL, C1), format characters (bidi overrides
#: and isolates, zero-width marks), surrogates, and line and paragraph separators.
_HIDDEN = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})

#: The characters that can start Markdown markup or inline HTML anywhere in a line (links and
#: images need a bracket); a backslash makes each literal.
_MARKDOWN = frozenset("\\`*_[]<>|~&")

#: The escapes people know by name.
_NAMED = {"\n": "\\n", "\t": "\\t", "\r": "\\r"}


def _visible(char: str) -> str:
    if char in _NAMED:
        return _NAMED[char]
    code = ord(char)
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def terminal(text: str, *, lines: bool = False) -> str:
    """``text`` with every control, format or separator character replaced by its visible escape.

    Newline and tab are escaped too unless ``lines`` is true (then they are kept, and nothing else
    can move the cursor). Text without such characters is returned unchanged."""
    if text.isprintable():
        return text
    kept = "\n\t" if lines else ""
    return "".join(
        _visible(c) if c not in kept and unicodedata.category(c) in _HIDDEN else c for c in text
    )


def markdown(text: str) -> str:
    """``text`` for one Markdown table cell or heading: :func:`terminal` (one line), then every
    character Markdown or HTML could interpret (pipe, backtick, brackets, ``<``, ``&``, emphasis,
    backslash, ...) escaped with a backslash, so it renders as exactly that text."""
    return "".join("\\" + c if c in _MARKDOWN else c for c in terminal(text))



def _inert_value(value: object) -> object:
    return terminal(value) if isinstance(value, str) else value


def html_templates(package: str) -> Environment:
    """The Jinja templates in ``package``'s ``templates/`` folder, for HTML: every text a template
    shows is made inert (:func:`terminal`) and then autoescaped."""
    return Environment(
        loader=PackageLoader(package, "templates"),
        autoescape=select_autoescape(["html", "j2"], default=True),
        finalize=_inert_value,
        trim_blocks=True,
        lstrip_blocks=True,
    )
