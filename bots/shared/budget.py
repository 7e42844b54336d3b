"""How much a built-in bot thinks per decision: a fixed node budget, or a share of its clock.

A search asks its :class:`Budget` before every node (a unit of search the bot counts: an iteration,
a sampled state) and stops when the answer is no. Time is read on the clock the referee charges
(:attr:`Clock.kind`: elapsed time, or the bot's CPU time) from where the referee starts charging
(:meth:`Clock.spent`), so parsing, sampling and the search all count. What is kept back for the reply is measured, not
fixed: a multiple of the SDK's measured overhead outside ``choose`` at the previous decision, and
of what a node costs here (see below).

* **Clock**: think until :func:`allowance` seconds are spent, less a reserve of a few node costs; a
  node's cost is the larger of the mean so far and the last node's, so one slow node (a long
  playout, a pause of the machine) widens the reserve at once. At least one node.
* **Nodes** (``ARENA_NODES``): exactly ``nodes`` nodes, whatever the machine's speed or load, so a
  seeded match repeats move for move. The search is cut short (and says so, :attr:`Budget.cut`)
  only when it is about to pass :data:`HARD_SHARE` of the whole budget, a node's cost then being
  the smaller of the mean and the last node's: a pause of the machine that is over does not cut
  it, a machine too slow for the clock does.
"""

from __future__ import annotations

import os

from arena_bot.sdk import Clock

#: Share of the per-move time (and of the whole budget) a clock-driven search may use.
MOVE_SHARE = 0.5
#: A clock-driven search may also draw this share of the remaining bank per decision.
BANK_SHARE = 1 / 40
#: Share of the whole budget a node-budgeted search may use before it is cut short.
HARD_SHARE = 0.9
#: The reserve: this many node costs ...
NODE_RESERVE = 3.0
#: ... plus this many times the measured overhead of the previous reply.
OVERHEAD_RESERVE = 2.0


def allowance(clock: Clock, deciders: int = 1) -> float:
    """Seconds a clock-driven decision may spend: a share of the move time and a sliver of the
    bank, never more than a share of the whole budget.

    Under a wall clock, when ``deciders`` seats decide at once (a simultaneous step) on fewer
    processors than this process may use, each gets its share of them; a CPU clock charges only
    the time the bot runs, so it does not divide.
    """
    share = MOVE_SHARE * clock.move + BANK_SHARE * clock.bank
    limit = min(share, MOVE_SHARE * clock.budget)
    if clock.kind == "wall" and deciders > 1:
        limit *= min(1.0, _processors() / deciders)
    return limit


def _processors() -> int:
    """The processors this process may run on."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0)) or 1
    return os.cpu_count() or 1


class Budget:
    """One decision's thinking; call :meth:`more` with the nodes done before each further node."""

    __slots__ = ("clock", "nodes", "limit", "started", "last", "cut")

    def __init__(self, clock: Clock, nodes: int | None, deciders: int = 1) -> None:
        """A node budget when ``nodes`` is given, else a share of ``clock`` (see :func:`allowance`);
        call it once the search is about to begin (the time before counts as overhead)."""
        self.clock = clock
        self.nodes = nodes
        self.limit = HARD_SHARE * clock.budget if nodes is not None else allowance(clock, deciders)
        self.started = self.last = clock.spent()
        self.cut = False

    def more(self, done: int) -> bool:
        """Whether to search another node after ``done`` (called once per node). Asked with 0 (a
        search may first do work of its own, such as a prior), the pace is measured from then on,
        and the answer is yes unless a clock-driven allowance is already spent (:meth:`over`)."""
        if done == 0:
            self.started = self.last = self.clock.spent()
            return not self.over()
        if self.nodes is not None and done >= self.nodes:
            return False
        spent = self.clock.spent()
        mean, last = (spent - self.started) / done, spent - self.last
        self.last = spent
        pace = max(mean, last) if self.nodes is None else min(mean, last)
        if spent + (1 + NODE_RESERVE) * pace + OVERHEAD_RESERVE * self.clock.overhead <= self.limit:
            return True
        self.cut = self.nodes is not None
        return False

    def over(self) -> bool:
        """Whether a clock-driven decision has spent its allowance, less the reply's reserve (never,
        under a node budget): for a node too long to wait for, checked within it."""
        if self.nodes is not None:
            return False
        return self.clock.spent() + OVERHEAD_RESERVE * self.clock.overhead > self.limit

    def report(self, done: int) -> dict[str, int | float | bool]:
        """What to log in a reply's ``info``: nodes searched, milliseconds spent on the clock so
        far, and ``cut`` when a node budget was cut short by the clock."""
        info: dict[str, int | float | bool] = {"nodes": done}
        info["spent_ms"] = round(self.clock.spent() * 1000, 2)
        if self.cut:
            info["cut"] = True
        return info
