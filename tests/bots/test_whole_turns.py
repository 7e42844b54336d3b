"""Whole turns in Wongar: greedy scores an action after finishing its own turn (from level 3; one
decision ahead at levels 1 and 2), and a search's priors (at the root, and at every lone mover's
node below it) are that same whole-turn view, cut short when a clock-driven decision's time runs
out within them."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

import pytest

from arena_bot.sdk import Choice, Clock, clock_reading
from bots.greedy import WHOLE_TURN_LEVEL, greedy_policy
from bots.heuristics import as_it_is, estimator, finisher, margin, never, playout
from bots.ismcts import ismcts_policy
from bots.shared.match import Match
from bots.shared.tree_search import Tuning, _Node, _seed_node, search
from engine.core import State
from engine.registry import get_game

GAME = get_game("wongar")
CONFIG = GAME.configure(3, None, {})
ESTIMATE = estimator("wongar")
CLOCK = Clock(60.0, 0.0, 0.0, "cpu")
Scorer = Callable[[State, int, int], float]


def _one_step(state: State, seat: int, action: int) -> float:
    after = state.clone()
    after.apply(seat, action)
    return margin(ESTIMATE(after), seat)


def _whole_turn(state: State, seat: int, action: int) -> float:
    after = state.clone()
    after.apply(seat, action)
    finisher("wongar")(after, seat)
    return margin(ESTIMATE(after), seat)


def _unique_best(state: State, seat: int, scorer: Scorer) -> int | None:
    values = {a: scorer(state, seat, a) for a in state.legal_actions(seat)}
    top = max(values.values())
    best = [a for a, v in values.items() if v == top]
    return best[0] if len(best) == 1 else None


def _where_the_views_differ(wanted: int) -> Iterator[tuple[State, int, int, int, int]]:
    """Positions of random play, each with its seat, a bot seed, and the one-step and whole-turn
    best actions on the state the bot samples first, where the two differ and neither ties."""
    found = 0
    for game_seed in range(1, 60):
        state = GAME.start(CONFIG, game_seed)
        play = random.Random(game_seed)
        while not state.is_over():
            (seat,) = state.to_move()
            legal = state.legal_actions(seat)
            bot_seed = game_seed * 1000 + len(legal)
            if len(legal) > 1:
                sampled = Match(GAME, CONFIG, seat, random.Random(bot_seed)).sample(state.observation(seat))
                one, whole = _unique_best(sampled, seat, _one_step), _unique_best(sampled, seat, _whole_turn)
                if one is not None and whole is not None and one != whole:
                    yield state.clone(), seat, bot_seed, one, whole
                    found += 1
                    if found == wanted:
                        return
            state.apply(seat, play.choice(legal))


@pytest.mark.parametrize("level", [1, 2, 3, 5])
def test_greedy_scores_whole_turns_from_level_three_and_single_decisions_below(level: int) -> None:
    positions = list(_where_the_views_differ(5))
    assert len(positions) == 5
    for state, seat, bot_seed, one, whole in positions:
        match = Match(GAME, CONFIG, seat, random.Random(bot_seed), nodes=1, level=level)
        answer = greedy_policy(match)(state.observation(seat), tuple(state.legal_actions(seat)), CLOCK)
        assert isinstance(answer, Choice)
        assert answer.action == (whole if level >= WHOLE_TURN_LEVEL else one)


def test_greedy_without_a_level_scores_whole_turns() -> None:
    state, seat, bot_seed, _, whole = next(_where_the_views_differ(1))
    match = Match(GAME, CONFIG, seat, random.Random(bot_seed), nodes=1)
    answer = greedy_policy(match)(state.observation(seat), tuple(state.legal_actions(seat)), CLOCK)
    assert isinstance(answer, Choice) and answer.action == whole


@pytest.mark.parametrize("whole_turn", [True, False])
def test_a_search_starts_from_the_view_its_tuning_finishes_turns_with(whole_turn: bool) -> None:
    """After one iteration (which goes to the best prior, every root action having as many visits)
    the search answers the prior's best action: the whole turn's when its tuning finishes turns,
    the single decision's otherwise."""
    for state, seat, bot_seed, one, whole in _where_the_views_differ(4):
        root = Match(GAME, CONFIG, seat, random.Random(bot_seed)).sample(state.observation(seat))
        tuning = Tuning(finish=finisher("wongar") if whole_turn else as_it_is)
        verdict = search(root, seat, tuple(root.legal_actions(seat)), ESTIMATE, playout("wongar"),
                         lambda done: done < 1, random.Random(1), tuning=tuning)
        assert verdict.action == (whole if whole_turn else one)


