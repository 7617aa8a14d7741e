"""What the runtime can do with the model's update kinds, applied before anything is rendered.

The model records every way a field can change (``Field.update_kind``: add/remove pairs,
per-item puts, JSON patches, nested and flattened members, keyed items). The runtime sends a
field's new value through its update call, and changes a membership list through its add and
remove calls (``add_remove``, runtime/aws/updates.py ``members``) when both calls take the items
under one member and the items can be compared as read: the field is a list, of values or of
structures holding that member (an instance profile's Roles, by RoleName). A field changed
only in another way is rendered as the runtime can honour it: set at creation and refused
after (create-only) when the create takes it, the cloud's to say (read-only) otherwise. A
change is then refused before any call, never sent in a shape the API would reject.
"""

from __future__ import annotations

import dataclasses

from codegen.model import Field, Mutability, Resource, Service

# update kinds the runtime performs: None is "send the new value through the update call"
RUNTIME_UPDATE_KINDS: frozenset[str | None] = frozenset({None, "add_remove"})


def performed(f: Field) -> bool:
    """The runtime can make this field what is wanted (see the module docstring)."""
    if f.update_kind not in RUNTIME_UPDATE_KINDS:
        return False
    if f.update_kind != "add_remove":
        return True
    if f.remove_name is not None or f.type.kind != "list" or f.type.item is None:
        return False  # a renamed remove member (NAT AllocationIds -> AssociationIds) needs a lookup
    item, member = f.type.item, f.update_name
    # items sent as read, or structures compared by the member the calls take (Role.RoleName);
    # EnabledMetrics' structures are not what EnableMetricsCollection's Metrics takes
    return item.kind != "structure" or member in (None, f.name) or member in dict(item.members)


def as_performed(f: Field) -> Field:
    if f.mutability is not Mutability.MUTABLE or performed(f):
        return f
    fallback = Mutability.CREATE_ONLY if f.in_create else Mutability.READ_ONLY
    return dataclasses.replace(
        f, mutability=fallback, update_operation=None, update_name=None, update_kind=None,
        remove_operation=None, remove_name=None, update_paths=(),
    )


def runtime_resource(r: Resource) -> Resource:
    fields = tuple(as_performed(f) for f in r.fields)
    if fields == r.fields:
        return r
    used = {f.update_operation for f in fields if f.update_operation}
    dropped = {
        name for before, after in zip(r.fields, fields) if after is not before
        for name in (before.update_operation, before.remove_operation) if name and name not in used
    }
    degraded = {after.name for before, after in zip(r.fields, fields) if after is not before}
    updates = tuple(
        dataclasses.replace(op, fields=tuple(n for n in op.fields if n not in degraded))
        for op in r.operations.update if op.name not in dropped
    )
    return dataclasses.replace(r, fields=fields, operations=dataclasses.replace(r.operations, update=updates))


def runtime_service(service: Service) -> Service:
    """The service as the runtime can act on it (see the module docstring)."""
    return dataclasses.replace(service, resources=tuple(runtime_resource(r) for r in service.resources))
