"""The bot SDK stands alone: it imports nothing of Arena, and it loads and runs with Arena's
packages off the path."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
import textwrap
from pathlib import Path

SDK = Path(__file__).resolve().parents[2] / "sdk" / "python"
#: Arena's own packages, none of which the SDK may import.
ARENA = ("arena", "engine", "protocols", "bots", "leaderboards")
#: What the SDK may import: the standard library, its two dependencies and itself.
ALLOWED = frozenset(sys.stdlib_module_names) | {"msgpack", "zmq", "arena_bot"}


def imported(path: Path) -> set[str]:
    """The top-level names of every module ``path`` imports, at any depth of its code."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def test_the_sdk_imports_only_the_standard_library_msgpack_and_zmq() -> None:
    sources = sorted((SDK / "arena_bot").glob("*.py")) + sorted((SDK / "examples").glob("*.py"))
    assert len(sources) >= 8
    outside = {path.name: imported(path) - ALLOWED for path in sources}
    assert {name: found for name, found in outside.items() if found} == {}


def test_the_sdk_runs_with_arena_off_the_path() -> None:
    """A fresh interpreter that refuses Arena's packages loads every SDK module, round-trips a
    message and gets the SDK's own one-line refusal for a bot with no endpoint."""
    code = textwrap.dedent(f"""
        import sys

        class Refuse:
            def find_spec(self, name, path=None, target=None):
                if name.split(".")[0] in {ARENA!r}:
                    raise ImportError(f"{{name}} is off the path")
                return None

        sys.meta_path.insert(0, Refuse())
        sys.path.insert(0, {str(SDK)!r})
        import arena_bot.codec, arena_bot.delta, arena_bot.messages, arena_bot.sdk, arena_bot.seeds
        from arena_bot.messages import Ping
        assert arena_bot.codec.decode(arena_bot.codec.encode(Ping(3))) == Ping(3)
        assert arena_bot.sdk.__file__.startswith({str(SDK)!r})
        status = arena_bot.sdk.run(lambda observation, legal, clock: legal[0], name="lone", argv=[])
        print("loaded:", sorted(m for m in sys.modules if m.split(".")[0] in {ARENA!r}))
        sys.exit(status)
    """)
    env = {key: value for key, value in os.environ.items() if not key.startswith("ARENA_")}
    done = subprocess.run([sys.executable, "-I", "-c", code], env=env, capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 2, done.stderr
    assert done.stdout.strip() == "loaded: []"
    assert done.stderr.strip() == (
        "lone: no referee endpoint: pass --endpoint or --connect, or set ARENA_ENDPOINT"
    )