@pytest.mark.parametrize("whole_turn", [True, False])
def test_a_node_below_the_root_starts_from_the_view_its_tuning_finishes_turns_with(whole_turn: bool) -> None:
    """Every lone mover's node in the tree (another seat's reply, or a later decision of the
    searcher's own turn) starts its best edge at the whole turn's best action when the tuning
    finishes turns, at the single decision's otherwise, each edge with the node prior's visits."""
    for state, seat, bot_seed, one, whole in _where_the_views_differ(4):
        sampled = Match(GAME, CONFIG, seat, random.Random(bot_seed)).sample(state.observation(seat))
        tuning = Tuning(finish=finisher("wongar") if whole_turn else as_it_is, node_prior=2)
        node = _Node()
        _seed_node(node, sampled, ESTIMATE, tuning, never)
        legal = sampled.legal_actions(seat)
        assert sorted(action for _, action in node.edges) == sorted(legal)
        assert all(edge.visits == edge.available == 2 for edge in node.edges.values())
        best = max(legal, key=lambda action: node.edges[(seat, action)].total)
        assert best == (whole if whole_turn else one)


def test_a_node_prior_cut_by_the_clock_leaves_the_rest_untried() -> None:
    state, seat, _, _, _ = next(_where_the_views_differ(1))
    legal = state.legal_actions(seat)
    asked = iter(range(1, len(legal) + 1))
    node = _Node()
    _seed_node(node, state, ESTIMATE, Tuning(finish=finisher("wongar"), node_prior=1), lambda: next(asked) >= 2)
    assert [action for _, action in node.edges] == legal[:2]


def test_a_prior_cut_by_the_clock_answers_the_best_action_it_reached_without_iterating() -> None:
    """When time runs out within the root's prior, the actions after the cut start untried and a
    search given no iteration answers the best whole-turn action among those the prior reached."""
    for state, seat, bot_seed, _, _ in _where_the_views_differ(4):
        root = Match(GAME, CONFIG, seat, random.Random(bot_seed)).sample(state.observation(seat))
        legal = tuple(root.legal_actions(seat))
        reached = legal[: max(1, len(legal) // 2)]
        asked: list[None] = []

        def out_of_time() -> bool:
            asked.append(None)
            return len(asked) >= len(reached)

        tuning = Tuning(finish=finisher("wongar"))
        verdict = search(root, seat, legal, ESTIMATE, playout("wongar"), lambda done: False,
                         random.Random(1), tuning=tuning, out_of_time=out_of_time)
        assert verdict.iterations == 0
        assert len(asked) == len(reached)
        values = {action: _whole_turn(root, seat, action) for action in reached}
        assert values[verdict.action] == max(values.values())


def test_ismcts_on_a_spent_clock_answers_at_once_from_its_prior() -> None:
    """A clock-driven decision whose allowance is already spent runs no iteration and scores one
    root action: it answers that action (the first legal one), reporting no nodes."""
    state, seat, bot_seed, _, _ = next(_where_the_views_differ(1))
    legal = tuple(state.legal_actions(seat))
    spent = Clock(0.02, 0.0, 0.0, "cpu", clock_reading("cpu") - 1.0)
    answer = ismcts_policy(Match(GAME, CONFIG, seat, random.Random(bot_seed)))(state.observation(seat), legal, spent)
    assert isinstance(answer, Choice)
    assert answer.action == legal[0] and answer.info["nodes"] == 0


def test_a_node_budget_is_not_cut_by_a_spent_clock() -> None:
    """A node budget runs its iterations whatever the clock says (its games repeat move for move)."""
    state, seat, bot_seed, _, _ = next(_where_the_views_differ(1))
    spent = Clock(60.0, 0.0, 0.0, "cpu", clock_reading("cpu") - 1.0)
    match = Match(GAME, CONFIG, seat, random.Random(bot_seed), nodes=5)
    answer = ismcts_policy(match)(state.observation(seat), tuple(state.legal_actions(seat)), spent)
    assert isinstance(answer, Choice) and answer.info["nodes"] == 5
