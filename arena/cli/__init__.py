"""The ``arena`` command line: one small module per command group, joined in :mod:`arena.cli.app`.

Importing the command line takes a moment; a Ctrl-C meanwhile ends the command quietly with status
130 (nothing has started yet) instead of a traceback. :mod:`arena.cli.app`, once imported, puts
back the handler it found.
"""

import signal
import threading
from types import FrameType


def _stop_while_starting(signum: int, frame: FrameType | None) -> None:
    raise SystemExit(130)


#: The SIGINT handler before the command line was imported (``None``: not replaced).
previous_sigint = (
    signal.signal(signal.SIGINT, _stop_while_starting)
    if threading.current_thread() is threading.main_thread()
    else None
)
