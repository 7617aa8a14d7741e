"""How each field can change, and which are secret: ``readOnly``, ``x-ms-mutability`` where it
can be trusted, ARM's own contract where the documents say nothing, ``x-ms-secret``.

``x-ms-mutability`` is unreliable (ASO's generator learned this): most properties carry none,
and a missing annotation says nothing. So it is trusted only where it *restricts* — a list
that leaves out ``update`` (create-only) or ``create`` and ``update`` (read-only) is a
deliberate statement by whoever wrote it — and never read as "mutable" by its absence. Where
the documents are silent, ARM's contract decides the envelope (``id``, ``name``, ``type``,
``etag``, ``systemData`` are the server's; a tracked resource's ``location`` cannot change, a
move is not an update) and every other member of the PUT body is mutable, because a PUT
replaces the whole resource. Each decision's provenance names which of these it was.
"""

from __future__ import annotations

from dataclasses import replace

from codegen.annotate.rules import rule, source
from codegen.model import Mutability, Operation
from codegen.providers.azure.rules.calls import tags_only
from codegen.providers.azure.rules.context import AzureContext, flag
from codegen.providers.azure.rules.resources import body_of, flattened
from codegen.providers.azure.shapes import AzureCallShape, azure

SERVER_ENVELOPE = ("id", "name", "type", "etag", "systemData")
"""Members of every ARM resource that the server sets: the id and name come from the path."""


@rule("azure.read-only")
def read_only(ctx: AzureContext) -> None:
    """``readOnly: true`` on the property, or on the definition it ``$ref``s (network's
    ``ProvisioningState``), is the server's: read-only."""
    rid = source(read_only.id)
    for resource, facts in ctx.resources():
        for name, (target, _, raw) in facts.members.items():
            if flag(raw, target, "readOnly") is True:
                resource.fields[name].set("mutability", Mutability.READ_ONLY, rid)


@rule("azure.arm-envelope-is-the-servers")
def server_envelope(ctx: AzureContext) -> None:
    """ARM's resource contract: ``id``, ``name`` and ``type`` are the path's, ``etag`` and
    ``systemData`` the server's, whether or not a document marks them ``readOnly`` (network's
    ``Resource.id`` does not)."""
    rid = source(server_envelope.id)
    for resource, facts in ctx.resources():
        for name in SERVER_ENVELOPE:
            f = resource.fields.get(name)
            if f is not None and facts.members[name][1] == name and "mutability" not in f.values:
                f.set("mutability", Mutability.READ_ONLY, rid)


@rule("azure.x-ms-mutability-restricts")
def x_ms_mutability(ctx: AzureContext) -> None:
    """Trusted where it restricts: ``x-ms-mutability`` without ``update`` is create-only
    (with ``create``) or read-only (without); a field it leaves out of ``read`` is write-only.
    A list that includes ``update`` is not evidence on its own (the default rule below says
    the same), and none at all says nothing."""
    rid = source(x_ms_mutability.id)
    for resource, facts in ctx.resources():
        for name, (target, _, raw) in facts.members.items():
            listed = flag(raw, target, "x-ms-mutability")
            f = resource.fields[name]
            if not isinstance(listed, list) or f.get("mutability") is Mutability.READ_ONLY:
                continue
            if "update" not in listed:
                kind = Mutability.CREATE_ONLY if "create" in listed else Mutability.READ_ONLY
                f.set("mutability", kind, rid)
            if "read" not in listed:
                f.set("write_only", True, rid)


@rule("azure.location-is-create-only")
def location_create_only(ctx: AzureContext) -> None:
    """From ARM's contract, not the documents (network's ``Resource.location`` has no
    ``x-ms-mutability``; the common types' ``TrackedResource.location`` says read+create): a
    tracked resource's ``location`` is set by its create and never changed by a PUT."""
    rid = source(location_create_only.id)
    for resource, facts in ctx.resources():
        f = resource.fields.get("location")
        if f is not None and facts.members["location"][1] == "location":
            if f.get("mutability") is Mutability.UNKNOWN:
                f.set("mutability", Mutability.CREATE_ONLY, rid)


@rule("azure.patch-model-names-what-changes")
def patch_model(ctx: AzureContext) -> None:
    """Evidence where ``x-ms-mutability`` is silent: a resource whose PATCH takes its own
    update model (compute's ``DiskUpdate``, not a tags-only ``TagsObject``) changes in place
    exactly what that model carries, through the PATCH; what the PUT takes and the model leaves
    out (a disk's ``creationData``, ``zones``, ``extendedLocation``) is create-only. The
    provider published the update model; an overlay corrects a member it forgot."""
    rid = source(patch_model.id)
    for resource, facts in ctx.resources():
        patch = facts.item.operations.get("patch")
        if patch is None or tags_only(ctx, facts.item, patch):
            continue
        body_name, body = body_of(ctx, facts.item, "patch")
        if body is None:
            continue
        carried = {name for name, _, _, _ in flattened(ctx, body)}
        read = azure(resource.read) if resource.read is not None else AzureCallShape()
        update = Operation(
            name=str(patch.get("operationId", "patch")),
            role="update",
            identity_members=("id",),
            call=replace(read, method="PATCH", body_parameter=body_name),
            source=rid,
        )
        fields = []
        for f in resource.fields.values():
            if f.get("mutability") is not Mutability.UNKNOWN or not f.in_create:
                continue
            if f.name in carried:
                f.set("mutability", Mutability.MUTABLE, rid)
                f.set("update_operation", update.name, rid)
                fields.append(f.name)
            else:
                f.set("mutability", Mutability.CREATE_ONLY, rid)
        resource.set("update", [*resource.update, replace(update, fields=tuple(fields))], rid)


@rule("azure.put-replaces-the-rest")
def put_mutable(ctx: AzureContext) -> None:
    """Every other field the PUT body takes is mutable: PUT replaces the resource, so what it
    carries can be changed by carrying a new value. What the body does not take and no rule
    classed is the server's (read-only)."""
    rid = source(put_mutable.id)
    for resource, _ in ctx.resources():
        for f in resource.fields.values():
            if f.get("mutability") is Mutability.UNKNOWN:
                f.set(
                    "mutability", Mutability.MUTABLE if f.in_create else Mutability.READ_ONLY, rid
                )
                if f.in_create and resource.create is not None:
                    f.set("update_operation", resource.create.name, rid)


@rule("azure.x-ms-secret")
def secret(ctx: AzureContext) -> None:
    """``x-ms-secret: true``: the value is a secret, sensitive everywhere, and ARM's GET does
    not return it (write-only)."""
    rid = source(secret.id)
    for resource, facts in ctx.resources():
        for name, (target, _, raw) in facts.members.items():
            if flag(raw, target, "x-ms-secret") is True:
                resource.fields[name].set("sensitive", True, rid)
                resource.fields[name].set("write_only", True, rid)


@rule("azure.required")
def required(ctx: AzureContext) -> None:
    """A member the schema's ``required`` lists (or an ``allOf`` parent's) is required by the
    create."""
    rid = source(required.id)
    for resource, facts in ctx.resources():
        for name in facts.required:
            if resource.fields[name].in_create:
                resource.fields[name].set("required", True, rid)
