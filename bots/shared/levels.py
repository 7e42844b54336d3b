"""Levels of the searching built-in bots: ``level = 1 .. 5`` in a tournament's ``[[bots]]`` entry,
given to the bot as ``ARENA_LEVEL`` and turned, per game, into a node budget.

Level 3 is the budget the ladder configs give; lower levels search less, higher ones more, so an
organiser can place a bot between two steps of the ladder (``greedy`` below level 3 also looks one
decision ahead instead of a whole turn: :data:`bots.greedy.WHOLE_TURN_LEVEL`). An explicit node
budget (``nodes``, ``ARENA_NODES``) wins over a level's. The budgets depend only on the bot, the
game and the level, so a level plays the same games on any machine.
"""

from __future__ import annotations

import os

#: The environment variable a bot's level is given in.
ENV_LEVEL = "ARENA_LEVEL"
#: The levels there are.
LEVELS = range(1, 6)
#: Node budgets by bot, game (``""``: any other game) and level (index ``level - 1``).
BUDGETS: dict[str, dict[str, tuple[int, ...]]] = {
    "greedy": {"": (1, 2, 4, 8, 16)},
    "ismcts": {"wongar": (100, 200, 400, 800, 1600), "waroong": (40, 80, 150, 300, 600),
               "": (25, 50, 100, 200, 400)},
}


class LevelError(ValueError):
    """A level that is not one of :data:`LEVELS`, or a bot that takes none."""


def check_level(bot: str, level: object) -> int:
    """``level`` as a level of ``bot`` (a built-in bot's name); :class:`LevelError` with a one-line
    reason otherwise."""
    if bot not in BUDGETS:
        raise LevelError(f"only {' and '.join(sorted(BUDGETS))} take a level, not {bot!r}")
    if isinstance(level, bool) or not isinstance(level, int) or level not in LEVELS:
        raise LevelError(f"a level is a whole number from {LEVELS[0]} to {LEVELS[-1]}, not {level!r}")
    return level


def level_nodes(bot: str, game: str, level: int) -> int:
    """The node budget of ``bot`` at ``level`` in ``game`` (by name)."""
    budgets = BUDGETS[bot]
    return budgets.get(game, budgets[""])[check_level(bot, level) - 1]


def env_level(bot: str) -> int | None:
    """The level in ``ARENA_LEVEL`` for ``bot``, ``None`` when it is unset; :class:`LevelError`
    when it is set to anything but a level."""
    text = os.environ.get(ENV_LEVEL)
    if text is None:
        return None
    try:
        level: object = int(text.strip())
    except ValueError:
        level = text
    try:
        return check_level(bot, level)
    except LevelError as exc:
        raise LevelError(f"{ENV_LEVEL}: {exc}") from None
