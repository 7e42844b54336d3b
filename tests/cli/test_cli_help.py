"""Every command's ``--help`` (the command groups' too) through the real Typer app: its examples,
one per line."""

from __future__ import annotations

import inspect

import pytest
import typer
from typer.testing import CliRunner

from arena.cli.app import app

runner = CliRunner()


def _commands(command: object, prefix: tuple[str, ...] = ()) -> list[tuple[tuple[str, ...], object]]:
    """``command`` and every command under it, with the words that invoke each."""
    subcommands: dict[str, object] = getattr(command, "commands", {})
    return [(prefix, command)] + [
        found for name, sub in subcommands.items() for found in _commands(sub, (*prefix, name))
    ]


COMMANDS = _commands(typer.main.get_command(app))


def _examples(help_text: str) -> list[str]:
    """The lines of the docstring's ``Examples:`` block (up to the next blank line)."""
    lines = inspect.cleandoc(help_text).splitlines()
    start = lines.index("Examples:") + 1
    block: list[str] = []
    for line in lines[start:]:
        if not line.strip():
            break
        block.append(line.strip())
    return block


def test_every_command_is_covered() -> None:
    paths = [path for path, _ in COMMANDS]
    assert () in paths and ("games",) in paths and ("tournament", "run") in paths and ("games", "list") in paths
    assert len(paths) >= 20


@pytest.mark.parametrize(("path", "command"), COMMANDS, ids=[" ".join(("arena", *p)) for p, _ in COMMANDS])
@pytest.mark.parametrize("columns", ["60", "200"])
def test_help_lists_each_example_on_its_own_line(path: tuple[str, ...], command: object, columns: str) -> None:
    examples = _examples(str(getattr(command, "help", "") or ""))
    assert examples, f"arena {' '.join(path)} has no examples"
    assert all(e.startswith("arena ") for e in examples)
    result = runner.invoke(app, [*path, "--help"], env={"COLUMNS": columns})
    assert result.exit_code == 0, result.output
    shown = [line.strip() for line in result.stdout.splitlines()]
    assert "Examples:" in shown
    for example in examples:
        assert example in shown, f"{example!r} is not a line of:\n{result.stdout}"
