"""What ``arena bot check`` learns from the hub's log besides the match records.

:class:`HubNotes` taps the ``protocols.transport`` logger while entered: it keeps the reason of every
``hello`` the hub refuses and the ``seq`` awaited when it first dropped a reply carrying another,
and passes on to the usual handlers exactly the records they would have had anyway.
"""

from __future__ import annotations

import logging
import re
from types import TracebackType

#: The hub's records for a refused ``hello`` (argument: the reason) and a dropped frame
#: (arguments: the peer's label, what was dropped, why: ``(not seq N)`` for a reply to another).
_REFUSAL = "refused a hello: %s"
_DROP = "%s: dropped %s %s"
_WRONG_SEQ = re.compile(r"\(not seq (-?\d+)\)")


class HubNotes(logging.Handler):
    """While entered: ``refusals`` (reasons, in order) and ``awaited``: the ``seq`` the hub was
    waiting for when it first dropped a reply that carried another (``None`` if it never did)."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.refusals: list[str] = []
        self.awaited: int | None = None
        self._logger = logging.getLogger("protocols.transport")
        self._passed_on = logging.WARNING
        self._saved = (self._logger.level, self._logger.propagate)

    def emit(self, record: logging.LogRecord) -> None:
        """Note a refusal or a wrong-seq drop; hand on what the usual handlers would have had."""
        args = record.args if isinstance(record.args, tuple) else ()
        if record.msg == _REFUSAL and args:
            self.refusals.append(str(args[0]))
        elif record.msg == _DROP and len(args) == 3 and self.awaited is None:
            found = _WRONG_SEQ.fullmatch(str(args[2]))
            if found:
                self.awaited = int(found[1])
        if record.levelno >= self._passed_on and self._logger.parent is not None:
            self._logger.parent.handle(record)

    def __enter__(self) -> HubNotes:
        self._saved = (self._logger.level, self._logger.propagate)
        self._passed_on = self._logger.getEffectiveLevel()
        self._logger.setLevel(min(self._passed_on, logging.INFO))
        self._logger.propagate = False
        self._logger.addHandler(self)
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self._logger.removeHandler(self)
        self._logger.setLevel(self._saved[0])
        self._logger.propagate = self._saved[1]
