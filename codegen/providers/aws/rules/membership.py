"""Membership families: collections changed by a pair of calls, one adding items, one taking
them away, rather than by sending the whole new value.

AttachLoadBalancerTargetGroups / DetachLoadBalancerTargetGroups change an Auto Scaling group's
TargetGroupARNs; AssociateVPCWithHostedZone / DisassociateVPCFromHostedZone a private hosted
zone's VPCs; AssignPrivateNatGatewayAddress / UnassignPrivateNatGatewayAddress a NAT gateway's
secondary private addresses; EnableMetricsCollection / DisableMetricsCollection its enabled
metrics; PutLifecycleHook / DeleteLifecycleHook, one call per item, the lifecycle hooks an
Auto Scaling group was created with. Both calls are recorded on the field.
"""

from __future__ import annotations

from botocore.model import Shape

from codegen.annotate.draft import FieldDraft, ResourceDraft
from codegen.annotate.rules import rule, source
from codegen.model import Mutability, Operation
from codegen.providers.aws.rules.context import CONTROL_MEMBERS, AwsContext, members, words
from codegen.providers.aws.shapes import AwsCallShape

# (adding verb, removing verb)
MEMBERSHIP_VERBS: tuple[tuple[str, str], ...] = (
    ("Associate", "Disassociate"),
    ("Assign", "Unassign"),
    ("Attach", "Detach"),
    ("Register", "Deregister"),
    ("Enable", "Disable"),
    ("Add", "Remove"),
)
# words that join the two nouns of a pair and differ between its calls (VPCWithHostedZone,
# VPCFromHostedZone; RoleToInstanceProfile, RoleFromInstanceProfile)
_JOINING = {"With", "From", "To", "For", "In", "On", "And"}


def _pair_noun(op_name: str) -> tuple[str, str]:
    parts = words(op_name)
    return parts[0], "".join(w for w in parts[1:] if w not in _JOINING)


def membership_pairs(ctx: AwsContext) -> list[tuple[str, str]]:
    """(add, remove) operation pairs whose nouns agree once the joining words are dropped."""
    by_noun: dict[tuple[str, str], str] = {}
    for name in ctx.operation_names:
        if name not in ctx.tag_operations:
            by_noun.setdefault(_pair_noun(name), name)
    pairs = []
    for (verb, noun), name in sorted(by_noun.items(), key=lambda kv: kv[1]):
        for add, remove in MEMBERSHIP_VERBS:
            if verb == add and (remove, noun) in by_noun:
                pairs.append((name, by_noun[(remove, noun)]))
    return pairs


def selector_pairs(
    ctx: AwsContext, resource: ResourceDraft, op_name: str
) -> tuple[tuple[str, str], ...] | None:
    """(input member, state field) pairs by which a call selects the resource: each required
    identity member of its delete, under its own name or prefixed with the resource's
    (route53's HostedZoneId for a hosted zone's Id); None when it does not select it."""
    if resource.delete is None:
        return None
    identity = [
        m
        for m in resource.delete.identity_members
        if m in ctx.required_inputs(resource.delete.name)
    ]
    if not identity:
        return None
    required = set(ctx.required_inputs(op_name))
    pairs = []
    for member in identity:
        aliases = [member, resource.name + member, resource.api_name + member]
        found = next((a for a in aliases if a in required), None)
        if found is None:
            return None
        pairs.append((found, member))
    return tuple(pairs)


def _collection_for(resource: ResourceDraft, member: str, shape: Shape) -> FieldDraft | None:
    """The resource's field a call's member adds to: the same name (TargetGroupARNs), a longer
    name ending in it (SecondaryPrivateIpAddresses, EnabledMetrics), the plural of a one-item
    member (RoleName -> Roles); a list, or the same structure the create took (a zone's VPC)."""
    fields = resource.fields
    stem = member[: -len("Name")] if member.endswith("Name") else member
    names = [member, *[n for n in fields if n.endswith(member) and n != member], stem + "s"]
    for name in names:
        f = fields.get(name)
        if f is None or f.name in resource.primary:
            continue
        if f.type.kind == "list" or (f.type.kind == "structure" and f.type.name == shape.name):
            return f
    return None


def _payload(
    ctx: AwsContext, op_name: str, selectors: tuple[tuple[str, str], ...]
) -> dict[str, Shape]:
    skip = {m for m, _ in selectors} | CONTROL_MEMBERS | set(ctx.op(op_name).idempotent_members)
    return {m: s for m, s in ctx.input_members(op_name).items() if m not in skip}


def _remove_member(
    ctx: AwsContext, remove: str, member: str, selectors: tuple[tuple[str, str], ...]
) -> str | None:
    """What the removing call takes the items as: the same member, else its one required payload
    member (DisassociateNatGatewayAddress's AssociationIds)."""
    payload = _payload(ctx, remove, selectors)
    if member in payload:
        return member
    required = [m for m in ctx.required_inputs(remove) if m in payload]
    return required[0] if len(required) == 1 else None


