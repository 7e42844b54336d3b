"""Information-Set Monte Carlo Tree Search over determinizations (single observer, one shared tree).

Every few iterations deal the hidden information anew (a dealer, by default ``State.determinize``,
of a state sampled from the searcher's observation); each iteration walks a copy of the deal down
the tree, choosing by UCB among the actions legal in that deal (each edge counts how often it was
available), adds one node, plays on with the game's playout policy (none, in some games), scores
the position with the game's estimate of final points, and backs up each seat's reward in [0, 1]
to the edges that seat chose: every node maximises its mover's reward. Several seats deciding at
once (the Waroong draft) choose independently at one node, each from its own statistics, so no
seat's choice sees another's; the child is reached by their joint choice. The searcher's own root
actions start with a few visits at the estimate of their result (a greedy prior; with the turn
finished as the greedy bot finishes it, where the :class:`Tuning` says so), and optionally every
lone mover's actions below the root the same way, with fewer visits (progressive bias: the other
seats' replies start from what a greedy seat would play), and optionally a seat so seeded chooses
among only its few best actions by that prior, more as the node is visited more (progressive
widening). The answer is the root action most visited, or, where the :class:`Tuning` says so, the
best by mean reward.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from bots.heuristics import Estimator, Finisher, OutOfTime, Playout, as_it_is, never, results, rewards
from engine.core import State

#: UCB exploration constant for rewards in [0, 1].
EXPLORATION = 0.7
#: Visits a root action starts with, at the estimated reward of its one-step result.
PRIOR_VISITS = 3
#: Iterations that share one deal of the hidden information (a copy is cheaper than a new deal).
DEAL_REUSE = 4

Joint = tuple[tuple[int, int], ...]
#: Deals the hidden information of a root state anew for the searching seat.
Dealer = Callable[[State, int, random.Random], State]
#: Whether to run another iteration, given the iterations run so far (asked with 0 once the root's
#: prior is in, before the first).
Continue = Callable[[int], bool]
#: Each seat's reward in [0, 1] from each seat's estimated final points.
Rewards = Callable[[Sequence[float]], list[float]]


def determinize(root: State, seat: int, rng: random.Random) -> State:
    """The game's own redeal: ``root.determinize(seat, rng)``."""
    return root.determinize(seat, rng)


class _Edge:
    """Statistics of one seat's action at one node: visits, reward sum, times available."""

    __slots__ = ("visits", "total", "available")

    def __init__(self) -> None:
        self.visits = 0
        self.total = 0.0
        self.available = 0


class _Node:
    """A tree node: edges by ``(seat, action)``, children by the joint choice that leads there, the
    iterations that passed through it, and per seat whose actions a prior seeded, those actions
    best first."""

    __slots__ = ("edges", "children", "visits", "ranked")

    def __init__(self) -> None:
        self.edges: dict[tuple[int, int], _Edge] = {}
        self.children: dict[Joint, _Node] = {}
        self.visits = 0
        self.ranked: dict[int, list[int]] = {}


@dataclass(frozen=True, slots=True)
class Tuning:
    """How a search scores and explores.

    ``reward`` turns the estimate into each seat's reward, ``exploration`` is the UCB constant;
    ``finish`` completes the searcher's own turn after a root action before its prior is estimated
    (:func:`bots.heuristics.finisher`: the greedy bot's view, so a short search starts from the
    greedy choice); ``node_prior`` visits, when above 0, start every lone mover's actions below the
    root at the reward of their result, the turn finished by ``finish`` too, when its node is first
    visited (progressive bias);
    ``answer_floor`` is which root actions the answer is chosen from (:func:`answer`);
    ``widening``, when above 0, lets a seat whose actions a prior seeded choose among only its
    ``1 + widening * sqrt(visits)`` best by the prior (progressive widening), so the iterations go
    deeper along the moves a greedy seat would consider first; a search of fewer than
    ``min_iterations`` iterations (one cut short by the clock) answers its root prior's best.
    """

    reward: Rewards = rewards
    exploration: float = EXPLORATION
    finish: Finisher = as_it_is
    node_prior: int = 0
    answer_floor: float = 1.0
    widening: float = 0.0
    min_iterations: int = 0


@dataclass(frozen=True, slots=True)
class Verdict:
    """The chosen action, the iterations run, and the chosen edge's mean reward (0..1)."""

    action: int
    iterations: int
    value: float


def search(
    root: State,
    seat: int,
    legal: tuple[int, ...],
    estimate: Estimator,
    playout: Playout,
    more: Continue,
    rng: random.Random,
    dealer: Dealer = determinize,
    tuning: Tuning = Tuning(),
    out_of_time: OutOfTime = never,
) -> Verdict:
    """Search from ``root`` (a state sampled from ``seat``'s view) while ``more(iterations)`` says so,
    playing on past the tree with ``playout`` before estimating; ``dealer`` deals the
    hidden information anew every few iterations; ``tuning`` says how it scores and explores.
    The root's prior, and a node's, stops at the first action after which ``out_of_time()`` (the
    other actions start untried, or, with widening, are not searched).

    The answer is one of ``legal`` by :func:`answer` (the prior's best when no iteration ran, or
    fewer than ``tuning.min_iterations``);
    ``rng`` is the only source of chance, so equal iteration counts give equal answers.
    """
    tree = _Node()
    _seed_root(tree, root, seat, legal, estimate, tuning, out_of_time)
    iterations = 0
    deal = root
    while more(iterations):
        if iterations % DEAL_REUSE == 0:
            deal = dealer(root, seat, rng)
        _iterate(tree, deal.clone(), estimate, playout, rng, tuning, out_of_time)
        iterations += 1
    standings = {action: _standing(tree, seat, action) for action in legal}
    if iterations < tuning.min_iterations and tree.ranked.get(seat):
        best = tree.ranked[seat][0]
    else:
        best = answer(standings, tuning.answer_floor, rng)
    return Verdict(best, iterations, standings[best][1])


