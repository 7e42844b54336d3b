"""The ``arena`` command line: one small module per command group, joined in :mod:`arena.cli.app`."""
