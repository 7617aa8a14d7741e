"""Updates that carry a field in another shape than the create took it.

- JSON patch (API Gateway): Update<R> takes ``patchOperations`` ({op, path, value}) rather
  than the fields themselves; each field the create took and reads return is patched at
  ``/<field>``.
- Nested: UpdateHostedZoneComment takes ``Comment``, a member of the zone's HostedZoneConfig.
- Flattened: ModifySubnetAttribute takes ``PrivateDnsHostnameTypeOnLaunch``, the
  ``HostnameType`` of the subnet's PrivateDnsNameOptionsOnLaunch, its name wrapped in words of
  the field's own name.
- Keyed items: ModifySecurityGroupRules takes [{SecurityGroupRuleId, SecurityGroupRule: {…}}],
  new values for the rules it names by id.

Each records the update call, its kind and the (update path, field path) pairs it carries.
"""

from __future__ import annotations

import dataclasses

from botocore.model import Shape

from codegen.annotate.draft import FieldDraft, ResourceDraft
from codegen.annotate.rules import rule, source
from codegen.model import Mutability, Operation
from codegen.providers.aws.rules.context import (
    CONTROL_MEMBERS,
    AwsContext,
    list_item,
    members,
    split_operation,
)
from codegen.providers.aws.rules.membership import selector_pairs
from codegen.providers.aws.rules.updates import UPDATE_VERBS
from codegen.providers.aws.shapes import AwsCallShape


def _undecided(f: FieldDraft) -> bool:
    return "mutability" not in f.provenance


def _mark(
    resource: ResourceDraft,
    f: FieldDraft,
    op_name: str,
    kind: str,
    paths: tuple[tuple[str, str], ...],
    selectors: tuple[tuple[str, str], ...],
    rid: str,
) -> None:
    f.set("mutability", Mutability.MUTABLE, rid)
    f.set("update_operation", op_name, rid)
    f.set("update_kind", kind, rid)
    f.set("update_paths", paths, rid)
    known = {op.name: i for i, op in enumerate(resource.update)}
    if op_name in known:
        op = resource.update[known[op_name]]
        if f.name not in op.fields:
            resource.update[known[op_name]] = dataclasses.replace(op, fields=(*op.fields, f.name))
    else:
        resource.update.append(
            Operation(
                op_name,
                "update",
                identity_members=tuple(m for m, _ in selectors),
                fields=(f.name,),
                source=rid,
                call=AwsCallShape(identity_pairs=selectors),
            )
        )
    resource.provenance["update"] = rid


def _payload(
    ctx: AwsContext, op_name: str, selectors: tuple[tuple[str, str], ...]
) -> dict[str, Shape]:
    skip = {m for m, _ in selectors} | CONTROL_MEMBERS
    return {m: s for m, s in ctx.input_members(op_name).items() if m not in skip}


def _update_candidates(
    ctx: AwsContext, resource: ResourceDraft
) -> list[tuple[str, tuple[tuple[str, str], ...]]]:
    """Operations with an update verb that select the resource and require nothing else, with
    how they select it."""
    out = []
    claimed = {
        op.name for r in ctx.resources() for op in (r.create, r.delete, r.read) if op is not None
    }
    for name in ctx.operation_names:
        if (
            split_operation(name)[0] not in UPDATE_VERBS
            or name in claimed
            or name in ctx.tag_operations
        ):
            continue
        selectors = selector_pairs(ctx, resource, name)
        # it selects this resource and nothing more (UpdateAuthorizer also names an authorizer)
        if selectors is not None and set(ctx.required_inputs(name)) <= {m for m, _ in selectors}:
            out.append((name, selectors))
    return out


def _is_patch_list(shape: Shape) -> bool:
    item = list_item(shape)
    return (
        item is not None and item.type_name == "structure" and {"op", "path"} <= set(members(item))
    )


@rule("aws.json-patch-update")
def json_patch(ctx: AwsContext) -> None:
    """An update that selects the resource and takes a list of {op, path, value} patch
    operations (API Gateway's ``patchOperations``) changes each field the create took, at
    ``/<field>``: those fields are mutable through it (``update_kind`` ``json_patch``); the
    patch list itself is no field."""
    rid = source("aws.json-patch-update")
    for resource in ctx.resources():
        for op_name, selectors in _update_candidates(ctx, resource):
            patch = [m for m, s in _payload(ctx, op_name, selectors).items() if _is_patch_list(s)]
            if len(patch) != 1:
                continue
            chosen = {m for _, m in selectors}
            made_up = resource.fields.get(patch[0])
            if made_up is not None and not made_up.in_create and not made_up.in_read:
                # the patch list is how the call speaks, not a field of the resource
                del resource.fields[patch[0]]
                resource.update = [
                    dataclasses.replace(op, fields=tuple(n for n in op.fields if n != patch[0]))
                    for op in resource.update
                ]
            for f in resource.fields.values():
                if f.in_create and _undecided(f) and f.name not in chosen:
                    _mark(
                        resource,
                        f,
                        op_name,
                        "json_patch",
                        ((patch[0], "/" + f.name),),
                        selectors,
                        rid,
                    )


