"""Read a game reference page (docs/games/<game>.md): the first cell of each table row, by section."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

_CELL_SPLIT = re.compile(r"(?<!\\)\|")
_CODE = re.compile(r"`([^`]+)`")
_INDEX = re.compile(r"\[[^\]]*\]")
_PLACEHOLDER = re.compile(r"<[^>]+>")


@dataclass(frozen=True)
class Reference:
    """What a reference page documents: observation key paths, event fields by type, phase values."""

    keys: frozenset[str]
    events: dict[str, frozenset[str]]
    phases: frozenset[str]

    def documents(self, path: str) -> bool:
        """Whether the key ``path`` (``a.b.c``, lists left out) is documented, ``<name>`` matching any key."""
        if path in self.keys:
            return True
        parent = path.rpartition(".")[0]
        return bool(parent) and f"{parent}.*" in self.keys


def normalize(path: str) -> str:
    """``figure_cards[s].Ancestor`` -> ``figure_cards.Ancestor``; ``hand.<card>`` -> ``hand.*``."""
    return _PLACEHOLDER.sub("*", _INDEX.sub("", path))


def _rows(text: str) -> dict[str, list[list[str]]]:
    sections: dict[str, list[list[str]]] = {}
    current = ""
    for line in text.splitlines():
        if line.startswith("## "):
            current = line[3:].strip()
            sections[current] = []
        elif line.startswith("|") and current and not re.fullmatch(r"[|\-: ]+", line):
            cells = [c.strip() for c in _CELL_SPLIT.split(line.strip())[1:-1]]
            sections[current].append(cells)
    return sections


def _first_code(cell: str) -> str | None:
    found = _CODE.findall(cell)
    return found[0] if found else None


def read_reference(path: Path, phase_section: str | None) -> Reference:
    """Parse the ``Observation``, ``Events`` and ``phase_section`` tables of the page at ``path``
    (no phases for a game without them, ``phase_section=None``)."""
    rows = _rows(path.read_text(encoding="utf-8"))
    keys = {normalize(k) for r in rows["Observation"] if (k := _first_code(r[0]))}
    events = {
        t: frozenset(_CODE.findall(r[1])) for r in rows["Events"] if (t := _first_code(r[0]))
    }
    phase_rows = rows[phase_section] if phase_section is not None else []
    phases = {p for r in phase_rows if (p := _first_code(r[0]))}
    return Reference(frozenset(keys), events, frozenset(phases))
