"""The calls a context's clients send, counted as they are sent: :class:`CallCount` (reported
by :mod:`..kops.report`), and which AWS operations count as reads (:data:`READ_PREFIXES`).

Here, beneath the context, because the context counts and the cores read the count; the
report that prints it is a face's (docs/architecture.md).
"""

from __future__ import annotations

import threading

__all__ = ["CallCount", "READ_PREFIXES"]

READ_PREFIXES = ("Describe", "Get", "List")  # an AWS operation that only reads starts so


class CallCount:
    """The calls sent on a context's clients, reads and writes, from every thread: counted as
    each is sent (every page of a listing, every try of a retried call)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.reads = 0
        self.writes = 0

    def count(self, read: bool) -> None:
        with self._lock:
            if read:
                self.reads += 1
            else:
                self.writes += 1

    def now(self) -> tuple[int, int]:
        with self._lock:
            return self.reads, self.writes
