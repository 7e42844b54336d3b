"""Names people choose (a bot's, say) as parts of file names: any text made safe for one."""

from __future__ import annotations

import re

_UNSAFE = re.compile(r"[^A-Za-z0-9_.@-]")


def file_part(text: str, limit: int = 40) -> str:
    """``text`` as part of one file name: every character but ASCII letters, digits, ``_``, ``.``,
    ``@`` (a league version's ``bot@2``) and ``-`` replaced by ``_`` (so no ``/``, NUL or control
    character), at most ``limit`` characters, never empty, never starting with a dot."""
    safe = _UNSAFE.sub("_", text)[:limit]
    return "_" + safe[1:] if safe.startswith(".") else safe or "_"
