"""Per-match randomness: :func:`match_seed` and :func:`match_random`, and a bot built with
:func:`run_matches` (the built-in random bot) over a real socket, drawing the same in a match
whatever it played before it."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator

import pytest

from arena_bot.messages import ENV_ENDPOINT, ENV_SEED, ENV_TOKEN, Act, Action, Bye, ClockMs, Start
from arena_bot.sdk import match_random, match_seed
from protocols.transport import Hub, Peer

CLOCK = ClockMs(5000, 0, 0)
LEGAL = tuple(range(1000))


def start_message(seed: int, seat: int = 0) -> Start:
    return Start(f"m{seed}", "wongar", 2, "basic", {}, seat, 3, seed, [], CLOCK, 50)


def test_match_seed_is_the_start_seed_unless_the_bot_has_its_own(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ENV_SEED, raising=False)
    assert match_seed(start_message(7)) == 7
    monkeypatch.setenv(ENV_SEED, "1")
    one = match_seed(start_message(7))
    monkeypatch.setenv(ENV_SEED, "2")
    assert len({one, match_seed(start_message(7)), 7}) == 3
    monkeypatch.setenv(ENV_SEED, "1")
    assert match_seed(start_message(7)) == one


def test_match_random_draws_the_same_for_the_same_start_and_labels(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ENV_SEED, raising=False)
    draws = [match_random(start_message(7)).random() for _ in range(2)]
    assert draws[0] == draws[1]
    assert match_random(start_message(8)).random() != draws[0]
    labelled = [match_random(start_message(7), "seat", 0).random() for _ in range(2)]
    assert labelled[0] == labelled[1] != draws[0]


@pytest.fixture
def random_bot() -> Iterator[tuple[Hub, Peer, subprocess.Popen[str]]]:
    """The built-in random bot (a :func:`run_matches` bot) connected to a hub of its own."""
    with Hub() as hub:
        peer = hub.expect("r")
        env = {key: value for key, value in os.environ.items() if not key.startswith("ARENA_")}
        bot = subprocess.Popen([sys.executable, "-m", "bots.random"], text=True, stderr=subprocess.PIPE,
                               env={**env, ENV_ENDPOINT: hub.endpoint, ENV_TOKEN: peer.token})
        try:
            assert hub.wait_connected([peer], 10) == []
            yield hub, peer, bot
        finally:
            bot.kill()
            bot.communicate()


def ask(hub: Hub, peer: Peer) -> int:
    """Send one ``act`` offering :data:`LEGAL`; the action the bot answers."""
    seq = hub.next_seq()
    hub.send(peer, Act(seq, 0, 0, {}, LEGAL, [], CLOCK))
    incoming = hub.receive(10)
    assert incoming is not None and isinstance(incoming.message, Action), incoming
    assert incoming.message.seq == seq
    return incoming.message.action


def play(hub: Hub, peer: Peer, seed: int, decisions: int) -> list[int]:
    hub.send(peer, start_message(seed))
    return [ask(hub, peer) for _ in range(decisions)]


def test_a_match_draws_the_same_whatever_the_process_played_before(
    random_bot: tuple[Hub, Peer, subprocess.Popen[str]],
) -> None:
    hub, peer, bot = random_bot
    first = play(hub, peer, 7, 5)
    other = play(hub, peer, 8, 3)
    again = play(hub, peer, 7, 5)
    assert again == first and other != first[:3]
    hub.send(peer, Bye("done"))
    assert bot.wait(10) == 0


def test_an_act_before_any_start_ends_the_bot(random_bot: tuple[Hub, Peer, subprocess.Popen[str]]) -> None:
    hub, peer, bot = random_bot
    hub.send(peer, Act(hub.next_seq(), 0, 0, {}, LEGAL, [], CLOCK))
    _, err = bot.communicate(timeout=10)
    assert bot.returncode == 1 and err.strip() == "random: an act came before any start"
