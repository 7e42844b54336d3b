"""The Python bot SDK under its older name: everything here is :mod:`arena_bot.sdk` (the
``arena-bot`` distribution, ``sdk/python/``), which a bot should import instead; a bot written
against ``protocols.sdk`` keeps working wherever Arena is installed."""

from __future__ import annotations

from arena_bot.sdk import (
    GIVE_UP,
    BotExit,
    Choice,
    ChooseFn,
    Clock,
    EndHook,
    NewMatch,
    StartHook,
    clock_reading,
    match_random,
    match_seed,
    node_budget,
    read_connection_file,
    run,
    run_matches,
)

__all__ = [
    "GIVE_UP", "BotExit", "Choice", "ChooseFn", "Clock", "EndHook", "NewMatch", "StartHook",
    "clock_reading", "match_random", "match_seed", "node_budget", "read_connection_file", "run",
    "run_matches",
]
