"""What a GCP write makes stale in the pass's listings: only the items it names (a GCP name is
unique in its collection and scope), and those its written references name (a subnetwork's
network lists it). See :mod:`.listing`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..contract.snapshot import Snapshots
from ..contract.spec import Mutability, ResourceSpec, known_specs


def mark_written(
    spec: ResourceSpec, snapshots: Snapshots | None, *states: Mapping[str, Any]
) -> bool:
    """Before a write of the resource these states describe (as wanted, as read, the changes):
    the pass's listings hold its item, and the items its written references name, as stale.
    False when its own name is not known, or the listings are kept across passes (marks would
    outlive every pass): the caller drops every listing it touches, once its call is done."""
    name = next((s["name"] for s in states if isinstance(s.get("name"), str)), None)
    if snapshots is None or name is None or snapshots.across_passes:
        return False
    marks: dict[str, set[tuple[str, Any]]] = {}
    _mark(marks, spec, {("name", name)})
    for kind, field, member in _written_references(spec):
        values = [v for s in states for v in _as_list(s.get(field)) if isinstance(v, str)]
        _mark(
            marks, kind, {(member, v) if member != "name" else ("name", _last(v)) for v in values}
        )
    snapshots.wrote(spec.service, marks)
    return True


def _written_references(spec: ResourceSpec) -> list[tuple[ResourceSpec, str, str]]:
    """(the kind referred to, the field, the member of it the field holds) for each reference
    the kind's calls write, and its owning parent: what a write of it may change besides itself
    (a subnetwork's network lists it)."""
    refs = {
        f.name: (f.references, f.reference_member or "name")
        for f in spec.fields
        if f.references and f.mutability is not Mutability.READ_ONLY
    }
    if spec.owner_parent is not None:
        refs[spec.owner_parent.field] = (spec.owner_parent.spec.name, "name")
    return [
        (kind, field, member)
        for field, (target, member) in refs.items()
        for kind in known_specs()
        if kind.service == spec.service and kind.name == target
    ]


def _mark(
    marks: dict[str, set[tuple[str, Any]]], kind: ResourceSpec, items: set[tuple[str, Any]]
) -> None:
    for call in (kind.read, kind.listing):
        if call is not None and items:
            marks.setdefault(call.operation, set()).update(items)


def _as_list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else [value]


def _last(reference: str) -> str:
    """A reference's resource name: the last segment of its URL or relative name."""
    return reference.rstrip("/").rsplit("/", 1)[-1]
