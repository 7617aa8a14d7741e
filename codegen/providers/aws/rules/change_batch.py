"""Change-batch resources: Route 53's record sets.

A record set has no create, update or delete of its own. ``ChangeResourceRecordSets`` takes
its hosted zone and a ``ChangeBatch`` whose ``Changes`` are ``{Action: CREATE | UPSERT |
DELETE, ResourceRecordSet: {...}}``; ``ListResourceRecordSets`` lists the zone's record sets
from ``StartRecordName`` / ``StartRecordType``. The resource is the change's item: its fields
are the item's members, found by the members the list starts at (name and type) inside the
parent, and owned through that parent (record sets carry no tags).
"""

from __future__ import annotations

from botocore.model import Shape

from codegen.annotate.draft import FieldDraft, ResourceDraft
from codegen.annotate.rules import rule, source
from codegen.model import ChangeBatch, Mutability, Operation
from codegen.providers.aws.rules.context import (
    AwsContext,
    documentation_text,
    enum_of,
    is_list_of,
    list_item,
    members,
    split_operation,
)
from codegen.providers.aws.shapes import with_aws

ACTIONS = ("CREATE", "UPSERT", "DELETE")


def _changes(shape: Shape | None) -> tuple[str, str, str, Shape] | None:
    """(changes member, action member, item member, item shape) of a batch structure."""
    for changes, listed in members(shape).items():
        change = members(list_item(listed))
        action = next(
            (m for m, s in change.items() if set(ACTIONS) <= set(enum_of(s))),
            None,
        )
        items = [(m, s) for m, s in change.items() if s.type_name == "structure"]
        if action and len(items) == 1:
            return changes, action, items[0][0], items[0][1]
    return None


def _listing(
    ctx: AwsContext, parent: str, item: Shape
) -> tuple[str, str, list[tuple[str, str]]] | None:
    """(list operation, output member, (start member, item member) pairs) listing ``item``s of
    the parent from a start key: each ``Start<Item><Member>`` input names a member of the item."""
    for name in ctx.operation_names:
        if not name.startswith("List") or ctx.required_inputs(name) != [parent]:
            continue
        output = next(
            (m for m, s in ctx.output_members(name).items() if is_list_of(s, item.name)),
            None,
        )
        if output is None:
            continue
        start = []
        for member in ctx.input_members(name):
            if member.startswith("Start"):
                rest = member[len("Start") :]
                target = next((f for f in item.required_members if rest.endswith(f)), None)
                if target:
                    start.append((member, target))
        if start:
            return name, output, start
    return None


@rule("aws.change-batch-resource")
def change_batch_resources(ctx: AwsContext) -> None:
    """``Change<Items>`` operations taking a parent id and a batch of ``{Action: CREATE|UPSERT|
    DELETE, <Item>}`` changes, with a ``List<Items>`` listing the parent's items from a start
    key, make the item a resource: created by CREATE, changed by UPSERT (the whole item),
    deleted by DELETE (the item as it is), found by its start-key members within its parent."""
    rid = source("aws.change-batch-resource")
    for op_name in ctx.operation_names:
        verb, _ = split_operation(op_name)
        required = ctx.required_inputs(op_name)
        if verb != "Change" or len(required) != 2:
            continue
        inputs = ctx.input_members(op_name)
        batch = next((m for m in required if inputs[m].type_name == "structure"), None)
        parent = next((m for m in required if inputs[m].type_name == "string"), None)
        found = _changes(inputs[batch]) if batch else None
        if batch is None or parent is None or found is None:
            continue
        changes, action, item_member, item = found
        listing = _listing(ctx, parent, item)
        if listing is None or item.name in ctx.draft.resources:
            continue
        _add(
            ctx,
            op_name,
            parent,
            item,
            listing,
            rid,
            ChangeBatch(
                operation=op_name,
                batch_member=batch,
                changes_member=changes,
                action_member=action,
                item_member=item_member,
                create_action="CREATE",
                upsert_action="UPSERT",
                delete_action="DELETE",
                parent_member=parent,
                start=tuple(listing[2]),
                source=rid,
            ),
        )


def _add(
    ctx: AwsContext,
    op_name: str,
    parent: str,
    item: Shape,
    listing: tuple[str, str, list[tuple[str, str]]],
    rid: str,
    batch: ChangeBatch,
) -> None:
    draft = ResourceDraft(name=item.name, api_name=item.name, shape=item.name)
    draft.documentation = documentation_text(ctx.op(op_name)).split("\n\n")[0]
    keys = tuple(f for _, f in batch.start)
    names_parent = {"identity_pairs": ((parent, parent),)}  # each change names the parent
    draft.set("create", Operation(op_name, "create", source=rid), rid)
    update = Operation(
        op_name, "update", fields=tuple(m for m in members(item) if m not in keys), source=rid
    )
    draft.set("update", [with_aws(update, **names_parent)], rid)
    draft.set("delete", with_aws(Operation(op_name, "delete", source=rid), **names_parent), rid)
    read = Operation(
        listing[0],
        "read",
        output_member=listing[1],
        output_is_list=True,
        id_filter=parent,
        source=rid,
    )
    draft.set("read", with_aws(read, id_filter_is_list=False), rid)
    draft.set("primary", (parent, *keys), rid)
    draft.set("natural", keys, rid)
    draft.set("parent", (parent,), rid)
    draft.set("owner_parent", parent, rid)
    draft.set("change_batch", batch, rid)
    owner = parent[: -len("Id")] if parent.endswith("Id") else None
    zone = FieldDraft(
        parent,
        ctx.field_type(ctx.input_members(op_name)[parent]),
        documentation_text(ctx.input_members(op_name)[parent]),
        in_create=True,
        in_read=True,
    )
    zone.set("mutability", Mutability.CREATE_ONLY, rid)
    zone.set("required", True, rid)
    if owner in ctx.draft.resources:
        zone.set("references", owner, rid)
    draft.fields[parent] = zone
    for name, shape in members(item).items():
        f = FieldDraft(
            name, ctx.field_type(shape), documentation_text(shape), in_create=True, in_read=True
        )
        fixed = name in keys
        f.set("mutability", Mutability.CREATE_ONLY if fixed else Mutability.MUTABLE, rid)
        f.set("required", name in item.required_members, rid)
        if not fixed:
            f.set("update_operation", op_name, rid)
        draft.fields[name] = f
    for f in draft.fields.values():
        f.provenance.setdefault("name", rid)
    ctx.draft.resources[item.name] = draft
