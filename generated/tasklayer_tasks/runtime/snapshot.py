"""Batched reads: one pass reads each resource type once, by the cluster's ownership tag.

kOps and CAPA pay one Describe per task on every pass. Within one :meth:`Executor.run` a
:class:`Snapshots` holds, per resource type (its read operation, scope and owner), the items of
one filtered, paginated listing of what the cluster owns; each task's find is served from it by
the same identity checks a direct read makes (natural key, parent, primary id), matched client
side. What a snapshot cannot answer exactly goes to the direct read: shared tasks (not owned, so
not listed), ids the snapshot does not hold, a natural key found nowhere in it when the kind is
not found by the ownership tag (another owner's resource of that name must still be an error),
kinds that cannot be listed by tag.

Freshness: any write through a core of a service drops that service's snapshots (a create, a
change, a delete, or a call whose outcome is unknown), and a listing that was under way while a
write went out is used by the task that asked for it but never kept. A task that asks to try
again drops its service's snapshots too (a NAT gateway still ``pending`` must be read again).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable
from typing import Any


class Snapshots:
    """The listings of one pass, by key; thread-safe, each listing made once at a time."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._gates: dict[Hashable, threading.Lock] = {}
        self._held: dict[tuple[str, Hashable], list[Any]] = {}
        self._generation: dict[str, int] = {}
        self.users = 0  # runs sharing it (see Context.batched_reads)

    def items(self, group: str, key: Hashable, load: Callable[[], list[Any]]) -> list[Any]:
        """The listing under ``key`` (of service ``group``): made by ``load`` the first time,
        the same list after that, until a write to the group drops it."""
        slot = (group, key)
        with self._lock:
            if slot in self._held:
                return self._held[slot]
            gate = self._gates.setdefault(slot, threading.Lock())
        with gate:  # two tasks of one type wanting it at once: one listing
            with self._lock:
                if slot in self._held:
                    return self._held[slot]
                generation = self._generation.get(group, 0)
            items = load()
            with self._lock:
                if self._generation.get(group, 0) == generation:  # no write went out meanwhile
                    self._held[slot] = items
            return items

    def invalidate(self, group: str) -> None:
        """Something of ``group`` was (or may have been) written: its listings are stale."""
        with self._lock:
            self._generation[group] = self._generation.get(group, 0) + 1
            for slot in [s for s in self._held if s[0] == group]:
                del self._held[slot]
