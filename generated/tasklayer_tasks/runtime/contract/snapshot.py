"""Batched reads: one pass reads each resource type once, by the cluster's ownership tag.

kOps and CAPA pay one Describe per task on every pass. Within one :meth:`Executor.run` a
:class:`Snapshots` holds, per resource type (its read operation, scope and owner), the items of
one filtered, paginated listing of what the cluster owns; each task's find is served from it by
the same identity checks a direct read makes (natural key, parent, primary id), matched client
side. What a snapshot cannot answer exactly goes to the direct read: shared tasks (not owned, so
not listed), ids the snapshot does not hold, a natural key found nowhere in it when the kind is
not found by the ownership tag (another owner's resource of that name must still be an error),
kinds that cannot be listed by tag.

Freshness: a write through a kind's core (a create, a change, a delete, or a call whose outcome
is unknown) drops the listings it may have made stale: its own kind's, its owning parent's (a
Route lives in its RouteTable's item) and those of the kinds it refers to (an attachment changes
its gateway's item, a rule its group's) — :meth:`ResourceSpec.listings_touched`. A listing that
was under way while such a write went out is used by the task that asked for it but never kept.
A task that asks to try again drops its kind's listings too (a NAT gateway still ``pending``
must be read again). Writes to unrelated kinds leave a listing alone: creating a Subnet does
not make the pass list its security groups again.

Where a kind's items are told apart by a name the cloud keeps unique in its collection (GCP), a
write drops less: only the items it names (:meth:`Snapshots.wrote`), the one it makes, changes or
deletes and the ones its written references name (a subnetwork's network), by their name or the
member a reference holds (a forwarding rule's Address, by its IP). A write of one firewall
cannot change another firewall's item, so the rest of the listing still answers every other
find exactly; a find for a written item reads directly, and so does prune's inventory of a kind
with written items. Which finds a listing answers does not depend on when the writes went out:
one listing per collection and scope a pass, however the tasks interleave.

A find's own read (by id or natural key) is kept the same way, so one made early for a task
serves its find (read-backs and the patient looks after a lost answer read afresh).

Finds only (``Snapshots(listings=False)``, a chain of reconcilers' pass: :mod:`..capi.steps`):
no listing of what the owner owns is made and no find is served from one; only each find's own
read is kept, by its exact parameters, dropped by the same writes. Steps that read the same
thing (a gateway by id, then its attachment inside that gateway's item, then the gateway again
to see whose the attachment is) read it once a pass. Patient looks and read-backs read afresh.

What the pass made: the resources its creates returned (by kind and id). A parent made in this
pass holds nothing an earlier pass or another owner could have put there: a task's first look
for its resource inside one needs no read (see :mod:`..aws.listing`).

Across passes (``Snapshots(window=s)``, an operator's reconciles: :meth:`.context.Context.
share_reads`): each object's reconcile is a pass of its own, and a resync runs every object's
once, so a listing of what the owner owns is kept for all of them, at most ``window`` seconds
after it was begun. Such a listing is not the pass's own view of the world, so it says less:

* it answers only a find that names its resource's whole primary id (an object whose status
  holds its id), and only with what it holds. Any other find reads directly, and so does one
  whose id it does not hold: what it does not hold may have been made since it was listed (by
  another process, or not visible yet), and only a fresh read (or the create's marker) may say
  that nothing is there before anything is created (docs/architecture.md, the create-once
  record);
* it is made only once no write has touched it for ``window`` seconds (:meth:`Snapshots.
  may_list`): while writes go on (objects converging, being deleted), each find reads its own
  resource directly, as it would without the listing, rather than listing the whole kind again
  after every write;
* a find's own read is not kept (:attr:`Snapshots.keeps_finds`): every reconcile reads afresh
  what the listing cannot answer; nothing is recorded as made by "the pass" (no parent counts as
  new), and a write drops whole listings rather than marking items (:meth:`Snapshots.wrote`).

Every write through a core on the context drops what it touches, as within a pass.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Collection, Hashable, Mapping
from typing import Any

NEVER = float("-inf")


class Snapshots:
    """The listings of one pass, by key (its read operation first); thread-safe, each listing
    made once at a time. ``listings``: False keeps finds' own reads only (no listing by owner).
    ``window``: kept across passes, each listing at most this many seconds (see the module's
    docstring), by ``clock``."""

    def __init__(
        self,
        listings: bool = True,
        window: float | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.listings = listings
        self.window = window
        self._clock = clock
        self._lock = threading.Lock()
        self._gates: dict[Hashable, threading.Lock] = {}
        self._held: dict[tuple[str, Hashable], list[Any]] = {}
        self._begun_at: dict[tuple[str, Hashable], float] = {}  # when each held one was begun
        self._touched_at: dict[tuple[str, Hashable], float] = {}  # the last write touching it
        self._generation: dict[tuple[str, Hashable], int] = {}
        self._started = 0  # listings begun so far: orders them against a find's arrival
        self._latest: dict[tuple[str, Hashable], tuple[int, list[Any]]] = {}
        self.users = 0  # runs sharing it (see Context.batched_reads)
        self._made: set[tuple[str, str, Hashable]] = set()
        self._written: dict[tuple[str, str], set[tuple[str, Any]]] = {}

    def items(self, group: str, key: Hashable, load: Callable[[], list[Any]]) -> list[Any]:
        """The listing under ``key`` (of service ``group``): made by ``load`` the first time,
        the same list after that, until a write that touches it drops it."""
        slot = (group, key)
        with self._lock:
            if self._fresh(slot):
                return self._held[slot]
            gate = self._gates.setdefault(slot, threading.Lock())
            arrived = self._started
        with gate:  # two tasks of one type wanting it at once: one listing
            with self._lock:
                if self._fresh(slot):
                    return self._held[slot]
                begun, latest = self._latest.get(slot, (0, []))
                if begun > arrived:
                    # begun after this find was asked for, so as fresh as a read it would make
                    # (a write since then dropped it for later finds, not for this one)
                    return latest
                generation = self._stamp(group, key)
                self._started += 1
                begun = self._started
                begun_at = self._clock()
            items = load()
            with self._lock:
                self._latest[slot] = (begun, items)
                if self._stamp(group, key) == generation:  # no touching write went out meanwhile
                    self._held[slot] = items
                    self._begun_at[slot] = begun_at
            return items

    @property
    def across_passes(self) -> bool:
        """Kept across passes (an operator's reconciles), not for one pass."""
        return self.window is not None

    @property
    def keeps_finds(self) -> bool:
        """A find's own read (by id or natural key) is kept: within one pass, never across
        passes (each reconcile reads afresh what a listing cannot answer)."""
        return self.window is None

    def may_list(self, group: str, key: Hashable) -> bool:
        """A listing under ``key`` may serve a find now: always within one pass; across passes,
        while it is held, or once no write has touched it for ``window`` seconds (while writes
        go on, finds read their own resources directly)."""
        if self.window is None:
            return True
        with self._lock:
            if self._fresh((group, key)):
                return True
            last = max(
                self._touched_at.get((group, None), NEVER),
                self._touched_at.get((group, _operation(key)), NEVER),
            )
            return self._clock() - last >= self.window

    def _fresh(self, slot: tuple[str, Hashable]) -> bool:
        """The listing in ``slot`` is held, and (across passes) begun less than ``window``
        seconds ago; an older one is dropped here."""
        if slot not in self._held:
            return False
        if self.window is not None and self._clock() - self._begun_at[slot] >= self.window:
            del self._held[slot]
            return False
        return True

    def invalidate(self, group: str, operations: Collection[str] | None = None) -> None:
        """Something of ``group`` was (or may have been) written: the listings made by these
        read ``operations`` (all of the group's when None) are stale."""
        with self._lock:
            now = self._clock()
            for mark in [(group, None)] if operations is None else [(group, o) for o in operations]:
                self._generation[mark] = self._generation.get(mark, 0) + 1
                self._touched_at[mark] = now
            for slot in [s for s in self._held if s[0] == group]:
                if operations is None or _operation(slot[1]) in operations:
                    del self._held[slot]

    def wrote(self, group: str, items: Mapping[str, Collection[tuple[str, Any]]]) -> None:
        """A write of this pass (or one whose outcome is unknown) may have changed the items
        that these ``(member, value)`` pairs name, in the listings made by each read operation:
        those items are not to be answered from any listing of the pass; the rest stand.
        Across passes the marks would outlive every pass: the listings these read operations
        made are dropped whole instead (the writer drops them again once its call is done)."""
        if self.across_passes:
            self.invalidate(group, items.keys())
            return
        with self._lock:
            for operation, marks in items.items():
                self._written.setdefault((group, operation), set()).update(marks)

    def written(self, group: str, operation: str) -> frozenset[tuple[str, Any]]:
        """The ``(member, value)`` pairs naming items of these listings that this pass wrote."""
        with self._lock:
            return frozenset(self._written.get((group, operation), ()))

    def made(self, group: str, kind: str, ident: Hashable) -> None:
        """A create of this pass returned the resource ``kind`` ``ident`` (of ``group``).
        Across passes nothing is recorded: no parent is new to every pass that follows."""
        if self.across_passes:
            return
        with self._lock:
            self._made.add((group, kind, ident))

    def was_made(self, group: str, kind: str, ident: Hashable) -> bool:
        """The resource was made by a create of this pass (it did not exist before it)."""
        with self._lock:
            return (group, kind, ident) in self._made

    def _stamp(self, group: str, key: Hashable) -> tuple[int, int]:
        return (
            self._generation.get((group, None), 0),
            self._generation.get((group, _operation(key)), 0),
        )


def _operation(key: Hashable) -> Hashable:
    """The read operation a listing's key starts with."""
    return key[0] if isinstance(key, tuple) and key else key