def answer(standings: Mapping[int, tuple[int, float]], floor: float, rng: random.Random) -> int:
    """The root action to play, from each action's ``(visits, mean reward)``: the best mean among
    those with at least ``floor`` times the most visits (1: the most visited, 0: the best mean, the
    prior's visits counted), then the more visited, then at random."""
    least = floor * max(visits for visits, _ in standings.values())
    return max(standings, key=lambda a: (standings[a][0] >= least, standings[a][1], standings[a][0], rng.random()))


def _standing(tree: _Node, seat: int, action: int) -> tuple[int, float]:
    """A root action's visits and mean reward; (-1, 0) if it was never available."""
    edge = tree.edges.get((seat, action))
    if edge is None:
        return -1, 0.0
    return edge.visits, edge.total / edge.visits if edge.visits else 0.0


def _seed_root(
    tree: _Node, root: State, seat: int, legal: tuple[int, ...], estimate: Estimator, tuning: Tuning,
    out_of_time: OutOfTime,
) -> None:
    """Start each root action with :data:`PRIOR_VISITS` visits at the reward its result (the turn
    finished by ``tuning.finish``) is estimated at, so that a short search starts from the greedy
    choice rather than from nothing; stop after the action at which ``out_of_time()``."""
    own = set(root.legal_actions(seat))
    actions = [action for action in legal if action in own]
    _seed_edges(tree, root, seat, actions, PRIOR_VISITS, estimate, tuning.reward, tuning.finish, out_of_time)


def _seed_node(node: _Node, state: State, estimate: Estimator, tuning: Tuning, out_of_time: OutOfTime) -> None:
    """On a node's first visit, start the lone mover's actions with ``tuning.node_prior`` visits at
    the reward of their result, the turn finished by ``tuning.finish`` (progressive bias), in order
    until ``out_of_time()``."""
    movers = state.to_move()
    if len(movers) != 1:
        return
    (mover,) = movers
    legal = state.legal_actions(mover)
    if len(legal) >= 2:
        _seed_edges(node, state, mover, legal, tuning.node_prior, estimate, tuning.reward, tuning.finish,
                    out_of_time)


def _seed_edges(
    node: _Node, state: State, mover: int, actions: Sequence[int], visits: int, estimate: Estimator,
    reward: Rewards, finish: Finisher, out_of_time: OutOfTime,
) -> None:
    """Give each of ``mover``'s ``actions`` at ``node`` ``visits`` visits at the reward of its
    result on ``state`` (:func:`~bots.heuristics.results`: the turn finished by ``finish``, in
    order until ``out_of_time()``)."""
    seeded: list[tuple[float, int]] = []
    for action, estimates in results(state, mover, actions, estimate, finish, out_of_time):
        edge = node.edges[(mover, action)] = _Edge()
        edge.visits = edge.available = visits
        edge.total = visits * reward(estimates)[mover]
        seeded.append((-edge.total, action))
    node.ranked[mover] = [action for _, action in sorted(seeded)]


def _iterate(
    tree: _Node,
    state: State,
    estimate: Estimator,
    playout: Playout,
    rng: random.Random,
    tuning: Tuning,
    out_of_time: OutOfTime,
) -> None:
    path: list[tuple[_Node, Joint]] = []
    node = tree
    while not state.is_over():
        if tuning.node_prior and not node.edges and node is not tree:
            _seed_node(node, state, estimate, tuning, out_of_time)
        joint = _select(node, state, rng, tuning)
        for chooser, action in joint:
            state.apply(chooser, action)
        path.append((node, joint))
        child = node.children.get(joint)
        if child is None:
            node.children[joint] = _Node()
            break
        node = child
    playout(state, rng)
    earned = tuning.reward(estimate(state))
    for node, joint in path:
        node.visits += 1
        for chooser, action in joint:
            edge = node.edges[(chooser, action)]
            edge.visits += 1
            edge.total += earned[chooser]


def _considered(node: _Node, chooser: int, legal: list[int], widening: float) -> list[int]:
    """The legal actions ``chooser`` may pick at ``node``: all, or with ``widening`` those among
    its ``1 + widening * sqrt(visits)`` best by its prior (so never one its prior did not reach);
    all when none of those is legal in this deal."""
    ranked = node.ranked.get(chooser)
    if not widening or ranked is None:
        return legal
    allowed = set(ranked[:1 + int(widening * math.sqrt(node.visits))])
    return [action for action in legal if action in allowed] or legal


def _select(node: _Node, state: State, rng: random.Random, tuning: Tuning) -> Joint:
    """Each seat to move picks an untried action at random among those it considers (all legal
    ones, or the best few by the prior: :func:`_considered`), else the best by UCB."""
    exploration = tuning.exploration
    joint = []
    edges = node.edges
    for chooser in state.to_move():
        untried = []
        options = []
        for action in _considered(node, chooser, state.legal_actions(chooser), tuning.widening):
            edge = edges.get((chooser, action))
            if edge is None:
                edge = edges[(chooser, action)] = _Edge()
            edge.available += 1
            if edge.visits == 0:
                untried.append(action)
            options.append((action, edge))
        if untried:
            joint.append((chooser, rng.choice(untried)))
            continue
        best_action, best_score = options[0][0], -math.inf
        for action, edge in options:
            score = edge.total / edge.visits + exploration * math.sqrt(math.log(edge.available) / edge.visits)
            if score > best_score:
                best_action, best_score = action, score
        joint.append((chooser, best_action))
    return tuple(joint)
