"""Every message of the protocol (:mod:`arena_bot.messages`, the bot SDK's), under the name the
arena has always imported it by."""

from __future__ import annotations

from arena_bot.messages import (
    CLOCK_KINDS,
    ENV_ENDPOINT,
    ENV_NODES,
    ENV_SEED,
    ENV_SERVER_KEY,
    ENV_TOKEN,
    OLDEST_PROTOCOL_VERSION,
    PROTOCOL_VERSION,
    TYPE_NAMES,
    Act,
    Action,
    Bye,
    ClockMs,
    End,
    Error,
    Hello,
    Message,
    Ping,
    Pong,
    Start,
    Welcome,
)

__all__ = [
    "CLOCK_KINDS", "ENV_ENDPOINT", "ENV_NODES", "ENV_SEED", "ENV_SERVER_KEY", "ENV_TOKEN",
    "OLDEST_PROTOCOL_VERSION", "PROTOCOL_VERSION", "TYPE_NAMES", "Act", "Action", "Bye", "ClockMs",
    "End", "Error", "Hello", "Message", "Ping", "Pong", "Start", "Welcome",
]
