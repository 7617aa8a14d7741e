"""The adapter contract: every verb and attribute the engine and the faces use on a cloud's core.

One adapter instance serves one resource kind (its :class:`~.spec.ResourceSpec`) over one SDK
client, in one scope. It speaks only the contract's language: it takes and returns states
(:data:`~.state.State`: plain dicts keyed by the API's member names, tags and labels as a dict,
wrappers removed) and raises only the errors of :mod:`.errors` (``CloudError`` and its kinds,
``TryAgainLater``, ``TaskError``, ``OutcomeUnknownError``). Nothing of the SDK crosses it.

Every member below is on every adapter. Where a cloud has no such thing it gives an honest
"nothing", named in the member's docstring (AWS has no long-running operation: ``pending`` is
always None; GCP hands out nothing only once on create: ``answer`` is always None), so the
engine calls a verb instead of asking whether it exists. What differs by *kind* rather than by
cloud (separately read attributes, change batches, versioned kinds, long-running operations,
fingerprints, tag-less kinds owned through a parent, child collections) is data on the spec,
not a member here. See docs/architecture.md, "The adapter protocol".
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from .calls import CallCount
from .ownership import Owner
from .snapshot import Snapshots
from .spec import ResourceSpec
from .state import State

__all__ = ["Adapter", "Core"]


class Adapter(Protocol):
    """What the engine needs from a cloud, for one kind: the same members on every cloud."""

    spec: ResourceSpec
    """The kind this adapter serves: its fields, identity, calls and capabilities as data."""

    snapshots: Snapshots | None
    """The pass's batched reads, set by the face for the length of a pass: finds may be served
    from them and every write drops what it makes stale. None outside a pass: every find reads."""

    calls: CallCount | None
    """Where the adapter counts the calls it sends itself. None: it counts nothing here (AWS's
    calls are counted by botocore's before-call hook on the context's clients instead)."""

    answer: State | None
    """The last create's answer when that answer is the whole resource (an AWS create that
    returns the item it made), so the face can adopt it without reading it back. None when the
    last create's answer was only an identity, or nothing was created (always None on GCP)."""

    pending: dict[str, Any] | None
    """A long-running operation a mutating call left running (a GCP operation when the adapter
    does not wait), for a reconciler to requeue on. None when nothing is running (always None on
    AWS, which has no long-running operations)."""

    def find(
        self,
        desired: Mapping[str, Any],
        name: str,
        *,
        match_tags: Mapping[str, str] | None = None,
        retry_not_found: bool = False,
    ) -> list[State]:
        """Every live resource with the desired identity (by its primary id when ``desired``
        holds it, else by its natural key in its scope), never one in a terminal state; only
        those carrying ``match_tags`` when given; after retrying a NotFound when
        ``retry_not_found`` (a resource just created may not be visible yet). Nothing: ``[]``,
        also when the identity cannot be looked up yet (a parent not made)."""
        ...

    def find_listed(
        self,
        desired: Mapping[str, Any],
        name: str,
        *,
        owner: Owner,
        match_tags: Mapping[str, str] | None = None,
        first_look: bool = False,
    ) -> list[State] | None:
        """:meth:`find` answered from the pass's listing of what ``owner`` owns (one read per
        kind and scope a pass). ``first_look``: the face has neither seen nor made the resource
        and has no create under way. Nothing: ``None``, meaning only a direct :meth:`find` can
        say (no pass, a kind that cannot be listed, a miss the listing cannot vouch for); an
        :class:`~.state.Unread` list is "none there", said without a read."""
        ...

    def read_ahead(
        self,
        desired: Mapping[str, Any],
        name: str,
        *,
        owner: Owner,
        match_tags: Mapping[str, str] | None = None,
        first_look: bool = False,
    ) -> None:
        """Make now, and keep in the pass's snapshots, the read a later :meth:`find` or
        :meth:`find_listed` with these arguments will need, so that reads of independent tasks
        overlap. Only an optimisation: nothing is returned and no state changes. Nothing to do
        (no pass, or a cloud whose finds are all served by listings: GCP): a no-op."""
        ...

    def listed_owned(
        self, owner: Owner, within: Mapping[str, Any] | None = None
    ) -> list[State] | None:
        """Every live resource of this kind in scope that ``owner`` owns: prune's inventory, and
        the listing :meth:`find_listed` is served from. ``within`` (parent member -> id): only
        those inside that parent, for a kind the cloud lists only inside its parent (ELBv2
        listeners in their load balancer). Nothing: ``None`` when the kind cannot be listed by
        owner (``[]`` is "listed, and none are there")."""
        ...

    def read_separately(self, state: State, wanted: Mapping[str, Any]) -> None:
        """Add to ``state``, in place, the fields the main read does not return (the spec's
        separately read attributes, a versioned kind's default version), read only when
        ``wanted`` sets them. Nothing to read (every field comes back from the main read, as
        on GCP): a no-op."""
        ...

    def create(self, desired: Mapping[str, Any], token: str | None = None) -> State:
        """Create the resource with every create-time field and its tags, once; return the
        identity the create gave it, plus (for the face to hand out) what the answer holds only
        once (a private key). ``token``: the logical attempt's idempotency token, sent where
        the kind takes one. A create whose outcome is unknown raises
        :class:`~.errors.OutcomeUnknownError` and is never sent again blindly."""
        ...

    def update(self, actual: Mapping[str, Any], changes: Mapping[str, Any]) -> None:
        """Send each changed field through the call that carries it (its update routing, change
        batch, version or fingerprint as the spec declares). ``changes`` holds desired values of
        the fields that differ; ``actual`` the resource as found."""
        ...

    def delete(self, actual: Mapping[str, Any]) -> None:
        """Delete the resource ``actual`` names. Gone already is success; in use raises
        :class:`~.errors.InUseError` for the face to report or retry."""
        ...

    def blockers(self, actual: Mapping[str, Any]) -> list[str]:
        """What keeps the resource in use, as far as the kinds that refer to it can say
        (``"Subnet subnet-1"``), for an in-use message; a best effort that never raises.
        Nothing known (or no way to ask, as on GCP): ``[]``."""
        ...

    def operation_done(self, operation: Mapping[str, Any]) -> dict[str, Any]:
        """Look once, without waiting, at a long-running operation a previous pass left
        :attr:`pending` (its ``name`` and ``selfLink``): the operation as the cloud now describes
        it; ``status`` ``"DONE"`` once finished. A cloud without long-running operations (AWS)
        has none running: it answers ``{"status": "DONE"}`` without a call."""
        ...


Core = Adapter  # the name the faces' annotations use today (docs/architecture.md)
