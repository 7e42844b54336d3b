"""``arena test``: a candidate against a baseline, as a paired gauntlet with a sequential test.

The comparison is the tournament machinery's. With fill bots: a gauntlet of two candidates, the
candidate (bot ``candidate``) first and the baseline (bot ``baseline``) second, against the fill bots
(``fill-1`` ...), with ``paired = true`` (both play the same deals with the same fill bots in the
same seats, in every rotation; see :mod:`arena.tournament.schedule`) and an ``sprt`` table (tested
after every deal pair by :mod:`leaderboards.paired`; see :mod:`arena.tournament.sprt`).

Without fill bots the other seats are copies of the baseline (``baseline-1`` ...). The baseline's
own block would then seat the baseline at every place of the table, so its score is ½ in
expectation on every deal (exactly ½ for deterministic bots, whose rotations then replay one game):
it carries no information and is not played. What is left is a one-candidate gauntlet against the
baseline's copies with the gauntlet's test (:mod:`leaderboards.sprt`), whose hypotheses then mean
the same as the paired ones (the candidate's score minus the baseline's ½). ``deals`` is the most
deals either plays.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from arena.tournament import TournamentError
from arena.tournament.builds import current_builds
from arena.tournament.config import TournamentConfig, parse_config
from leaderboards.sprt import SprtError, SprtSettings

#: The bot names of the two sides in the tournament.
CANDIDATE, BASELINE = "candidate", "baseline"


@dataclass(frozen=True, slots=True)
class Entrant:
    """A bot of the test: what to run (a built-in name, a command line or a manifest) and its node
    budget (``None``: its own)."""

    bot: str
    nodes: int | None = None

    def plain(self, name: str) -> dict[str, Any]:
        """The ``[[bots]]`` entry of this bot under ``name``."""
        entry: dict[str, Any] = {"name": name, "bot": self.bot}
        if self.nodes is not None:
            entry["nodes"] = self.nodes
        return entry


def parse_sprt(text: str) -> SprtSettings:
    """``elo0=0,elo1=5[,alpha=0.05,beta=0.05]`` as settings (defaults of :class:`SprtSettings` for
    keys left out); :class:`TournamentError` naming the problem."""
    values: dict[str, float] = {}
    for item in text.split(","):
        key, equals, value = item.partition("=")
        key = key.strip()
        if not equals or key not in ("elo0", "elo1", "alpha", "beta"):
            raise TournamentError(
                f"--sprt {text!r}: expected KEY=NUMBER items (elo0, elo1, alpha, beta) split by commas"
            )
        try:
            values[key] = float(value)
        except ValueError:
            raise TournamentError(f"--sprt {text!r}: {key} is not a number: {value!r}") from None
    try:
        return SprtSettings(**values)
    except SprtError as exc:
        raise TournamentError(f"--sprt {text!r}: {exc}") from None


def head_to_head_config(
    game: str,
    candidate: Entrant,
    baseline: Entrant,
    fill: Sequence[Entrant],
    settings: SprtSettings,
    *,
    max_deals: int,
    knobs: Mapping[str, str] | None = None,
    variant: str | None = None,
    extra: Mapping[str, Any] | None = None,
    base: Path | None = None,
) -> TournamentConfig:
    """The gauntlet that tests ``candidate`` against ``baseline``: paired, with ``fill`` (one bot per
    other seat), or against copies of the baseline when ``fill`` is empty (then
    ``extra["table_size"]`` seats, default 3).
    ``extra`` holds further config keys (``time_control``, ``seed``, ``concurrency``, ``clock``,
    ``sandbox``, ``strikes``, ``pin_cpus``...). Its name is ``test-`` and a hash of the config (but
    its concurrency; its seed where one is given) and of the bots' files, so the same test run again
    with the same database resumes it (with the seed it drew), and another test (another seed, or a
    bot whose files changed) gets a tournament of its own. Command lines run in ``base`` (default:
    the current folder). Raises :class:`TournamentError`."""
    keys = dict(extra or {})
    seats = int(keys.pop("table_size", 3))
    if fill:
        seats = 1 + len(fill)
    if fill:
        bots = [candidate.plain(CANDIDATE), baseline.plain(BASELINE)]
        bots += [entrant.plain(f"fill-{i}") for i, entrant in enumerate(fill, 1)]
    else:
        bots = [candidate.plain(CANDIDATE)]
        bots += [baseline.plain(f"{BASELINE}-{i}") for i in range(1, seats)]
    raw: dict[str, Any] = {
        "game": game,
        "table_size": seats,
        "format": "gauntlet",
        "candidates": [CANDIDATE, BASELINE] if fill else [CANDIDATE],
        "paired": bool(fill),
        "deals": max_deals,
        "time_control": "1s",
        "sprt": settings.to_plain(),
        "knobs": dict(knobs or {}),
        "bots": bots,
        **keys,
    }
    if variant is not None:
        raw["variant"] = variant
    config = parse_config({**raw, "name": "test"}, source="arena test", base=base or Path.cwd())
    what = {k: v for k, v in raw.items() if k not in ("concurrency", "pin_cpus")}
    builds = {name: build.row.files_hash for name, build in current_builds(config).items()}
    digest = hashlib.blake2b(json.dumps([what, builds], sort_keys=True).encode(), digest_size=4)
    return replace(config, name="test-" + digest.hexdigest())
