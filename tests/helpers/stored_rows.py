"""A results database's rows counted from outside the process that writes it: read-only, and 0
while the file cannot be read yet (not created, or still being created)."""

from __future__ import annotations

import sqlite3
from pathlib import Path


def stored_count(db: Path, table: str = "games") -> int:
    """Rows of ``table`` in ``db`` (0 while it cannot be read)."""
    try:
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
            return int(conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0])
    except sqlite3.Error:
        return 0
