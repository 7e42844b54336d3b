"""How the referee judges replies, with exact answers: scripted bots in threads over a real socket
(no processes to start) play whole matches; each test scripts one seat's replies and checks the
faults, the fallbacks, the clock each ``act`` carries and the ``start`` message."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from scripted_seats import Script, ScriptedBot, Step, prompt

from arena.clock import TimeControl
from arena.handle import BotHandle
from arena.manifest import BotSpec
from arena.record import Fault, FaultKind, MatchRecord
from arena.referee import FaultPolicy, RefereeError, final_ranks, play_match
from engine.core import Game, derive_seed, seeded_rng
from engine.registry import games
from protocols.codec import INFO_LIMIT
from protocols.messages import Act, Action, ClockMs, Error, Pong
from protocols.transport import Hub

SEED = 21
#: A referee that waits where it should not fails the test soon (each takes a second at most).
pytestmark = pytest.mark.timeout(30)

Table = Callable[..., tuple[MatchRecord, list[ScriptedBot]]]


#: A move time no loaded machine makes a prompt reply miss: the tests using it judge what the bots
#: say, never when they say it (the timing tests in this file give their own).
PROMPT = TimeControl(30.0)
PROMPT_GRACE = TimeControl(30.0, grace=0.5)


@pytest.fixture(scope="module")
def game() -> Game:
    return next(g for g in games().values() if g.min_players == 3)


@pytest.fixture()
def table() -> Iterator[Table]:
    """Plays one match of three scripted seats; returns the record and the bots."""
    bots: list[ScriptedBot] = []

    def play(game: Game, control: TimeControl, *scripts: Script, strikes: int = 3,
             seed: int = SEED, on_decision: Callable[..., None] | None = None
             ) -> tuple[MatchRecord, list[ScriptedBot]]:
        with Hub("tcp://127.0.0.1:*") as hub:
            handles = [BotHandle.remote(BotSpec(f"seat{s}", ("scripted",)), hub) for s in range(3)]
            for seat, handle in enumerate(handles):
                script = scripts[seat] if seat < len(scripts) else prompt
                bots.append(ScriptedBot(hub.endpoint, handle.peer.token, script))
            assert hub.wait_connected([h.peer for h in handles], 10) == []
            record = play_match(game, game.configure(3), seed, handles, control, FaultPolicy(strikes),
                                match_id="m-1", on_decision=on_decision)
            for handle in handles:
                handle.say_bye()
        for bot in bots:
            bot.thread.join(5)
        return record, bots

    yield play
    for bot in bots:
        bot.stop.set()


def seat_faults(record: MatchRecord, seat: int = 0) -> list[Fault]:
    return [f for f in record.faults if f.seat == seat]


def first_decision(record: MatchRecord, seat: int = 0) -> int:
    return next(i for i, d in enumerate(record.decisions) if d.seat == seat)


def test_start_carries_the_match_the_seat_and_the_clock_in_its_own_fields(game: Game, table: Table) -> None:
    control = TimeControl(1.0, increment=0.25, bank=3.0, grace=0.125)
    record, bots = table(game, control)
    assert record.faults == ()
    for seat, bot in enumerate(bots):
        (start,) = bot.starts
        assert start.clock == ClockMs(move_ms=1000, bank_ms=3000, increment_ms=250)
        assert (start.grace_ms, start.clock_kind, start.seat, start.players) == (125, "wall", seat, 3)
        assert (start.match, start.game, start.version) == ("m-1", game.name, game.version)
        assert start.seed == derive_seed(SEED, "bot", seat)
        (end,) = bot.ends
        assert end.seat == seat and end.scores == record.scores and end.ranks == record.ranks
        assert bot.acts[0].clock == ClockMs(1000, 3000, 250)
        # Prompt replies inside the free move: every later act shows one more increment.
        assert bot.acts[1].clock == ClockMs(1000, 3250, 250)
        assert bot.acts[2].clock == ClockMs(1000, 3500, 250)
    assert record.detail["time_control"] == "1s+250ms/3s~125ms"
    assert record.detail["dropped"] == [0, 0, 0] and record.detail["info_dropped"] == [0, 0, 0]
    assert not any(d.fallback for d in record.decisions)


def test_a_reply_inside_the_grace_window_is_accepted_and_empties_the_bank(game: Game, table: Table) -> None:
    def slow_first(act: Act, before: int) -> list[Step]:
        return [0.3, Action(act.seq, act.legal[-1])] if before == 0 else prompt(act, before)

    record, bots = table(game, TimeControl(0.05, bank=0.1, grace=1.0), slow_first)
    assert seat_faults(record) == []
    decision = record.decisions[first_decision(record)]
    assert decision.action == bots[0].acts[0].legal[-1] and not decision.fallback
    assert 0.3 <= decision.elapsed < 1.15
    assert bots[0].acts[0].clock == ClockMs(50, 100, 0)
    assert bots[0].acts[1].clock == ClockMs(50, 0, 0)


def test_a_reply_after_the_grace_is_a_timeout_charged_the_whole_bank(game: Game, table: Table) -> None:
    def silent_first(act: Act, before: int) -> list[Step]:
        return [0.45, Action(act.seq, act.legal[0])] if before == 0 else prompt(act, before)

    control = TimeControl(0.05, increment=0.5, bank=0.2, grace=0.05)
    record, bots = table(game, control, silent_first)
    assert seat_faults(record) == [Fault(0, FaultKind.TIMEOUT, first_decision(record), "no reply within 300 ms")]
    assert bots[0].acts[0].clock == ClockMs(50, 200, 500)
    assert bots[0].acts[1].clock == ClockMs(50, 500, 500)  # the bank spent, then the increment
    # The late reply came while the next act was outstanding: dropped, not a second fault.
    assert record.detail["dropped"] == [1, 0, 0]
    decision = record.decisions[first_decision(record)]
    assert decision.fallback and decision.info is None
    assert decision.action == seeded_rng(SEED, "fallback", 0).choice(list(bots[0].acts[0].legal))


def test_fallbacks_are_the_seeded_random_stream_not_the_first_legal_action(game: Game, table: Table) -> None:
    def illegal(act: Act, before: int) -> list[Step]:
        return [Action(act.seq, max(act.legal) + 1)]

    record, bots = table(game, PROMPT, illegal, strikes=1)
    (fault,) = record.faults
    assert fault.kind is FaultKind.ILLEGAL and fault.ply == first_decision(record)
    assert fault.detail.startswith(f"action {max(bots[0].acts[0].legal) + 1} (")
    assert fault.detail.endswith(f") is not among the legal {list(bots[0].acts[0].legal)}")
    assert len(bots[0].acts) == 1  # forfeited after one strike: never asked again
    assert record.forfeited == (0,) and record.ranks[0] == 3
    assert sorted(record.ranks[1:]) in ([1, 2], [1, 1])
    # Replay: each of seat 0's decisions is the next draw of its seeded stream over its legal actions.
    state = game.start(game.configure(3), SEED)
    stream = seeded_rng(SEED, "fallback", 0)
    firsts = differ = 0
    for decision in record.decisions:
        if decision.seat == 0:
            legal = state.legal_actions(0)
            assert decision.fallback and decision.action == stream.choice(legal)
            firsts += 1
            differ += decision.action != legal[0]
        else:
            assert not decision.fallback
        state.apply(decision.seat, decision.action)
    assert state.is_over() and firsts > 10 and differ > 0


def test_a_stale_error_is_dropped_and_a_current_one_is_a_malformed_strike(game: Game, table: Table) -> None:
    def errors(act: Act, before: int) -> list[Step]:
        if before == 0:
            return [Error("about an old request", act.seq - 1), Error("no seq"), Action(act.seq, act.legal[0])]
        if before == 1:
            return [Error("cannot decide", act.seq)]
        return prompt(act, before)

    record, bots = table(game, PROMPT_GRACE, errors)
    second = [i for i, d in enumerate(record.decisions) if d.seat == 0][1]
    assert seat_faults(record) == [Fault(0, FaultKind.MALFORMED, second, "bot reported: cannot decide")]
    assert record.detail["dropped"] == [2, 0, 0]
    assert not record.decisions[first_decision(record)].fallback
    assert record.decisions[second].fallback
    assert record.forfeited == ()


def test_wrong_seats_and_strikes_forfeit_at_the_limit(game: Game, table: Table) -> None:
    def wrong_seat(act: Act, before: int) -> list[Step]:
        return [Action(act.seq, act.legal[0], seat=2)] if before < 2 else prompt(act, before)

    record, bots = table(game, PROMPT, wrong_seat, strikes=2)
    detail = "reply claims seat 2, but it plays seat 0"
    seat0 = [i for i, d in enumerate(record.decisions) if d.seat == 0]
    assert seat_faults(record) == [Fault(0, FaultKind.MALFORMED, seat0[0], detail),
                                   Fault(0, FaultKind.MALFORMED, seat0[1], detail)]
    assert record.forfeited == (0,) and len(bots[0].acts) == 2
    # One strike fewer than the limit is not a forfeit.
    record, _ = table(game, PROMPT, wrong_seat, strikes=3)
    assert len(seat_faults(record)) == 2 and record.forfeited == ()
    assert record.decisions[seat0[0]].fallback and not record.decisions[seat0[2]].fallback


def test_info_is_kept_up_to_the_cap_and_counted_when_dropped(game: Game, table: Table) -> None:
    def talk(act: Act, before: int) -> list[Step]:
        info = {"eval": 0.5, "pv": [1, 2]} if before == 0 else {"pad": "x" * INFO_LIMIT}
        return [Action(act.seq, act.legal[0], info=info if before < 3 else None)]

    record, _ = table(game, PROMPT, talk)
    seat0 = [record.decisions[i] for i, d in enumerate(record.decisions) if d.seat == 0]
    assert seat0[0].info == {"eval": 0.5, "pv": [1, 2]}
    assert seat0[1].info is None and seat0[2].info is None and seat0[3].info is None
    assert record.detail["info_dropped"] == [2, 0, 0] and record.faults == ()


def test_garbage_and_unasked_messages_are_told_apart_and_logged(
    game: Game, table: Table, caplog: pytest.LogCaptureFixture
) -> None:
    def odd(act: Act, before: int) -> list[Step]:
        if before == 0:
            return [Pong(act.seq), Action(act.seq, act.legal[0])]  # a pong is no answer: dropped
        if before == 1:
            return [b"\xc1"]  # not msgpack at all: a malformed strike
        return prompt(act, before)

    with caplog.at_level("INFO", logger="arena.referee"):
        record, bots = table(game, PROMPT_GRACE, odd)
    seat0 = [i for i, d in enumerate(record.decisions) if d.seat == 0]
    detail = "byte 0xc1 at offset 0 is not allowed"
    assert seat_faults(record) == [Fault(0, FaultKind.MALFORMED, seat0[1], detail)]
    assert record.detail["dropped"] == [1, 0, 0]
    assert not record.decisions[seat0[0]].fallback and record.decisions[seat0[1]].fallback
    messages = [r.getMessage() for r in caplog.records if r.name == "arena.referee"]
    assert f"m-1 seat 0 malformed: {detail}" in messages
    assert f"m-1 dropped {Pong(bots[0].acts[0].seq)!r} from seat0 (waiting for seq {bots[0].acts[0].seq})" \
        in messages


def test_an_illegal_action_is_named_by_its_label_and_logged(
    game: Game, table: Table, caplog: pytest.LogCaptureFixture
) -> None:
    def illegal_first(act: Act, before: int) -> list[Step]:
        return [Action(act.seq, max(act.legal) + 1)] if before == 0 else prompt(act, before)

    seen: list[tuple[bool, int]] = []
    with caplog.at_level("INFO", logger="arena.referee"):
        record, bots = table(game, PROMPT, illegal_first,
                             on_decision=lambda state, decision: seen.append((state.is_over(), decision.seat)))
    assert [seat for _, seat in seen] == [d.seat for d in record.decisions]
    assert [over for over, _ in seen] == [False] * (len(seen) - 1) + [True]
    first = first_decision(record)
    state = game.start(game.configure(3), SEED)
    for decision in record.decisions[:first]:
        state.apply(decision.seat, decision.action)
    wrong = max(bots[0].acts[0].legal) + 1
    detail = (f"action {wrong} ({state.action_label(wrong)}) is not among the legal "
              f"{list(bots[0].acts[0].legal)}")
    assert seat_faults(record) == [Fault(0, FaultKind.ILLEGAL, first, detail)]
    messages = [r.getMessage() for r in caplog.records if r.name == "arena.referee"]
    assert f"m-1 seat 0 illegal: {detail}" in messages


def test_a_forfeited_seat_is_charged_no_time_and_logged_once(
    game: Game, table: Table, caplog: pytest.LogCaptureFixture
) -> None:
    def wrong_seat(act: Act, before: int) -> list[Step]:
        return [Action(act.seq, act.legal[0], seat=1)]

    with caplog.at_level("INFO", logger="arena.referee"):
        record, _ = table(game, PROMPT, wrong_seat, strikes=1)
    later = [d for d in record.decisions if d.seat == 0][1:]
    assert later and all(d.fallback and d.elapsed == 0.0 and d.cpu is None for d in later)
    messages = [r.getMessage() for r in caplog.records if r.name == "arena.referee"]
    assert messages.count("m-1 seat 0 (seat0) forfeited") == 1
    warnings = [r.getMessage() for r in caplog.records if r.levelname == "WARNING"]
    assert warnings == ["m-1: seat0 claimed seat 1; refused"]


def test_an_oversized_info_is_logged_with_its_size(game: Game, table: Table,
                                                   caplog: pytest.LogCaptureFixture) -> None:
    def big_first(act: Act, before: int) -> list[Step]:
        info = {"pad": "x" * INFO_LIMIT} if before == 0 else None
        return [Action(act.seq, act.legal[0], info=info)]

    with caplog.at_level("INFO", logger="arena.referee"):
        record, _ = table(game, PROMPT, big_first)
    size = 1 + 4 + 3 + INFO_LIMIT  # fixmap, "pad" with its header, str16 header, the text
    assert record.detail["info_dropped"] == [1, 0, 0]
    messages = [r.getMessage() for r in caplog.records if r.name == "arena.referee"]
    assert f"m-1 seat 0: dropped an info of {size} bytes (limit {INFO_LIMIT})" in messages


def test_forfeited_seats_tie_for_last_and_the_rest_keep_their_order() -> None:
    assert final_ranks([1, 2, 3], (0,)) == (3, 1, 2)
    assert final_ranks([2, 1, 3, 4], (1, 3)) == (1, 3, 2, 3)
    assert final_ranks([1, 1, 3], ()) == (1, 1, 3)
    assert final_ranks([1, 2], (0, 1)) == (1, 1)


def test_a_fault_policy_needs_a_strike() -> None:
    assert FaultPolicy().strikes == 3 and FaultPolicy(1).strikes == 1
    with pytest.raises(RefereeError) as caught:
        FaultPolicy(0)
    assert str(caught.value) == "strikes must be at least 1"