def _struct_members(ctx: AwsContext, f: FieldDraft) -> dict[str, Shape]:
    if f.type.kind != "structure" or not f.type.name or f.type.name not in ctx.shape_names:
        return {}
    return dict(members(ctx.model.shape_for(f.type.name)))


@rule("aws.nested-update-member")
def nested_member(ctx: AwsContext) -> None:
    """An update that selects the resource and carries a member no field is named after, but
    which is a member of one of its structure fields (UpdateHostedZoneComment's ``Comment`` in
    HostedZoneConfig), changes that part of the field (``update_kind`` ``nested``)."""
    rid = source("aws.nested-update-member")
    for resource in ctx.resources():
        for op_name, selectors in _update_candidates(ctx, resource):
            payload = list(_payload(ctx, op_name, selectors))
            if not payload or any(m in resource.fields for m in payload):
                continue  # it updates fields of its own (AssociateVPCWithHostedZone's VPC)
            for f in resource.fields.values():
                inner = _struct_members(ctx, f)
                paths = tuple((m, m) for m in payload if m in inner)
                if f.in_create and _undecided(f) and len(paths) == len(payload):
                    _mark(resource, f, op_name, "nested", paths, selectors, rid)


def _flattened(field: str, update_member: str, inner: str) -> bool:
    """``PrivateDnsHostnameTypeOnLaunch`` is ``HostnameType`` wrapped in a prefix and a suffix of
    ``PrivateDnsNameOptionsOnLaunch``; at least one of them is not empty."""
    at = update_member.find(inner)
    if at < 0:
        return False
    prefix, suffix = update_member[:at], update_member[at + len(inner) :]
    return bool(prefix or suffix) and field.startswith(prefix) and field.endswith(suffix)


@rule("aws.flattened-update-members")
def flattened_members(ctx: AwsContext) -> None:
    """A structure field whose every member an update carries under a flattened name, the
    member's name wrapped in words of the field's (ModifySubnetAttribute's
    ``EnableResourceNameDnsARecordOnLaunch`` for PrivateDnsNameOptionsOnLaunch's
    ``EnableResourceNameDnsARecord``), is mutable through it (``update_kind`` ``flattened``)."""
    rid = source("aws.flattened-update-members")
    for resource in ctx.resources():
        for op_name, selectors in _update_candidates(ctx, resource):
            payload = list(_payload(ctx, op_name, selectors))
            for f in resource.fields.values():
                inner = _struct_members(ctx, f)
                if not inner or not (_undecided(f) or f.get("mutability") is Mutability.READ_ONLY):
                    continue
                paths = []
                for name in inner:
                    found = [m for m in payload if _flattened(f.name, m, name)]
                    if len(found) == 1:
                        paths.append((found[0], name))
                if paths and len(paths) == len(inner):
                    _mark(resource, f, op_name, "flattened", tuple(paths), selectors, rid)


def _keyed_items(
    ctx: AwsContext, resource: ResourceDraft, shape: Shape
) -> tuple[str, str, dict[str, Shape]] | None:
    """(key member, value member, value's members) of a list of {<primary id>, <structure>}."""
    item = list_item(shape)
    if item is None or item.type_name != "structure" or len(resource.primary) != 1:
        return None
    key = resource.primary[0]
    item_members = members(item)
    others = [(n, s) for n, s in item_members.items() if n != key]
    if key not in item_members or len(others) != 1 or others[0][1].type_name != "structure":
        return None
    return key, others[0][0], dict(members(others[0][1]))


@rule("aws.keyed-item-update")
def keyed_items(ctx: AwsContext) -> None:
    """An update of the resource's parent that takes a list of {<the resource's id>, <new
    value>} items (ModifySecurityGroupRules' [{SecurityGroupRuleId, SecurityGroupRule}]) changes
    each field named in the new value (``update_kind`` ``keyed_item``)."""
    rid = source("aws.keyed-item-update")
    for resource in ctx.resources():
        for op_name in ctx.operation_names:
            if split_operation(op_name)[0] not in UPDATE_VERBS:
                continue
            members = ctx.input_members(op_name)
            for list_member, shape in members.items():
                keyed = _keyed_items(ctx, resource, shape)
                if keyed is None:
                    continue
                key, value, inner = keyed
                selectors = tuple((m, m) for m in ctx.required_inputs(op_name) if m != list_member)
                if not all(m in resource.fields for m, _ in selectors):
                    continue
                for f in resource.fields.values():
                    if f.name in inner and _undecided(f) and f.name not in dict(selectors):
                        path = f"{list_member}[].{value}.{f.name}"
                        _mark(
                            resource,
                            f,
                            op_name,
                            "keyed_item",
                            ((path, f.name),),
                            ((list_member + "[]." + key, key), *selectors),
                            rid,
                        )
