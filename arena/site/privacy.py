"""What a published page may say about the field: names, versions and file hashes, never a bot's
``env`` values, and its command line only when the organiser asks for it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from arena.store.db import BotRow

#: Shown instead of each hidden ``env`` value (the variable's name stays: it explains a setting).
HIDDEN = "(hidden)"
#: Shown instead of the master seed while games are still to be played (it decides every deal).
LATER = "(published when every game is played)"


def public_settings(
    config: Mapping[str, Any], include_commands: bool = False, running: bool = False
) -> dict[str, Any]:
    """A tournament's stored config fit to publish: every bot's ``env`` values hidden, and its
    ``bot`` text (a command line or manifest path) and ``folder`` dropped unless
    ``include_commands``; the master seed (and a deal secret) hidden while the tournament is ``running``. The input is
    not changed."""
    plain = dict(config)
    for key in ("seed", "deal_secret"):
        if running and key in plain:
            plain[key] = LATER
    bots: list[Any] = []
    for entry in plain.get("bots", ()):
        if not isinstance(entry, Mapping):
            continue
        shown = {k: v for k, v in entry.items() if k not in ("env", "bot", "folder")}
        env = entry.get("env")
        if isinstance(env, Mapping) and env:
            shown["env"] = {str(name): HIDDEN for name in env}
        if include_commands:
            shown["bot"] = entry.get("bot")
        bots.append(shown)
    if "bots" in plain:
        plain["bots"] = bots
    return plain


def public_bots(rows: Sequence[BotRow], include_commands: bool = False) -> list[dict[str, Any]]:
    """Each stored bot as ``{"name", "version", "files_hash"}`` (plus ``"command"`` if asked)."""
    shown: list[dict[str, Any]] = []
    for row in rows:
        bot: dict[str, Any] = {"name": row.name, "version": row.version, "files_hash": row.files_hash}
        if include_commands:
            bot["command"] = list(row.command)
        shown.append(bot)
    return shown
