"""The resource as the engine sees it: its spec, its adapter, its owner, what the face knows.

A face builds one :class:`Subject` per pass from its own vocabulary (a task's attributes; a
reconciler's spec and status) and hands it to the engine's steps (:mod:`.converge`). The engine
calls the cloud only through ``adapter`` (and, for a kind owned through its parent, the adapter
``adapter_for`` gives for the parent's kind).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..contract.adapter import Adapter
from ..contract.ownership import Owner
from ..contract.retry import RetryPolicy
from ..contract.snapshot import Snapshots
from ..contract.spec import ResourceSpec
from ..contract.state import State
from .record import Record


@dataclass
class Subject:
    """One resource, one pass.

    ``name``: the face's name for it (a task's name; a spec's ``name``), which the natural key
    and the Name tag take. ``shared``: only read and verified, never changed or deleted.
    ``parent_owned``: what the face already knows of the owning parent of a tag-less kind (a
    task holding its parent task, which ran before it: its ``owned``); None to ask the cloud.
    ``parent_id``: the parent's id as declared (used when the found state names none).
    ``recorded``: for a kind with neither tags nor an owning parent, whether the face's record
    names the found resource (a reconciler's status); None: the identity matching is enough, as
    kOps does."""

    spec: ResourceSpec
    adapter: Adapter
    owner: Owner
    name: str
    key: str  # how errors name it: "Vpc/main"
    record: Record
    retry: RetryPolicy
    snapshots: Snapshots | None = None
    shared: bool = False
    adapter_for: Callable[[ResourceSpec], Adapter] | None = None
    parent_owned: bool | None = None
    parent_id: object = None
    recorded: Callable[[State], bool] | None = None

    def invalidate(self) -> None:
        """Each patient look is made afresh, not served from the pass's last listing."""
        if self.snapshots is not None:
            self.snapshots.invalidate(self.spec.service, self.spec.listings_touched())