def _record(
    resource: ResourceDraft,
    f: FieldDraft,
    add: str,
    remove: str,
    kind: str,
    selectors: tuple[tuple[str, str], ...],
    rid: str,
    member: str | None = None,
    remove_member: str | None = None,
) -> None:
    f.set("mutability", Mutability.MUTABLE, rid)
    f.set("update_operation", add, rid)
    f.set("remove_operation", remove, rid)
    f.set("update_kind", kind, rid)
    if kind == "add_remove" and f.type.kind == "list":
        f.set("unordered", True, rid)  # items join and leave one by one: their order means nothing
    if member and member != f.name:
        f.set("update_name", member, rid)
    if remove_member and remove_member != (member or f.name):
        f.set("remove_name", remove_member, rid)
    known = {op.name for op in resource.update}
    for name in (add, remove):
        if name not in known:
            resource.update.append(
                Operation(
                    name,
                    "update",
                    identity_members=tuple(m for m, _ in selectors),
                    fields=(f.name,),
                    source=rid,
                    call=AwsCallShape(identity_pairs=selectors),
                )
            )
    resource.provenance["update"] = rid


@rule("aws.add-remove-pair-updates")
def add_remove_pairs(ctx: AwsContext) -> None:
    """A collection field is changed item by item when a pair of calls that both select the
    resource (Associate/Disassociate, Assign/Unassign, Attach/Detach, Register/Deregister,
    Enable/Disable, Add/Remove) carries its items: mutable through the adding call, the removing
    call recorded beside it (``update_kind`` ``add_remove``). Calls that create or delete a
    resource of their own (AttachInternetGateway) are not membership calls."""
    rid = source("aws.add-remove-pair-updates")
    lifecycle = {op.name for r in ctx.resources() for op in (r.create, r.delete) if op is not None}
    for add, remove in membership_pairs(ctx):
        if add in lifecycle or remove in lifecycle:
            continue
        for resource in ctx.resources():
            selectors = selector_pairs(ctx, resource, add)
            if selectors is None or selector_pairs(ctx, resource, remove) is None:
                continue
            for member, shape in _payload(ctx, add, selectors).items():
                f = _collection_for(resource, member, shape)
                if f is not None and not _decided(f):
                    _record(
                        resource,
                        f,
                        add,
                        remove,
                        "add_remove",
                        selectors,
                        rid,
                        member,
                        _remove_member(ctx, remove, member, selectors),
                    )


_MEMBERSHIP = {verb for pair in MEMBERSHIP_VERBS for verb in pair}


def _decided(f: FieldDraft) -> bool:
    """Already changed by a call that sets the whole value (ModifyListener's Certificates), or
    by an earlier membership pair: the first one found stands."""
    op = f.get("update_operation")
    return f.get("update_kind") is not None or (op is not None and words(op)[0] not in _MEMBERSHIP)


def _item_shape(f: FieldDraft, ctx: AwsContext) -> Shape | None:
    if f.type.kind != "list" or f.type.item is None or f.type.item.kind != "structure":
        return None
    if f.type.item.name not in ctx.shape_names:
        return None  # a tag list made up for a service without a Tag shape
    return ctx.model.shape_for(f.type.item.name)


@rule("aws.put-delete-per-item")
def put_delete_items(ctx: AwsContext) -> None:
    """A list field the create takes as structures (LifecycleHookSpecificationList) whose items
    are what a Put<Noun> call takes beside the resource's selector, and whose Delete<Noun> takes
    the item's key (PutLifecycleHook / DeleteLifecycleHook), is changed one call per item
    (``update_kind`` ``per_item``)."""
    rid = source("aws.put-delete-per-item")
    puts = [(n, noun) for n, _, noun in ctx.ops_with_verb("Put") if n not in ctx.tag_operations]
    for resource in ctx.resources():
        for f in resource.fields.values():
            item = _item_shape(f, ctx)
            if item is None or not f.in_create or "mutability" in f.provenance:
                continue
            for put, noun in puts:
                delete = "Delete" + noun
                if delete not in ctx.operation_names:
                    continue
                selectors = selector_pairs(ctx, resource, put)
                if selectors is None or selector_pairs(ctx, resource, delete) is None:
                    continue
                taken = set(_payload(ctx, put, selectors))
                keys = set(_payload(ctx, delete, selectors))
                if (
                    set(item.required_members) <= taken
                    and set(members(item)) <= taken
                    and keys
                    and keys <= set(members(item))
                ):
                    _record(resource, f, put, delete, "per_item", selectors, rid)
                    break
