"""Whose code raised: an exception from outside Arena's packages is the game's (reported in one
line by the referee), one from Arena's own code is not; the standard library's frames are skipped."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest

from arena.clock import TimeControl, TimeControlError
from arena.gamefault import failure_text, raised_by_game


def _raised(call: Callable[[], object]) -> BaseException:
    with pytest.raises(Exception) as caught:
        call()
    return caught.value


def _game_code() -> None:
    {"hand": 1}["deck"]  # noqa: B018 (a game's own KeyError)


def test_an_exception_raised_outside_arena_is_the_games() -> None:
    exc = _raised(_game_code)
    assert raised_by_game(exc)
    assert failure_text(exc).startswith("raised KeyError: 'deck' (at ")
    assert failure_text(exc).endswith(f"test_game_failure.py:{_game_code.__code__.co_firstlineno + 1})")


def test_the_standard_library_called_by_a_game_counts_as_the_games() -> None:
    assert raised_by_game(_raised(lambda: json.loads("{")))


def test_an_exception_raised_in_arenas_own_code_is_not_the_games() -> None:
    exc = _raised(lambda: TimeControl.parse("soon"))
    assert isinstance(exc, TimeControlError) and not raised_by_game(exc)


def test_an_exception_without_a_traceback_is_not_the_games() -> None:
    assert not raised_by_game(KeyError("deck"))
