"""Game engines: pure rules, no I/O. See :mod:`engine.core` for the contract."""
