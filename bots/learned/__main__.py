"""``python -m bots.learned --policy FILE.npz [--best]``: a trained policy file as a bot.

The file (:mod:`bots.learned.network`) is read at start: a file that cannot be used ends the bot
at once with one line on stderr and status 2. Each match's ``start`` is checked against the setup
the policy was trained for (game, version, variant, players, knobs): another setup ends the bot
with one line and status 1. Each decision draws from the policy's probabilities with the match's
own generator (``start.seed``), so a match plays the same in any process; ``--best`` always takes
the most probable legal action instead. The SDK's own options (``--endpoint``, ...) pass through.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from arena_bot.sdk import BotExit
from bots.learned.network import PolicyFileError, PolicyMismatch, load_network
from bots.learned.play import VectorPolicy, serve_vector_policy, softmax_policy
from bots.shared.match import Match

NAME = "learned"
#: The version it says in its hello.
VERSION = "1"


def main(argv: Sequence[str] | None = None) -> int:
    """Load the policy named by ``--policy`` and play; the exit status."""
    parser = argparse.ArgumentParser(prog="python -m bots.learned", description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--policy", type=Path, required=True, help="the policy file (.npz)")
    parser.add_argument("--best", action="store_true", help="take the most probable legal action, never draw")
    args, _sdk_options = parser.parse_known_args(argv)
    try:
        network = load_network(args.policy)
    except PolicyFileError as exc:
        print(f"{NAME}: {exc}", file=sys.stderr)
        return 2

    def policy_for(match: Match) -> VectorPolicy:
        try:
            network.check(match.game, match.config)
        except PolicyMismatch as exc:
            raise BotExit(f"{args.policy}: {exc}") from None
        return softmax_policy(network, match.rng, best=args.best)

    return serve_vector_policy(NAME, VERSION, policy_for)


if __name__ == "__main__":
    raise SystemExit(main())
