"""What the runtime can do with the model's update kinds, applied before anything is rendered.

The model records every way a field can change (``Field.update_kind``: add/remove pairs,
per-item puts, JSON patches, nested and flattened members, keyed items). The runtime sends a
field's new value through its update call, and changes a membership list through its add and
remove calls (``add_remove``, runtime/aws/updates.py ``members``) when both calls take the items
under one member and the items can be compared as read: the field is a list, of values or of
structures holding that member (an instance profile's Roles, by RoleName). A field changed
only in another way is rendered as the runtime can honour it: set at creation and refused
after (create-only) when the create takes it, the cloud's to say (read-only) otherwise. A
change is then refused before any call, never sent in a shape the API would reject. Each such
field says so in its provenance (``mutability``: the ``runtime.*`` rule below; ``DEGRADED``: the
class it had, the reason and who had decided it), which ``tasklayer annotations`` and the
generated metadata show.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable

from codegen.annotate.rules import source
from codegen.model import DEGRADED, Field, Mutability, Resource, Service

# update kinds the runtime performs: None is "send the new value through the update call"
RUNTIME_UPDATE_KINDS: frozenset[str | None] = frozenset({None, "add_remove"})

# the rules of this module, by id: what the runtime cannot do with the field's update
KIND_NOT_PERFORMED = "runtime.update-kind-not-performed"
REMOVE_MEMBER_RENAMED = "runtime.remove-member-renamed"
NOT_A_LIST = "runtime.add-remove-of-a-non-list"
ITEMS_NOT_COMPARABLE = "runtime.add-remove-items-not-comparable"


def not_performed(f: Field) -> tuple[str, str] | None:
    """(rule id, reason) when the runtime cannot make this field what is wanted through its
    update (see the module docstring); None when it can."""
    if f.update_kind not in RUNTIME_UPDATE_KINDS:
        return KIND_NOT_PERFORMED, (
            f"{f.update_operation} changes it as a {f.update_kind} update; the runtime only sends "
            "a new value or adds and removes list items"
        )
    if f.update_kind != "add_remove":
        return None
    if f.remove_name is not None:  # NAT AllocationIds -> AssociationIds
        return REMOVE_MEMBER_RENAMED, (
            f"{f.remove_operation} takes the items to remove as {f.remove_name}, not as the "
            "values read: removing one needs a lookup the runtime does not make"
        )
    if f.type.kind != "list" or f.type.item is None:
        return NOT_A_LIST, "its add and remove calls change a value that is not a list"
    item, member = f.type.item, f.update_name
    # items sent as read, or structures compared by the member the calls take (Role.RoleName);
    # EnabledMetrics' structures are not what EnableMetricsCollection's Metrics takes
    if item.kind != "structure" or member in (None, f.name) or member in dict(item.members):
        return None
    return ITEMS_NOT_COMPARABLE, (
        f"its items are structures without the {member} its add and remove calls take, so the "
        "items read cannot be matched with the items sent"
    )


def performed(f: Field) -> bool:
    """The runtime can make this field what is wanted (see the module docstring)."""
    return not_performed(f) is None


def as_performed(f: Field) -> Field:
    """``f`` as the runtime can honour it: a mutable field whose update it cannot perform is
    create-only when the create takes it, read-only otherwise, with the rule that decided so
    and the reason in its provenance."""
    why = not_performed(f) if f.mutability is Mutability.MUTABLE else None
    if why is None:
        return f
    rule_id, reason = why
    fallback = Mutability.CREATE_ONLY if f.in_create else Mutability.READ_ONLY
    decided_by = f.provenance.get("mutability", "no recorded source")
    provenance = {
        **f.provenance,
        "mutability": source(rule_id),
        DEGRADED: f"{f.mutability.value} -> {fallback.value}: {reason} (was {decided_by})",
    }
    return dataclasses.replace(
        f,
        mutability=fallback,
        update_operation=None,
        update_name=None,
        update_kind=None,
        remove_operation=None,
        remove_name=None,
        update_paths=(),
        provenance=provenance,
    )


def degraded_fields(service: Service, resources: Iterable[str]) -> dict[str, str]:
    """ "Resource.Field" -> what render made of it and why, for the fields of ``resources``
    that :func:`runtime_service` degraded (the generated metadata lists them)."""
    return {
        f"{r.name}.{f.name}": f.provenance[DEGRADED]
        for r in (service.resource(n) for n in resources)
        for f in r.fields
        if DEGRADED in f.provenance
    }


def runtime_resource(r: Resource) -> Resource:
    fields = tuple(as_performed(f) for f in r.fields)
    if fields == r.fields:
        return r
    used = {f.update_operation for f in fields if f.update_operation}
    dropped = {
        name
        for before, after in zip(r.fields, fields, strict=True)
        if after is not before
        for name in (before.update_operation, before.remove_operation)
        if name and name not in used
    }
    degraded = {
        after.name for before, after in zip(r.fields, fields, strict=True) if after is not before
    }
    updates = tuple(
        dataclasses.replace(op, fields=tuple(n for n in op.fields if n not in degraded))
        for op in r.operations.update
        if op.name not in dropped
    )
    return dataclasses.replace(
        r, fields=fields, operations=dataclasses.replace(r.operations, update=updates)
    )


def runtime_service(service: Service) -> Service:
    """The service as the runtime can act on it (see the module docstring)."""
    return dataclasses.replace(
        service, resources=tuple(runtime_resource(r) for r in service.resources)
    )
