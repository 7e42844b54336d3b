"""arena-bot: write a bot for an Arena referee in Python (``protocols/SPEC.md`` in the Arena repository).

Depends only on msgpack and pyzmq. :mod:`arena_bot.sdk` is what a bot author uses (``run``,
``run_matches``, ``match_random``); :mod:`arena_bot.messages` and :mod:`arena_bot.codec` are the
protocol's messages and their msgpack frames, :mod:`arena_bot.delta` rebuilds observations sent as
changes, :mod:`arena_bot.seeds` derives seeds. Nothing is imported here, so that loading one
module (the game engines take :mod:`arena_bot.wire_types`) loads nothing else.
"""
