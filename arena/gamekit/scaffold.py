"""``arena game new``: write a new game package from the templates in ``templates/``.

The package is installable as it stands (``pip install -e``): its ``pyproject.toml`` declares the
``arena.games`` entry point, its module a small but complete card game that passes ``arena game
check``, its presentation with a replay viewer for the site, with tests and a README to start from.
"""

from __future__ import annotations

import importlib.util
import keyword
import re
from pathlib import Path

from jinja2 import Environment, PackageLoader, StrictUndefined

from arena.errors import ArenaError
from engine.registry import games

#: What a game's name may be: a plain lower-case Python module name.
NAME = re.compile(r"^[a-z][a-z0-9_]{1,39}$")

#: Each template and where it goes in the new package (``{name}`` is the game's name).
FILES = {
    "pyproject.toml.j2": "pyproject.toml",
    "README.md.j2": "README.md",
    "__init__.py.j2": "{name}/__init__.py",
    "game.py.j2": "{name}/game.py",
    "presentation.py.j2": "{name}/presentation.py",
    "viewer.js.j2": "{name}/viewer.js",
    "viewer.css.j2": "{name}/viewer.css",
    "test_game.py.j2": "tests/test_{name}.py",
}


class ScaffoldError(ArenaError):
    """A name or folder a new game cannot have."""


def check_name(name: str) -> None:
    """Raise :class:`ScaffoldError` unless ``name`` can name a new game and its module."""
    if not NAME.match(name) or keyword.iskeyword(name):
        raise ScaffoldError(f"{name!r} is not a game name: use 2-40 lower-case letters, digits and _, "
                            "starting with a letter (it is also the Python module's name)")
    if any(game.name == name for game in games().values()):
        raise ScaffoldError(f"a game named {name!r} is already registered")
    if importlib.util.find_spec(name) is not None:
        raise ScaffoldError(f"a module named {name!r} is already importable here: choose another name")


def scaffold(name: str, directory: Path) -> Path:
    """Write the package of the new game ``name`` into ``directory/name``; returns that folder.

    Raises :class:`ScaffoldError` for a bad name or a folder that already exists."""
    check_name(name)
    root = directory / name
    if root.exists():
        raise ScaffoldError(f"{root} already exists")
    templates = Environment(loader=PackageLoader("arena.gamekit", "templates"), undefined=StrictUndefined,
                            keep_trailing_newline=True, autoescape=False)
    values = {"name": name, "title": name.replace("_", " ").title(), "distribution": f"arena-game-{name}"}
    try:
        for template, target in FILES.items():
            path = root / target.format(name=name)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(templates.get_template(template).render(values), encoding="utf-8")
    except OSError as exc:
        raise ScaffoldError(f"{root}: {exc.strerror or exc}") from None
    return root
