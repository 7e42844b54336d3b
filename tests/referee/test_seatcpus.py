"""How a match's processors are shared among the seats deciding at once, with exact answers."""

from __future__ import annotations

from arena.seatcpus import seat_cpus


def test_enough_processors_give_each_seat_a_disjoint_run_of_them() -> None:
    assert seat_cpus([0, 1, 2], frozenset({4, 5, 6})) == {0: {4}, 1: {5}, 2: {6}}
    # Runs as equal as can be, the first seats getting the shorter ones.
    assert seat_cpus([1, 3, 4], frozenset(range(8))) == {1: {0, 1}, 3: {2, 3, 4}, 4: {5, 6, 7}}
    assert seat_cpus([2], frozenset({0, 1})) == {2: {0, 1}}  # a lone seat gets them all


def test_too_few_processors_are_shared_by_every_seat() -> None:
    assert seat_cpus([0, 1, 2], frozenset({0, 1})) == {0: {0, 1}, 1: {0, 1}, 2: {0, 1}}
    assert seat_cpus([0, 2], frozenset({3})) == {0: {3}, 2: {3}}
    assert seat_cpus([], frozenset({0})) == {}
