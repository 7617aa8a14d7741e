"""GCP batched reads: a task's find served from one list of its collection a pass.

One ``list`` per collection and scope (project, region or zone), followed through every page:
filtered by the cluster's label (``labels.k8s-io-cluster-name = "<cluster>"``) where the kind
carries labels and the method takes a ``filter``; the whole collection where it carries none
(a Network, a Firewall: nothing but the name tells whose it is). Each item is checked as a
``get`` answer is, then matched by name exactly as ``get`` matches. What the listing cannot say
goes to the direct read (``None``): a name the label-filtered list does not hold (another
owner's resource of that name must still be seen and refused), a scope not known yet.

A write drops only the items it names (:func:`.written.mark_written`,
:meth:`..contract.snapshot.Snapshots.wrote`): a GCP name is unique in its collection and scope,
so a firewall's create cannot change what the listing says of any other firewall. The find for
a written item reads it directly.

A resource named by a path the server makes (an IAM service account's email) is found the same
way before its name is known: by listing its parent and matching its natural key.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..contract.errors import MalformedResponseError
from ..contract.ownership import Owner, read_record, record_field
from ..contract.state import State
from .calls import GcpCalls


def find_listed(core: GcpCalls, desired: Mapping[str, Any], owner: Owner) -> list[State] | None:
    """What ``core.find(desired, name)`` would return, from the pass's listing; None when the
    listing cannot say (the caller reads directly)."""
    name = desired.get("name")
    snapshots = core.snapshots
    if snapshots is None or not snapshots.listings or not isinstance(name, str):
        return None  # no pass's listings (or one that keeps finds' own reads only)
    if core.named_by_path():
        return None
    items = _listing(core, desired, owner, for_find=True)
    if items is None:
        return None
    hits = [i for i in items if _selects(core, i, desired)]
    if _written(core, name, hits):
        return None  # this pass wrote it: the listing may say what it was
    if not hits and _by_label(core, owner) is not None:
        return None  # perhaps another owner's: the direct read sees it
    if not hits and snapshots.across_passes:
        return None  # kept across passes: perhaps made since it was listed (..contract.snapshot)
    return [core.state(i, _placed(core, desired)) for i in hits]


def _written(core: GcpCalls, name: str, hits: list[dict[str, Any]]) -> bool:
    """The find's item is one a write of this pass named: by its name, or by the member a
    reference to it holds (an Address's IP)."""
    listing = core.spec.listing
    if core.snapshots is None or listing is None:
        return False
    marks = core.snapshots.written(core.spec.service, listing.operation)
    return ("name", name) in marks or any(item.get(m) == v for item in hits for m, v in marks)


def _selects(core: GcpCalls, item: Mapping[str, Any], desired: Mapping[str, Any]) -> bool:
    """The item is the one ``get`` would answer: every member naming the resource within its
    scope matches (``name``; dns's ``responsePolicyName``; a record set's ``name`` and
    ``type``, so an A record is never taken for the TXT record of the same name)."""
    primary = core.spec.primary or ("name",)
    wanted = {p: desired.get(p) for p in primary if desired.get(p) is not None}
    wanted.setdefault(primary[0], desired.get("name"))
    return all(item.get(p) == v for p, v in wanted.items())


def owned_states(core: GcpCalls, owner: Owner) -> list[State] | None:
    """Every resource of this kind in the core's scope carrying the owner's label (prune's
    inventory); None when the kind carries no labels or cannot be listed. An owner that records
    itself in a field of the kind (a description) is read from the whole collection."""
    tags, record = core.spec.tags, record_field(core.spec, owner)
    if record is None and (tags is None or _by_label(core, owner) is None):
        return None
    listing = core.spec.listing
    if listing is not None and core.snapshots is not None:
        if core.snapshots.written(core.spec.service, listing.operation):
            # what this pass wrote of the kind, read as it now is
            core.snapshots.invalidate(core.spec.service, {listing.operation})
    items = _listing(core, {}, owner)
    if items is None:
        return None
    states = [core.state(i) for i in items]
    if record is not None:
        return [s for s in states if owner.owns(read_record(s.get(record)))]
    assert tags is not None
    return [s for s in states if owner.owns(s.get(tags.field))]


def find_by_natural_key(core: GcpCalls, desired: Mapping[str, Any]) -> list[State]:
    """A resource named by a server-made path, before its name is known: its parent listed,
    every page, matched by the natural key (the item's own field, or the id its name ends
    with, the part before any ``@``)."""
    listing = core.spec.listing
    keys = [k for k in core.spec.natural if desired.get(k) is not None]
    params = core.params(listing.identity, desired) if listing is not None else None
    if listing is None or not keys or params is None:
        return []
    wanted = str(desired[keys[0]])
    found = [
        item
        for item in pages(core, listing.operation, listing.output_member, params)
        if item.get(keys[0]) == wanted
        or str(item.get("name", "")).rsplit("/", 1)[-1].split("@")[0] == wanted
    ]
    return [core.state(item, core.placed(listing.identity, params)) for item in found]


def _placed(core: GcpCalls, desired: Mapping[str, Any]) -> dict[str, Any]:
    """The parents the listing was asked in (a record set's managed zone)."""
    listing = core.spec.listing
    params = core.params(listing.identity, desired) if listing is not None else None
    return core.placed(listing.identity, params) if listing is not None and params else {}


def pages(
    core: GcpCalls, operation: str, member: str | None, params: Mapping[str, Any]
) -> list[dict[str, Any]]:
    """Every item of a list, following ``nextPageToken``; items that are not objects are an
    error naming the operation and the place, never "not found"."""
    items: list[dict[str, Any]] = []
    token: str | None = None
    seen: set[str] = set()
    while True:
        page: dict[str, Any] = {**params, **({"pageToken": token} if token else {})}
        response = core.execute(operation, **page)
        found = (
            response.get(member, [])
            if member
            else next((v for v in response.values() if isinstance(v, list)), [])
        )
        if not isinstance(found, list) or not all(isinstance(i, dict) for i in found):
            raise MalformedResponseError(operation, f"/{member}", "not a list of objects")
        items.extend(found)
        token = response.get("nextPageToken") or None
        if token is None:
            return items
        if token in seen:
            raise MalformedResponseError(
                operation, "nextPageToken", f"page token {token!r} came back twice"
            )
        seen.add(token)


def _by_label(core: GcpCalls, owner: Owner) -> str | None:
    """The ``filter`` expression selecting the owner's resources, when the kind has labels and
    its list takes a filter."""
    listing = core.spec.listing
    if core.spec.tags is None or listing is None or listing.natural_filter is None:
        return None
    if record_field(core.spec, owner) is not None:
        return None  # its owner is in a field no filter reads: the whole collection
    return f'labels.{owner.key} = "{owner.value}"'


def _listing(
    core: GcpCalls, desired: Mapping[str, Any], owner: Owner, for_find: bool = False
) -> list[dict[str, Any]] | None:
    """The collection's items in the core's scope: one paginated list a pass. ``for_find``:
    None while writes touch the collection, for listings kept across passes
    (:meth:`..contract.snapshot.Snapshots.may_list`: the find reads directly)."""
    listing = core.spec.listing
    params = core.params(listing.identity, desired) if listing is not None else None
    if listing is None or params is None or core.snapshots is None or not core.snapshots.listings:
        return None
    wanted = _by_label(core, owner)
    if wanted is not None:
        assert listing.natural_filter is not None
        params[listing.natural_filter] = wanted
    key = (listing.operation, tuple(sorted(params.items())))
    if for_find and not core.snapshots.may_list(core.spec.service, key):
        return None
    return core.snapshots.items(
        core.spec.service,
        key,
        lambda: pages(core, listing.operation, listing.output_member, params),
    )
