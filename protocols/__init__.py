"""The wire: the referee-side codec limits, observation changes and transport; the bot SDK's modules
(:mod:`arena_bot`) under the names the arena imports them by."""
